"""Whatever people type or are called, the host answers in one line and keeps drawing.

Input is cleaned once where it enters the host (`bot/clean.py`): NFKC, no control or
separator characters, no bidi overrides, names capped. And a picture that cannot be
drawn costs nothing but the picture: the text board goes instead.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from hypothesis import given, settings
from PIL import Image

from bot import clean
from bot.clean import NAME_MAX, QUOTE_MAX
from bot.model import Private, User
from bot.parser import MAX_TEXT
from render.text import draw_text
from tests.conftest import ALICE, BOB, Clock, Table, close_table, open_table
from tests.support.hostile import hostile_names

BREAKING = "\n\r\x1c\x1d\x1e\x85\u2028\u2029\x00\x7f\ud800"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def one_line(replies) -> str:
    assert len(replies) == 1, replies
    text = replies[0].text
    assert "\n" not in text, text
    return text


# --- 1: numbers in any script --------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "heaps"), [
    ("/nim start ２ ３ ４", [2, 3, 4]),  # full-width, as Chinese keyboards type them
    ("/nim start ² ³", [2, 3]),  # superscripts: str.isdigit says yes, int() says no
    ("/nim start ① 𝟓", [1, 5]),  # circled, mathematical bold
    ("/ｎｉｍ　ｓｔａｒｔ　７", [7]),  # full-width words and the ideographic space
])
async def test_digits_of_any_keyboard_are_read_as_the_digits_they_show(table: Table, typed: str,
                                                                       heaps: list[int]) -> None:
    opened = await table.say(ALICE, typed)
    assert "opened a table for Nim" in opened[0].text
    assert (await table.session()).options["heaps"] == heaps


async def test_seats_and_replays_read_unicode_digits(table: Table) -> None:
    await table.say(ALICE, "/checkers start ³")
    assert len((await table.session()).seats) == 3
    await table.say(ALICE, "/cancel")
    await table.say(ALICE, "/nim start 3 3")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 1 1")
    await table.say(BOB, "/take 1 1")
    assert (await table.say(BOB, "/replay ²"))[0].text == "After move 2 of 2: 1 1"
    assert (await table.say(BOB, "/replay ２"))[0].text == "After move 2 of 2: 1 1"


@pytest.mark.parametrize("typed", [
    "/nim start ٣",  # Arabic-Indic three: NFKC keeps it, and it is no ASCII digit
    "/nim start max=" + "9" * 900,
    "/nim start 3 max=" + "１" * 12,
    "/checkers start ⁹",
])
async def test_numbers_that_are_not_numbers_a_player_types_are_refused_in_one_line(table: Table,
                                                                                   typed: str) -> None:
    one_line(await table.say(ALICE, typed))
    assert await table.session() is None


# --- 2: a table that never began -------------------------------------------------------------------------
async def test_board_record_and_replay_after_a_table_that_never_began(table: Table, clock: Clock) -> None:
    closings = [
        ["/nim start", "/cancel"],  # cancelled by its starter
        ["/nim challenge @bob", "!/decline"],  # a declined challenge (bob types what starts with !)
        ["/nim start", "expire"],  # nobody came
    ]
    for closing in closings:
        for line in closing:
            if line == "expire":
                clock.advance(1000)
                await table.host.expire_due()
            elif line.startswith("!"):
                await table.say(BOB, line[1:])
            else:
                await table.say(ALICE, line, bob=BOB)
        assert (await table.session()).status == "cancelled", closing
        for look in ("/board", "/record", "/replay", "/replay 1", "/board numbers"):
            assert "There is no game in this channel" in one_line(await table.say(BOB, look)), (closing, look)


async def test_a_games_own_words_before_it_begins_say_it_has_not_begun(table: Table) -> None:
    """At an open Dou Dizhu table, /bid and /play are its words, not another game's: "not started",
    not "/bid does not apply to the game in this channel". Another game's word still does not apply."""
    await table.say(ALICE, "/ddz start")
    for line in ("/bid 3", "/play 33", "/hand", "/pass"):
        assert one_line(await table.say(ALICE, line)) == "The game has not started yet.", line
    assert one_line(await table.say(ALICE, "/take 1 1")) == "/take does not apply to the game in this channel."


# --- 3: names and echoes that would break pictures and messages ----------------------------------------
async def test_hostile_names_are_cleaned_before_they_are_stored_or_drawn(table: Table) -> None:
    eve = User("console:eve", f"E{BREAKING}v{BIDI}e" + "x" * 500, "eve")
    challenged = await table.say(eve, "/nim challenge @bob 3 4", bob=User(BOB.id, f"Bo{BREAKING}b", "bob"))
    assert "challenges Bo b to Nim" in challenged[0].text
    begun = await table.say(BOB, "/accept")
    assert begun[0].image is not None  # the real renderer drew both names
    seats = (await table.session()).seats
    assert seats[0].name == "E ve" + "x" * (NAME_MAX - 5) + "…" and len(seats[0].name) == NAME_MAX
    assert seats[1].name == "Bob"  # as Bob named himself when he accepted
    for reply in begun:
        assert not any(c in reply.text for c in BREAKING[1:] + BIDI)
    await table.say(BOB, "/resign")
    nobody = User("console:nobody", BREAKING + BIDI, None)  # nothing left of the name: "?"
    assert (await table.say(nobody, "/gomoku start"))[0].text.startswith("? opened a table for Gomoku")


async def test_a_refusal_quotes_at_most_a_few_words_of_what_was_typed(table: Table) -> None:
    long_word = "banana" * 100
    text = one_line(await table.say(ALICE, f"/nim start 3 {long_word}"))
    assert "banana" * 6 in text and long_word not in text and len(text) < 200
    text = one_line(await table.say(ALICE, f"/rules {BIDI}chess\u202e{'x' * 300}"))
    assert not any(c in text for c in BIDI) and "x" * QUOTE_MAX not in text


async def test_a_name_stored_before_cleaning_still_gets_its_board_as_text(table: Table, caplog) -> None:
    await table.say(ALICE, "/nim solo 3 4")
    # A seat saved by an older version, before names were cleaned: the renderer refuses it.
    await table.store.db.execute("UPDATE seats SET name=? WHERE seat=0", ("Al\nice",))
    with caplog.at_level(logging.ERROR, logger="bot.replies"):
        shown = await table.say(BOB, "/board")
    assert shown[0].image is None and " 1 | ●●●" in shown[0].text
    assert "drawing nim failed" in caplog.text


async def test_no_render_failure_costs_a_reply(tmp_path: Path, caplog) -> None:
    def broken(game, view, ctx):
        raise RuntimeError("raqm_layout() failed")

    table = await open_table(tmp_path / "g.db", Clock(), draw=broken)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.replies"):
            begun = await table.say(ALICE, "/ddz solo")
            moved = await table.say(ALICE, "/hand")
        assert begun[0].image is None and "Dou Dizhu (斗地主) begins" in begun[0].text
        assert [r.audience for r in begun[1:]] == [Private(ALICE.id)] and begun[1].text_board is None and begun[1].text
        assert moved[0].image is None and moved[0].text
        assert caplog.text.count("drawing doudizhu failed") >= 3
    finally:
        await close_table(table)


# --- 6: too long ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["/move " + "h8 " * 2000, "/nim start " + "x" * MAX_TEXT, "/" + "x" * 100_000])
async def test_a_command_that_is_too_long_gets_one_line(table: Table, typed: str) -> None:
    assert "too long for a command" in one_line(await table.say(ALICE, typed))


async def test_long_chat_that_is_no_command_is_left_alone(table: Table) -> None:
    assert await table.say(ALICE, "hello " * 1000) == []


@settings(max_examples=150, deadline=None)
@given(hostile_names())
def test_any_name_once_cleaned_is_one_line_that_draws(shown: str) -> None:
    """Whatever someone is called (the hostile alphabet: controls, separators, bidi overrides, lone
    surrogates, emoji sequences, over-long names), the cleaned name is one line of at most
    NAME_MAX characters that can be sent and drawn."""
    cleaned = clean.name(shown)
    assert cleaned and len(cleaned) <= NAME_MAX and cleaned == cleaned.strip()
    assert not clean.BREAKING.search(cleaned) and not clean.BIDI.search(cleaned)
    cleaned.encode("utf-8")
    draw_text(Image.new("RGB", (400, 60), "white"), (4, 40), cleaned, 20)


@settings(max_examples=30, deadline=None)
@given(hostile_names(), hostile_names())
def test_players_of_any_name_get_their_board_drawn(tmp_path_factory: pytest.TempPathFactory, first: str,
                                                    second: str) -> None:
    """Two people with names from the hostile alphabet open and join a table and look at it: every
    answer comes, and the board is a picture (a name with a line break must not make the renderer
    raise after the move was committed)."""

    async def run() -> None:
        table = await open_table(tmp_path_factory.mktemp("names") / "g.db", Clock())
        try:
            await table.say(User(ALICE.id, first, "alice"), "/nim start 3 4")
            joined = await table.say(User(BOB.id, second, "bob"), "/join")
            assert joined and joined[0].image is not None
            assert (await table.say(BOB, "/board"))[0].image is not None
        finally:
            await close_table(table)

    asyncio.run(run())
