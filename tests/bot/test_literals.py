"""No user-facing word bypasses the catalogs: whole games of every kind played in a made-up
language, every word the players see (texts, buttons, text boards, every string drawn on the
pictures) checked.

The made-up language is English with every letter of every template made full-width
("Ｎｉｍ ｂｅｇｉｎｓ"), placeholders left alone. So a plain ASCII word that reaches a player can
only have come from outside the catalogs: a literal in bot/, render/ or engines/, or a parameter.
Parameters are names and notation (moves as typed, levels, command and option words), collected
from the games themselves as they are played, so notation is never flagged.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

import engines
import render
from bot import i18n
from bot.adapters.console import Console
from bot.command_table import GAME_ACTIONS, HOST_COMMANDS
from bot.model import Reply
from render.base import RenderContext
from tests.conftest import ALICE, BOB, CAROL, Clock, Table, close_table, open_table

PSEUDO = "qq"
PEOPLE = {p.id: p for p in (ALICE, BOB, CAROL)}


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c in string.ascii_letters else c for c in text)


def pseudo(value: Any) -> Any:
    """A template with its words made full-width and its placeholders as they were."""
    if isinstance(value, dict):
        return {form: pseudo(text) for form, text in value.items()}
    out = []
    for literal, name, spec, conversion in string.Formatter().parse(value):
        out.append(full_width(literal).replace("{", "{{").replace("}", "}}"))
        if name is not None:
            out.append("{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return "".join(out)


def warm_up_pictures() -> None:
    """Draw every game once per declared option value, so the renderers' cached palettes (drawn
    from sample pictures nobody sees) exist before recording starts."""
    for game in engines.all_games().values():
        settings = [[]] + [[f"{o.name}={c}"] for o in game.options if not o.flag for c in o.choices]
        for words in settings:
            setup = game.parse_options(words)
            state = game.new_state(setup.options, setup.seats, 1)
            names = tuple(f"p{i}" for i in range(setup.seats))
            render.draw(game.name, game.view(state, None), RenderContext(names, 0, None, i18n.translator("en")))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The made-up language installed; every string drawn on a picture is recorded."""
    warm_up_pictures()
    real = i18n.catalog
    made_up = {key: pseudo(value) for key, value in real("en").items()}
    monkeypatch.setattr(i18n, "catalog", lambda language: made_up if language == PSEUDO else real(language))
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, PSEUDO))
    strings: list[str] = []
    draw_text = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        strings.append(str(text))
        draw_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield strings
    i18n.translator.cache_clear()


class Seen:
    """Everything the players were shown, and the notation they may see as it is."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.notation: set[str] = {p.name.lower() for p in PEOPLE.values()}
        for game in engines.all_games().values():
            self.notation |= {game.name, *game.aliases, *game.levels, *game.move_words, *game.queries}
            for option in game.options:
                self.notation |= {option.name, *option.keys, *map(str, option.words)}
        self.notation |= {*HOST_COMMANDS, *GAME_ACTIONS}
        self.notation |= {choice for spec in (*HOST_COMMANDS.values(), *GAME_ACTIONS.values()) for arg in spec.args
                          for choice in arg.choices}

    def replies(self, replies: list[Reply]) -> list[Reply]:
        for reply in replies:
            self.texts += [reply.text, reply.text_board or "", *(b.label for b in reply.buttons)]
        return replies

    def moves(self, moves: list[str]) -> list[str]:
        for move in moves:
            self.notation |= {w.lower() for w in re.findall(r"[A-Za-z]+", move)}
        return moves

    def is_notation(self, word: str) -> bool:
        """A word of the notation, or a ruler of coordinates ("abcdefgh" over a board)."""
        word = word.lower()
        return word in self.notation or (len(word) > 3 and word in string.ascii_lowercase)

    def bare_words(self, more: list[str] = ()) -> list[str]:
        """ASCII words shown that are not notation, each with the text it was in."""
        found: dict[str, str] = {}
        for text in [*self.texts, *more]:
            for word in re.findall(r"[A-Za-z]{2,}", re.sub(r"/[a-z0-9_]+|[a-z]+=\w+", " ", text)):
                if not self.is_notation(word):
                    found.setdefault(word, text)
        return [f"{word!r} in {text[:160]!r}" for word, text in found.items()]


async def say(table: Table, seen: Seen, who: Any, text: str, **mentions: Any) -> list[Reply]:
    seen.moves([text])  # what someone typed may be said back to them as they typed it
    return seen.replies(await table.say(who, text, **mentions))


async def play_out(table: Table, seen: Seen, rng: random.Random, most: int = 400) -> None:
    """The people seated play random legal moves (bots their own) until the game ends or `most` moves."""
    for _ in range(most):
        await table.host.idle()
        seen.replies(table.delivered)
        table.delivered.clear()
        session = await table.store.active(table.channel)
        if session is None:
            return
        game = engines.get(session.game)
        seat = game.to_move(game.from_json(session.state))
        user = session.seats[seat].user_id if seat is not None else None
        if user not in PEOPLE:
            continue
        moves = seen.moves(await table.host.legal_moves(table.channel, user))
        await say(table, seen, PEOPLE[user], "/move " + rng.choice(moves))
    await table.host.idle()
    seen.replies(table.delivered)


async def looks_and_refusals(table: Table, seen: Seen) -> None:
    """What people ask around a game, and the mistakes they make."""
    for who, text in [(ALICE, "/help"), (ALICE, "/games"), (BOB, "/rules"), (BOB, "/board"), (CAROL, "/record"),
                      (CAROL, "/replay 1"), (ALICE, "/hint"), (ALICE, "/hand"), (CAROL, "/move 1"), (CAROL, "/dance"),
                      (ALICE, "/join"), (ALICE, "/nim start"), (BOB, "/hints maybe"), (ALICE, "/lang xx"),
                      (ALICE, "/back"), (CAROL, "/accept"), (CAROL, "/decline"), (ALICE, "/stats"),
                      (BOB, "/leaderboard"), (ALICE, "/replay 999"), (BOB, "/rules chess"), (CAROL, "/stats @bob"),
                      (ALICE, "/cancel")]:
        await say(table, seen, who, text, bob=BOB)


@pytest.fixture
async def pseudo_table(tmp_path: Path, drawn: list[str]) -> Any:
    table = await open_table(tmp_path / "q.db", Clock(), language=PSEUDO)
    yield table
    await close_table(table)


async def test_nim_between_people_with_offers_then_a_rematch(pseudo_table: Table, drawn: list[str]) -> None:
    table, seen, rng = pseudo_table, Seen(), random.Random(1)
    await say(table, seen, ALICE, "/nim challenge @bob 3 4 5 max=3 misere", bob=BOB)
    await say(table, seen, BOB, "/accept")
    await say(table, seen, ALICE, "/take 1 1")
    for who, text in [(ALICE, "/undo"), (BOB, "/accept"), (ALICE, "/take 9 9"), (ALICE, "/take 1 4"),
                      (BOB, "/take 1 1"), (ALICE, "/draw"), (ALICE, "/restart"), (BOB, "/decline"),
                      (ALICE, "/take 2 1"), (BOB, "/restart"), (BOB, "/undo"), (ALICE, "/accept")]:
        await say(table, seen, who, text)
    await looks_and_refusals(table, seen)
    await play_out(table, seen, rng)
    for who, text in [(BOB, "/rematch"), (ALICE, "/accept"), (ALICE, "/resign"), (ALICE, "/cancel"),
                      (CAROL, "/nim start"), (CAROL, "/cancel"), (ALICE, "/nim solo easy 1 1"),
                      (ALICE, "/take 1 1")]:
        await say(table, seen, who, text)
    await play_out(table, seen, rng)
    await looks_and_refusals(table, seen)
    assert len(seen.texts) > 100 and len(drawn) > 50
    assert not (bare := seen.bare_words(drawn)), "\n".join(bare)


async def test_gomoku_with_numbers_and_a_draw_offer(pseudo_table: Table, drawn: list[str]) -> None:
    table, seen, rng = pseudo_table, Seen(), random.Random(2)
    await say(table, seen, ALICE, "/gomoku start renju")
    await say(table, seen, BOB, "/join")
    await play_out(table, seen, rng, most=40)
    for who, text in [(ALICE, "/board numbers"), (BOB, "/board nonsense"), (ALICE, "/move z99"), (ALICE, "/draw"),
                      (BOB, "/decline"), (BOB, "/draw"), (ALICE, "/accept")]:
        await say(table, seen, who, text)
    await looks_and_refusals(table, seen)
    await say(table, seen, ALICE, "/gomoku solo easy 19")
    await play_out(table, seen, rng, most=300)
    assert not (bare := seen.bare_words(drawn)), "\n".join(bare)


async def test_dou_dizhu_three_people_to_the_settlement(pseudo_table: Table, drawn: list[str]) -> None:
    table, seen, rng = pseudo_table, Seen(), random.Random(3)
    await say(table, seen, ALICE, "/ddz start")
    await say(table, seen, BOB, "/join")
    await say(table, seen, CAROL, "/join")
    for who, text in [(ALICE, "/move 33"), (BOB, "/move bid 9"), (CAROL, "/hand")]:
        await say(table, seen, who, text)
    await play_out(table, seen, rng)
    await looks_and_refusals(table, seen)
    await say(table, seen, ALICE, "/ddz start call")
    await say(table, seen, ALICE, "/go")
    await play_out(table, seen, rng)
    assert "🏆" in " ".join(seen.texts)
    assert not (bare := seen.bare_words(drawn)), "\n".join(bare)


async def test_chinese_checkers_looks_and_a_resignation(pseudo_table: Table, drawn: list[str]) -> None:
    table, seen, rng = pseudo_table, Seen(), random.Random(4)
    await say(table, seen, ALICE, "/checkers start 3")
    await say(table, seen, BOB, "/join")
    await say(table, seen, ALICE, "/go")
    await play_out(table, seen, rng, most=12)
    session = await table.store.active(table.channel)
    game = engines.get("checkers")
    seat = game.to_move(game.from_json(session.state))
    piece = seen.moves(await table.host.legal_moves(table.channel, session.seats[seat].user_id))[0].split("-")[0]
    for who, text in [(ALICE, f"/moves {piece}"), (BOB, f"/path {piece} m9"), (ALICE, "/moves zz"),
                      (BOB, "/path"), (ALICE, "/move a1 a2"), (BOB, "/resign")]:
        await say(table, seen, who, text)
    await looks_and_refusals(table, seen)
    assert not (bare := seen.bare_words(drawn)), "\n".join(bare)


async def test_the_consoles_own_words(pseudo_table: Table, tmp_path: Path) -> None:
    out: list[str] = []
    seen = Seen()
    images = tmp_path / "pictures"
    console = Console(pseudo_table.host, images, "alice", write=out.append)

    async def typed() -> Any:
        for line in ["/nim challenge @bob 1", "/as", "/as bob", "accept", "/resign", "/ddz solo easy"]:
            await pseudo_table.host.idle()
            yield line + "\n"

    await console.run(typed())
    shown = [line for line in "\n".join(out).replace(str(images), "").splitlines() if "🖼" not in line]
    assert any("ｏｎｌｙ" in line for line in shown) and any("Ｎｏｗ ｔｙｐｉｎｇ" in line for line in shown)
    assert not (bare := seen.bare_words(shown)), "\n".join(bare)


async def test_gomoku_swap2_every_stage_of_the_opening(pseudo_table: Table, drawn: list[str]) -> None:
    table, seen, rng = pseudo_table, Seen(), random.Random(4)
    await say(table, seen, ALICE, "/gomoku start swap2 standard")
    await say(table, seen, BOB, "/join")
    for who, text in [(ALICE, "/swap black"), (ALICE, "/move h8"), (ALICE, "/move h9"), (ALICE, "/move j10"),
                      (BOB, "/swap purple"), (BOB, "/move nonsense"), (BOB, "/swap more"), (BOB, "/swap white"),
                      (BOB, "/move k11"), (BOB, "/move g7"), (ALICE, "/move c3"), (ALICE, "/hint"),
                      (ALICE, "/swap white"), (ALICE, "/swap black")]:
        await say(table, seen, who, text)
    await play_out(table, seen, rng, most=30)
    await say(table, seen, ALICE, "/resign")
    await say(table, seen, ALICE, "/gomoku solo easy swap2")
    await play_out(table, seen, rng, most=300)
    assert not (bare := seen.bare_words(drawn)), "\n".join(bare)
