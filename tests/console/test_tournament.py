"""A tournament on the console: the games of a round played at once, each at a table of its own
("console:1", …), the people at the keyboard switching between them with /switch; after a restart
the tables are still there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from bot.adapters.console import CHANNEL, Console
from tests.conftest import Clock, close_table, open_table

PEOPLE = ("alice", "bob")


async def run_console(tmp_path: Path, typed, language: str = "en") -> tuple[str, list[str]]:
    """The console on the database in `tmp_path`, fed by `typed(table)`; what it wrote, and the channels
    of the event's games."""
    table = await open_table(tmp_path / "c.db", Clock(), language=language)
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)
    try:
        await console.run(typed(table))
        event = await table.store.event_latest(CHANNEL)
        places = [g.place or "" for g in event.games] if event else []
    finally:
        await close_table(table)
    return "\n".join(out), places


def opening(rounds: str = "rounds=2 3 4") -> list[str]:
    return [f"/nim tournament swiss {rounds}", "/as bob", "/join", "/join bot easy", "/join bot easy", "/as alice",
            "/go"]


async def until_placed(table, count: int) -> list[str]:
    """The tables of the current round, once all `count` games have one."""
    async with asyncio.timeout(60):
        while True:
            event = await table.store.event_latest(CHANNEL)
            places = [g.place for g in event.current() if g.place] if event else []
            if len(places) == count:
                return places
            await asyncio.sleep(0.05)


async def a_move(table) -> tuple[str, str, str] | None:
    """(table number, person, move) of someone at the keyboard who may move at one of the tables now."""
    event = await table.store.event_latest(CHANNEL)
    for game in event.current() if event else []:
        for who in PEOPLE:
            if game.place and not game.over:
                moves = await table.host.legal_moves(game.place, f"console:{who}")
                if moves:
                    return game.place.partition(":")[2], who, moves[0]
    return None


async def moves_at_tables(table, going_on) -> AsyncIterator[str]:
    """While `going_on(event)`: switch to a table where a person is to move, become them, and move."""
    async with asyncio.timeout(120):
        while going_on(await table.store.event_latest(CHANNEL)):
            await table.host.idle()
            found = await a_move(table)
            if found is None:
                await asyncio.sleep(0.05)
                continue
            number, who, move = found
            yield f"/switch {number}\n"
            yield f"/as {who}\n"
            yield move + "\n"


async def test_a_swiss_round_plays_its_games_at_once_and_the_keyboard_switches_between_them(tmp_path: Path) -> None:
    seen: dict[str, object] = {}

    async def typed(table) -> AsyncIterator[str]:
        for line in opening():
            await table.host.idle()
            yield line + "\n"
        seen["round 1"] = await until_placed(table, 2)
        await table.host.idle()
        yield "/switch\n"
        async for line in moves_at_tables(table, lambda event: event.status.active):
            yield line
        await table.host.idle()
        await table.host.tournaments.idle()  # the step that ended it has said the standings
        yield "/switch 0\n"
        yield "/switch 9\n"
        yield "/switch\n"

    text, places = await run_console(tmp_path, typed)
    first = seen["round 1"]
    assert sorted(first) == ["console:1", "console:2"]  # both games of round 1 had a table of their own at once
    assert sorted(set(places)) == ["console:1", "console:2", "console:3", "console:4"]
    assert "The games going on (/switch N to type there):\n→ 0 · the console's channel\n" in text
    assert "  1 · Round 1 · table 1 · " in text and "  2 · Round 1 · table 2 · " in text
    assert "Now typing at table 1: Round 1 · table 1 · " in text or "Now typing at table 2: Round 1" in text
    assert "bob @" in text or "alice @" in text  # the prompt says which table
    assert "final standings" in text and "podium" in text
    assert "There is no table 9; /switch lists them." in text
    assert "No game is going on at a table of its own (/switch 0 is the console's channel).\n→ 0 · " in text
    event_line = [line for line in text.splitlines() if line.startswith("— at table ")]
    assert event_line, "what another table said was printed under its name"


async def test_after_a_restart_the_tables_of_the_round_are_listed_and_go_on(tmp_path: Path) -> None:
    async def first(table) -> AsyncIterator[str]:
        for line in opening():
            await table.host.idle()
            yield line + "\n"
        await until_placed(table, 2)
        await table.host.idle()

    await run_console(tmp_path, first)

    async def second(table) -> AsyncIterator[str]:
        async for line in moves_at_tables(table, lambda event: event.round == 1):
            yield line
        yield "/quit\n"

    text, places = await run_console(tmp_path, second)
    welcome = text.split("The games going on (/switch N to type there):")
    assert len(welcome) > 1 and " · Round 1 · table " in welcome[1].split("\n\n")[0]
    assert places[:2] in (["console:1", "console:2"], ["console:2", "console:1"])


async def test_the_switch_in_chinese(tmp_path: Path) -> None:
    async def typed(table) -> AsyncIterator[str]:
        for line in ["/切换", "/切换 3"]:
            await table.host.idle()
            yield line + "\n"

    text, _ = await run_console(tmp_path, typed, language="zh")
    assert "没有单独一桌的对局在进行（/switch 0 回到控制台的频道）。" in text
    assert "没有第 3 桌；/switch 列出各桌。" in text
