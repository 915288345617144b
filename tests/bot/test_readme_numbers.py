"""The numbers the README promises, read out of README.md and checked against what the bot does
on a clock the test moves (never against the constants that make them): a `/link` code's life
and the limits on wrong codes, the 24 hours in which the same people count less, the outbox's
back-off and when it gives up, a table's default time per move and how long an open table waits.

Each check names the README sentence it reads (`documented`): whoever rewrites the README keeps
those phrases with their numbers, or changes the test with them."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import pytest

from bot.config import load
from bot.model import Event, User
from bot.session import SessionStatus
from tests.bot.test_outbox import Platform, a_table
from tests.conftest import ALICE, BOB, Clock, Table, close_table, open_table
from tests.support.postgres import rows, scalar
from tests.support.running import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBER = r"(\d+(?:\.\d+)?)"
UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}


def documented(phrase: str) -> list[float]:
    """The numbers in the README's sentence `phrase`, where `{n}` marks each number and `{unit}` a
    unit word (`a day` -> 86400); spaces match any white space (lines wrap)."""
    pattern = re.escape(phrase).replace(r"\{n\}", NUMBER).replace(r"\{unit\}", r"(?:an? )?(second|minute|hour|day)s?")
    pattern = re.sub(r"(\\ )+", r"\\s+", pattern)
    found = re.search(pattern, README)
    assert found, f"README.md no longer says {phrase!r} ({{n}}: a number): this test checks the bot against it"
    return [UNITS[g] if g in UNITS else float(g) for g in found.groups()]


# --- /link ---------------------------------------------------------------------------------------
def account(name: str, platform: str = "telegram") -> User:
    return User(f"{platform}:{name}", name.title(), name)


async def link_code(table: Table, user: User) -> str:
    [reply] = await table.host.handle(Event("console:main", user, "/link"))
    found = re.search(r"code: ([A-Z2-9]{6})", reply.text)
    assert found, reply.text
    return found[1]


async def typed_code(table: Table, user: User, code: str) -> str:
    replies = await table.host.handle(Event("telegram:-5", user, f"/link {code}"))
    return " ".join(r.text for r in replies)


async def test_a_link_code_lives_as_long_as_the_readme_says(table: Table) -> None:
    """README: "The code ... lives 10 minutes and works once"."""
    [minutes] = documented("lives {n} minutes")
    code = await link_code(table, ALICE)
    table.clock.advance(minutes * 60 - 1)
    assert "now share" in await typed_code(table, account("alice"), code)  # one second before the end: works
    assert "not valid" in await typed_code(table, account("alice2"), code)  # and only once
    code = await link_code(table, BOB)
    table.clock.advance(minutes * 60 + 1)
    assert "not valid" in await typed_code(table, account("bob"), code)  # one second after: expired


async def test_wrong_codes_are_limited_as_the_readme_says(table: Table) -> None:
    """README: "wrong codes are limited to 5 per account and 50 for the whole bot per 15 minutes"."""
    per_account, everyone, minutes = (int(n) for n in documented(
        "wrong codes are limited to {n} per account and {n} for the whole bot per {n} minutes"))
    guesser = account("guesser")
    for _ in range(per_account):
        assert "not valid" in await typed_code(table, guesser, "AAAAAA")
    assert "Too many wrong codes" in await typed_code(table, guesser, "AAAAAA")  # one more: refused unread
    table.clock.advance(minutes * 60 - 1)
    assert "Too many wrong codes" in await typed_code(table, guesser, "AAAAAA")
    table.clock.advance(2)
    assert "not valid" in await typed_code(table, guesser, "AAAAAA")  # the window has passed
    table.clock.advance(minutes * 60 + 1)
    for n in range(everyone):  # the whole bot's allowance, from accounts each within their own
        assert "not valid" in await typed_code(table, account(f"g{n // per_account}"), "AAAAAA"), n
    assert "Too many wrong codes" in await typed_code(table, account("newcomer"), "AAAAAA")


# --- the ratings' farming window -----------------------------------------------------------------
async def nim_won_by(table: Table, winner: User, loser: User) -> None:
    await table.say(winner, "/nim start 1")
    await table.say(loser, "/join")
    await table.say(winner, "/take 1 1")
    assert (await table.session()).outcome.ranks == ((1, 2) if winner is ALICE else (2, 1))


async def test_the_same_people_count_less_within_the_hours_the_readme_says(table: Table) -> None:
    """README: "The n-th rated game between the same players within 24 hours counts 1/n"."""
    [hours] = documented("between the same players within {n} hours counts 1/n")
    await nim_won_by(table, ALICE, BOB)
    table.clock.advance(hours * 3600 - 60)
    await table.say(BOB, "/nim start 1")  # Bob opens: he moves first and wins
    await table.say(ALICE, "/join")
    await table.say(BOB, "/take 1 1")
    table.clock.advance(hours * 3600 + 60)  # the second game a minute more than that ago, the first longer
    await nim_won_by(table, ALICE, BOB)
    weights = await rows(table.store, "SELECT weight FROM rated_games ORDER BY session_id")
    assert [w["weight"] for w in weights] == pytest.approx([1, 1 / 2, 1])


# --- the outbox ---------------------------------------------------------------------------------
async def test_the_outbox_backs_off_and_gives_up_as_the_readme_says(
        database: Path | str, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    """README: "refused, it is tried again with a back-off of 1 s doubling to 60 s, and dropped with
    an error in the log after a day"."""
    first, most = documented("a back-off of {n} s doubling to {n} s")
    [day] = documented("dropped with an error in the log after {unit}")
    platform = Platform()
    table = await a_table(database, clock, platform)
    try:
        await table.say(ALICE, "/nim start 3 4")
        platform.refusals = 10**9  # from now on the platform refuses everything
        started = clock()
        await table.say(BOB, "/join")  # committed; its board refused
        waits = []
        while (due := await scalar(table.store, "SELECT due FROM outbox")) is not None and len(waits) < 10:
            waits.append(due - clock())
            clock.now = due
            await table.host.outbox.deliver_due()
        expected = [min(first * 2**k, most) for k in range(10)]
        assert waits == pytest.approx(expected), waits
        clock.now = started + day - 1  # still refused a second before a day: kept, tried again
        await table.host.outbox.deliver_due()
        assert await table.host.outbox.backlog() == 1
        clock.now = await scalar(table.store, "SELECT due FROM outbox")  # the next try, after a day: dropped
        with caplog.at_level(logging.ERROR, logger="bot.outbox"):
            await table.host.outbox.deliver_due()
        assert await table.host.outbox.backlog() == 0 and "dropped" in caplog.text
    finally:
        await close_table(table)


# --- a table's times ----------------------------------------------------------------------------
@pytest.mark.parametrize("built", ["as gamehost builds it", "Host's own defaults"])
async def test_the_default_times_are_the_readmes(database: Path | str, clock: Clock, built: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """README: "Every table takes timer=... : the time per move (default 5 minutes)" and "Tables
    nobody joins close after 15 minutes"."""
    [turn] = documented("the time per move (default {n} minutes)")
    [lobby] = documented("Tables nobody joins close after {n} minutes")
    if built == "Host's own defaults":
        table = await open_table(database, clock)
    else:
        for name in [k for k in os.environ if k.startswith("GAMEHOST_")]:
            monkeypatch.delenv(name)
        settings = load([])  # no setting given: the defaults, as `gamehost` starts with none
        table = await open_table(database, clock, turn_seconds=settings.turn_seconds,
                                 lobby_seconds=settings.lobby_seconds)
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        assert await statuses_around(table, lobby * 60) == (SessionStatus.LOBBY, SessionStatus.CANCELLED)
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        assert await statuses_around(table, turn * 60) == (SessionStatus.PLAYING, SessionStatus.FINISHED)
        assert (await table.session()).outcome.ranks == (2, 1)  # Alice ran out of time
    finally:
        await close_table(table)


async def statuses_around(table: Table, seconds: float) -> tuple[SessionStatus, SessionStatus]:
    """The session's status a second before `seconds` from now, and a second after (timers acted on)."""
    found = []
    for step in (seconds - 1, 2):
        table.clock.advance(step)
        await table.host.expire_due()
        found.append((await table.session()).status)
    return found[0], found[1]


def test_the_readme_and_the_settings_table_agree() -> None:
    """README's settings table: `--turn-seconds` 300 and `--lobby-seconds` 900, the sentences' minutes."""
    [turn] = documented("the time per move (default {n} minutes)")
    [lobby] = documented("Tables nobody joins close after {n} minutes")
    assert documented("| `--turn-seconds` | {n} |") == [turn * 60]
    assert documented("| `--lobby-seconds` | {n} |") == [lobby * 60]

