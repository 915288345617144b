"""Ratings kept in the store, leaderboards, /stats, linked accounts and watched games, through
the host on a real SQLite file and on PostgreSQL (the console's channel kind; the platforms
have their own tests)."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import pytest

from bot import links, play, rating_model, rating_store
from bot.main import main
from bot.model import Event, NotSecret, Private, User
from bot.session import Change, Seat, Session, SessionStatus
from bot.storage import open_storage
from engines.base import Outcome, msg
from tests.conftest import ALICE, BOB, BOTH, CAROL, Clock, Table, close_table, open_table, person
from tests.support.postgres import execute, rows

BACKENDS = BOTH
DAVE = person("dave")
RATINGS = "SELECT game, player, mu, sigma FROM ratings ORDER BY mu"
CHANGES = ("SELECT session_id, player, game, rating_from, rating_to, at FROM rating_changes"
           " ORDER BY session_id, rating_to, player")


async def say(table: Table, user: User, text: str, channel: str = "console:test", place: str | None = None,
              **mentions: User):
    tokens = {f"@{name}": u for name, u in mentions.items()}
    return await table.host.handle(Event(channel, user, text, mentions=tokens, place=place))


async def nim_win(table: Table, winner: User, loser: User, channel: str = "console:test", place: str | None = None):
    await say(table, winner, "/nim start 1", channel, place)
    await say(table, loser, "/join", channel, place)
    replies = await say(table, winner, "/take 1 1", channel, place)
    assert "wins" in replies[0].text


async def rating(table: Table, game: str, player: str) -> float | None:
    found = await rows(table.store, "SELECT mu, sigma FROM ratings WHERE game=? AND player=?", game, player)
    return found[0]["mu"] - 3 * found[0]["sigma"] if found else None


def written(replies) -> str:
    return "\n".join(r.text + "\n" + (r.text_board or "") for r in replies)


# --- rating finished games ------------------------------------------------------------------
async def test_a_finished_game_is_rated_once_and_the_rebuild_agrees(table: Table) -> None:
    await nim_win(table, ALICE, BOB)
    alice, bob = await rating(table, "nim", ALICE.id), await rating(table, "nim", BOB.id)
    assert alice is not None and bob is not None and alice > 0 > bob
    assert await rating_store.catch_up(table.store) == 0  # rated with its results: nothing left to rate
    assert await rows(table.store, "SELECT session_id FROM rated_games") == [{"session_id": (await table.session()).id}]
    table.clock.advance(60)
    await nim_win(table, BOB, ALICE)
    before = await rows(table.store, RATINGS)
    changes = await rows(table.store, CHANGES)
    assert await rating_store.rebuild(table.store) == 2
    assert await rows(table.store, RATINGS) == before
    assert await rows(table.store, CHANGES) == changes


async def test_solo_games_rate_the_ai_level(table: Table) -> None:
    await table.say(ALICE, "/nim solo hard 1 2")
    await table.say(ALICE, "/take 2 2")  # a losing move: the bot takes the last stone
    await table.host.idle()
    assert await rating(table, "nim", "ai:hard") > 0 > await rating(table, "nim", ALICE.id)
    board = written(await table.say(CAROL, "/leaderboard nim"))
    assert board.index("🤖 Bot (hard)") < board.index("Alice")


async def test_resigning_is_a_loss_and_a_cancelled_game_counts_for_nobody(table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    await table.say(ALICE, "/take 1 1")
    await table.say(ALICE, "/resign")
    assert await rating(table, "nim", ALICE.id) < 0 < await rating(table, "nim", BOB.id)
    await table.say(CAROL, "/nim start 3 4")
    await table.say(DAVE, "/join")
    await table.say(CAROL, "/take 1 1")
    await table.say(person("mod", moderator=True), "/cancel")
    assert await rating(table, "nim", CAROL.id) is None and await rating(table, "nim", DAVE.id) is None
    assert "has not finished a game" in written(await table.say(CAROL, "/stats"))


def test_a_seat_the_bot_played_after_a_timeout_still_belongs_to_its_owner() -> None:
    seats = [Seat(0, ALICE.id, "Alice", away=True), Seat(1, None, "Bot (easy)", ai_level="easy"),
             Seat(2, BOB.id, "Bob")]
    session = Session("console:t", "doudizhu", SessionStatus.PLAYING, {}, 1, seats, ALICE.id, 60, 0.0, 0.0)
    change = Change()
    play.finish(session, Outcome((1, 2, 2), msg("host.agreed_draw"), (4, -2, -2)), change,
                ("landlord", "farmer", "farmer"))
    assert [(r.user_id, r.result, r.role) for r in change.results] == [
        (ALICE.id, "win", "landlord"), ("ai:easy", "loss", "farmer"), (BOB.id, "loss", "farmer")]


async def test_a_game_whose_rating_fails_still_ends_and_is_rated_when_a_host_starts(
        database: Path | str, clock: Clock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the rating")

    table = await open_table(database, clock)
    try:
        with monkeypatch.context() as patch, caplog.at_level(logging.ERROR):
            patch.setattr(rating_model, "rate", broken)
            await nim_win(table, ALICE, BOB)  # the game ends all the same: its results are kept
        assert "rating session" in caplog.text
        assert len(await rows(table.store, "SELECT * FROM results")) == 2
        assert await rows(table.store, "SELECT * FROM rated_games") == []  # the failed rating undone alone
        assert await rating(table, "nim", ALICE.id) is None
    finally:
        await close_table(table)
    table = await open_table(database, clock)  # a host starting rates it
    try:
        assert await rating(table, "nim", ALICE.id) > 0
        assert await rating_store.catch_up(table.store) == 0
    finally:
        await close_table(table)


async def test_processes_catching_up_together_rate_each_game_once(
        database: Path | str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await open_table(database, clock)
    try:
        with monkeypatch.context() as patch:
            patch.setattr(rating_model, "rate", lambda *a, **k: 1 / 0)
            for _ in range(3):
                clock.advance(60)
                await nim_win(table, ALICE, BOB)
        stores = [await open_storage(str(database)) for _ in range(4)]  # four processes' worth
        try:
            counted = await asyncio.gather(*(store.rate_unrated() for store in stores))
        finally:
            for store in stores:
                await store.close()
        assert sorted(counted) == [0, 0, 0, 3]  # one of them rated all three; the others found none left
        assert len(await rows(table.store, "SELECT * FROM rated_games")) == 3
        once = await rows(table.store, RATINGS)
        await rating_store.rebuild(table.store)
        assert await rows(table.store, RATINGS) == once  # each game once, in order
    finally:
        await close_table(table)


async def test_gamehost_rebuild_ratings_from_the_command_line(database: Path | str, capsys) -> None:
    clock = Clock()
    table = await open_table(database, clock)
    try:
        await nim_win(table, ALICE, BOB)
        await execute(table.store, "UPDATE ratings SET mu=99")
        assert await rating(table, "nim", ALICE.id) > 50
    finally:
        await close_table(table)
    await asyncio.to_thread(main, ["--db", str(database), "--rebuild-ratings"])
    out = capsys.readouterr().out
    assert "rated 1 games again" in out
    table = await open_table(database, clock)
    try:
        assert 0 < await rating(table, "nim", ALICE.id) < 10
    finally:
        await close_table(table)


# --- leaderboards -------------------------------------------------------------------------------
async def test_leaderboards_here_and_global(table: Table) -> None:
    await nim_win(table, ALICE, BOB, "console:a", place="server:1")
    await nim_win(table, CAROL, DAVE, "console:b", place="server:2")
    await nim_win(table, CAROL, ALICE, "console:c", place="server:1")  # another channel of server 1
    here = written(await say(table, BOB, "/leaderboard nim here", "console:a", "server:1"))
    assert "This server or group" in here
    assert all(n in here for n in ("Alice", "Bob", "Carol")) and "Dave" not in here
    other = written(await say(table, BOB, "/leaderboard nim here", "console:b", "server:2"))
    assert "Carol" in other and "Dave" in other and "Bob" not in other and "Alice" not in other
    everyone = written(await say(table, BOB, "/leaderboard nim", "console:a", "server:1"))
    assert all(n in everyone for n in ("Alice", "Bob", "Carol", "Dave")) and "Everyone" in everyone
    assert everyone.index("Carol") < everyone.index("Dave")  # Carol won both
    line = next(x for x in everyone.splitlines() if "Carol" in x)
    assert re.search(r"— \d+\.\d · 2 games · 100% won · streak \+2", line), line


async def test_an_empty_leaderboard_and_a_bad_scope(table: Table) -> None:
    replies = await table.say(ALICE, "/leaderboard gomoku")
    assert replies[0].image is not None and "Nobody has finished a rated game" in written(replies)
    assert "Use /leaderboard" in (await table.say(ALICE, "/leaderboard gomoku nim chess"))[0].text


async def test_long_leaderboards_come_in_pages_turned_by_buttons(table: Table) -> None:
    for n in range(12):
        table.clock.advance(10)
        await nim_win(table, person(f"p{n:02d}"), person(f"q{n:02d}"))
    first = await table.say(ALICE, "/leaderboard nim")
    assert "Page 1 of 3" in written(first)
    assert [b.id for b in first[0].buttons] == ["0.*.leaderboard nim global 2"]
    second = await table.press(BOB, first[0].buttons[0].id)  # anyone may turn the page, any time
    text = written(second)
    assert "Page 2 of 3" in text and re.search(r"^11\. ", text, re.M) and not re.search(r"^1\. ", text, re.M)
    assert [b.id for b in second[0].buttons] == ["0.*.leaderboard nim global 1", "0.*.leaderboard nim global 3"]
    refused = await table.press(BOB, "0.*.resign")  # only look-ups may be pressed without a session
    assert refused[0].audience == NotSecret(BOB.id) and "out of date" in refused[0].text


# --- /stats ---------------------------------------------------------------------------------------
async def test_stats_show_rating_course_record_streak_recent_and_favourite(table: Table) -> None:
    for winner, loser in ((ALICE, BOB), (ALICE, BOB), (BOB, ALICE), (ALICE, CAROL)):
        table.clock.advance(30)
        await nim_win(table, winner, loser)
    replies = await table.say(BOB, "/stats @alice", alice=ALICE)
    text = written(replies)
    assert replies[0].image is not None and replies[0].image_name == "stats.png"
    assert "3 won · 1 lost · 0 drawn · best streak 2" in text
    assert "most played: Bob" in text and "W W L W" in text
    assert re.search(r"Nim: rating \d+\.\d \(\+\d+\.\d\)", text)


# --- linked accounts -------------------------------------------------------------------------------
TG_ALICE = User("telegram:77", "Alice T")


async def link_code(table: Table, user: User) -> str:
    replies = await table.say(user, "/link")
    assert replies[0].audience == Private(user.id)  # private: to the asker only, never the channel
    return re.search(r"code: ([A-Z2-9]{6})", replies[0].text)[1]


async def test_linked_accounts_share_ratings_stats_and_place(table: Table) -> None:
    await nim_win(table, ALICE, BOB)
    table.clock.advance(100)
    await nim_win(table, TG_ALICE, CAROL, "telegram:-5")
    code = await link_code(table, ALICE)
    linked = await table.say(TG_ALICE, f"/link {code.lower()}")
    assert "your 2 accounts now share" in linked[0].text
    await table.host.idle()  # the games rated again, in the background
    board = written(await table.say(DAVE, "/leaderboard nim"))
    assert board.count("Alice") == 1 and "2 games" in next(x for x in board.splitlines() if "Alice" in x)
    for who in (ALICE, TG_ALICE):
        assert "2 won · 0 lost" in written(await table.say(who, "/stats"))
    identity = await rating_store.identity_of(table.store, ALICE.id)
    assert await rating_store.accounts_of(table.store, identity) == sorted([ALICE.id, TG_ALICE.id])
    assert identity.startswith("id:") and await rating(table, "nim", identity) > await rating(table, "nim", BOB.id)
    unlinked = await table.say(TG_ALICE, "/unlink")
    assert "own games and rating again" in unlinked[0].text
    await table.host.idle()
    assert "1 won · 0 lost" in written(await table.say(ALICE, "/stats"))
    assert await rating(table, "nim", ALICE.id) > 0 and await rating(table, "nim", TG_ALICE.id) > 0
    assert "not linked" in (await table.say(TG_ALICE, "/unlink"))[0].text


async def test_codes_expire_are_single_use_and_not_ones_own(table: Table) -> None:
    code = await link_code(table, ALICE)
    assert "own code" in (await table.say(ALICE, f"/link {code}"))[0].text
    table.clock.advance(links.CODE_SECONDS + 1)
    assert "not valid" in (await table.say(TG_ALICE, f"/link {code}"))[0].text
    code = await link_code(table, ALICE)
    assert "share" in (await table.say(TG_ALICE, f"/link {code}"))[0].text
    assert "not valid" in (await table.say(BOB, f"/link {code}"))[0].text  # used up
    newer = await link_code(table, ALICE)
    assert "already linked" not in (await table.say(TG_ALICE, f"/link {newer}"))[0].text  # same identity: fine
    code = await link_code(table, CAROL)
    assert "/unlink first" in (await table.say(TG_ALICE, f"/link {code}"))[0].text


async def test_guessing_is_throttled_per_account_and_for_everyone_across_restarts(database: Path | str,
                                                                                  clock: Clock) -> None:
    table = await open_table(database, clock)
    try:
        code = await link_code(table, ALICE)
        for n in range(links.PER_USER):
            assert "not valid" in (await table.say(BOB, f"/link AAAAA{n + 2}"))[0].text
        assert "try again in 15 minutes" in (await table.say(BOB, f"/link {code}"))[0].text  # even the right one
    finally:
        await close_table(table)
    table = await open_table(database, clock)  # a restart forgets nothing
    try:
        assert "Too many wrong codes" in (await table.say(BOB, f"/link {code}"))[0].text
        clock.advance(links.GUESS_WINDOW + 1)
        assert "share" in (await table.say(BOB, f"/link {code}"))[0].text or "not valid" in \
            (await table.say(BOB, f"/link {code}"))[0].text
        for n in range(links.EVERYONE):  # many accounts, a few guesses each
            await table.say(person(f"guesser{n // 4}"), "/link ZZZZZZ")
        fresh = await link_code(table, CAROL)
        assert "Too many wrong codes" in (await table.say(DAVE, f"/link {fresh}"))[0].text
    finally:
        await close_table(table)


# --- watching the bots ------------------------------------------------------------------------------
async def test_watch_mode_paced_on_the_clock_rated_and_cancelled_by_anyone(table: Table) -> None:
    started = await table.say(ALICE, "/nim watch easy hard every=5 4 5")
    assert "a move every 5 s" in started[0].text and started[0].image is not None
    await table.host.idle()
    assert table.delivered == []  # nothing before its time
    assert await table.store.claim(table.clock(), table.host.autoplay.owner, 60) == []  # no work to take on yet
    table.clock.advance(4)
    await table.host.expire_due()
    await table.host.idle()
    assert table.delivered == []
    table.clock.advance(1)
    await table.host.expire_due()
    await table.host.idle()
    assert len(table.delivered) == 1 and "Bot (easy) took" in table.delivered[0].text  # one move, its board
    assert table.delivered[0].board and not table.delivered[0].buttons
    for _ in range(40):
        table.clock.advance(5)
        await table.host.expire_due()
        await table.host.idle()
        if (await table.session()).status == SessionStatus.FINISHED:
            break
    session = await table.session()
    assert session.status == SessionStatus.FINISHED and len(table.delivered) == session.ply
    assert await rating(table, "nim", "ai:hard") is not None
    assert len(await rows(table.store, "SELECT * FROM results WHERE session_id=?", session.id)) == 2
    # another one, stopped by someone who did not start it and is no moderator
    await table.say(ALICE, "/gomoku watch")
    cancelled = await table.say(CAROL, "/cancel")
    assert "cancelled" in cancelled[0].text and (await table.session()).status == SessionStatus.CANCELLED


@pytest.mark.parametrize("typed, answer", [("/nim watch every=0", "every= takes 1 to 120"),
                                           ("/nim watch easy easy hard", "this table has 2 seats")])
async def test_watch_refusals(table: Table, typed: str, answer: str) -> None:
    assert answer in (await table.say(ALICE, typed))[0].text


async def test_a_watched_game_goes_on_after_a_restart(database: Path | str, clock: Clock) -> None:
    table = await open_table(database, clock)
    try:
        await table.say(ALICE, "/nim watch hard 3")
    finally:
        await close_table(table)
    table = await open_table(database, clock)
    try:
        clock.advance(3)
        await table.host.expire_due()
        await table.host.idle()
        assert len(table.delivered) == 1 and (await table.session()).ply == 1
    finally:
        await close_table(table)
