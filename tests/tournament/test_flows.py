"""Tournaments through the host on the console's kind of channel (games one after another in the
channel): a Swiss of 7 bots in every game, a knockout, people entering, withdrawing, cancelling."""

from __future__ import annotations

import asyncio
from itertools import combinations
from pathlib import Path

import pytest

from bot.tournament.model import EventStatus
from tests.conftest import ALICE, BOB, Clock, close_table, open_table, person, until

MOD = person("mo", moderator=True)


async def finished(table):
    """The channel's event once it is over."""
    async def over():
        event = await table.store.event_latest(table.channel)
        return event if event is not None and not event.status.active else None

    async with asyncio.timeout(120):
        while (event := await over()) is None:
            await asyncio.sleep(0.05)
    return event


async def of_bots(table, opening: str, bots: int) -> str:
    """Alice opens an event with `opening` and leaves it to `bots` easy bots; what /go said."""
    await table.say(ALICE, opening)
    await table.say(ALICE, "/withdraw")
    for _ in range(bots):
        await table.say(BOB, "/join bot easy")
    return await table.text(ALICE, "/go")


@pytest.mark.parametrize(("game", "options"), [("nim", "3 4 5"), ("gomoku", "freestyle"), ("doudizhu", ""),
                                               ("checkers", "")])
async def test_a_swiss_of_seven_bots(tmp_path: Path, game: str, options: str) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        said = await table.text(ALICE, f"/{game} tournament swiss {options}".strip())
        assert "opened" in said
        assert "Alice withdrew" in await table.text(ALICE, "/withdraw")  # before it begins: out of the list
        for n in range(7):
            assert f"({n + 1} entrant" in await table.text(BOB, "/join bot easy")
        said = await table.text(ALICE, "/go")
        seats = 3 if game == "doudizhu" else 2
        rounds = 2 if seats == 3 else 3  # log(7) to the base of the players at a table, rounded up
        assert f"begins: 7 entrants, {rounds} rounds" in said and f"Round 1 of {rounds}" in said
        event = await finished(table)
        assert event.status == EventStatus.FINISHED and event.round == rounds
        met = set()
        for r in range(1, rounds + 1):
            games = [g for g in event.games if g.round == r]
            assert sum(g.bye for g in games) == 7 % seats
            assert sorted(p for g in games for p in g.players) == sorted(e.entrant for e in event.entries)
            for g in games:
                pairs = {frozenset(p) for p in combinations(g.players, 2)}
                # (seven at tables of three cannot all meet someone new in round two: the pairing's
                # property tests check that no rematch happens while one can be avoided)
                assert seats == 3 or not pairs & met
                met |= pairs
                assert g.over and (g.bye or g.session_id is not None)
        byes = [g.players[0] for g in event.games if g.bye]
        assert len(byes) == len(set(byes))
        await until(lambda: any(r.image_name == "podium.png" for r in table.delivered))  # said after the last save
        texts = "\n".join(r.text + "\n" + (r.text_board or "") for r in table.delivered)
        assert "final standings" in texts and "podium" in texts
        heads = [r.text for r in table.delivered if r.image_name == "standings.png"]
        done = [h.split("after round ")[1].split(" ·")[0] for h in heads[:-1]]
        assert done == [f"{n} of {rounds}" for n in range(1, rounds)]
        assert [r.image_name for r in table.delivered if r.image_name in ("standings.png", "podium.png")][-2:] == \
            ["standings.png", "podium.png"]
    finally:
        await close_table(table)


async def play_out(table, *people) -> None:
    """The people play the channel's games as they come, first legal move each time, until the
    event is over."""
    async def step() -> bool:
        event = await table.store.event_latest(table.channel)
        if event is None or not event.status.active:
            return True
        for user in people:
            moves = await table.host.legal_moves(table.channel, user.id)
            if moves:
                await table.say(user, f"/move {moves[0]}")
                return False
        await table.host.idle()
        await asyncio.sleep(0.02)
        return False

    async with asyncio.timeout(120):
        while not await step():
            pass


async def test_a_knockout_with_a_draw_plays_a_decider(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        await table.say(ALICE, "/gomoku tournament knockout")
        await table.say(BOB, "/join")
        said = await table.text(ALICE, "/go")
        assert "Round 1 of 1" in said and "Table 1: Alice vs Bob" in said
        await until(lambda: any("Gomoku begins: Alice vs Bob" in r.text for r in table.delivered))
        await table.say(ALICE, "/draw")
        await table.say(BOB, "/accept")
        await until(lambda: any("Gomoku begins: Bob vs Alice" in r.text for r in table.delivered))  # the decider
        event = await table.store.event_active(table.channel)
        assert [(g.round, g.players, g.points) for g in event.games] == [
            (1, ("console:alice", "console:bob"), (0.5, 0.5)), (1, ("console:bob", "console:alice"), None)]
        await table.say(ALICE, "/resign")
        await until(lambda: any(r.image_name == "podium.png" for r in table.delivered))
        event = await table.store.event_latest(table.channel)
        assert event.status == EventStatus.FINISHED
        bracket = next(r for r in reversed(table.delivered) if r.image_name == "bracket.png")
        assert "✓ Bob · Alice vs Bob" in bracket.text_board
        podium = next(r for r in table.delivered if r.image_name == "podium.png")
        assert podium.text_board.startswith("1. Bob")
        stats = (await table.say(BOB, "/stats"))[0]
        assert "Gomoku knockout: 1 of 2 · score 1.5 · over" in (stats.text_board or stats.text)
        assert stats.image is not None
    finally:
        await close_table(table)


async def test_a_restart_in_the_middle_of_a_round_resumes_the_event(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        await table.say(ALICE, "/nim tournament rounds=2 3 4")
        for user, text in ((BOB, "/join"), (BOB, "/join bot easy"), (ALICE, "/join bot easy")):
            await table.say(user, text)
        said = await table.text(ALICE, "/go")
        assert "4 entrants, 2 rounds" in said
        await until(lambda: any("Nim begins" in r.text for r in table.delivered))
        first = await table.store.active(table.channel)
        person = next(s for s in first.seats if s.user_id)
        moves = await table.host.legal_moves(table.channel, person.user_id)
        if moves:  # one move made, then the process stops
            await table.say(ALICE if person.user_id == ALICE.id else BOB, f"/move {moves[0]}")
    finally:
        await close_table(table)
    table = await open_table(tmp_path / "t.db", Clock())  # started again: the same file
    try:
        resumed = await table.store.active(table.channel)
        assert resumed is not None and resumed.id == first.id
        await play_out(table, ALICE, BOB)
        event = await table.store.event_latest(table.channel)
        assert event.status == EventStatus.FINISHED and event.round == 2
        sessions = [g.session_id for g in event.games]
        assert len(sessions) == 4 and len(set(sessions)) == 4 and None not in sessions  # each game once
        count = await table.store.latest(table.channel)
        assert count.id == max(sessions)  # no session beyond the event's in the channel
    finally:
        await close_table(table)


async def test_a_game_made_but_not_begun_when_its_process_stopped_begins_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's session is made and the event saved with it; the process stops before the game
    begins: the next step (here or in the process that takes the event over) begins it."""
    from bot.tournament import runner

    begin, stopped = runner.play.begin, []

    async def stops_once(*args, **kwargs):
        if not stopped:
            stopped.append(True)
            raise RuntimeError("the process stopped here")
        return await begin(*args, **kwargs)

    monkeypatch.setattr(runner.play, "begin", stops_once)
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        await of_bots(table, "/nim tournament rounds=1 3 4", 2)
        event = await finished(table)
        assert stopped and event.status == EventStatus.FINISHED
        assert [g.over for g in event.games] == [True]
    finally:
        await close_table(table)


async def test_withdrawing_and_cancelling(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "t.db", Clock())
    try:
        assert "no tournament" in await table.text(BOB, "/withdraw")
        await table.say(ALICE, "/nim tournament roundrobin 3")
        assert "two-player" not in await table.text(BOB, "/join")
        assert "already in" in await table.text(BOB, "/join")
        assert "Nim round robin, taking entries: Alice, Bob" in await table.text(BOB, "/standings")
        assert "level is one of" in await table.text(BOB, "/join bot superhuman")
        assert "Only the organiser" in await table.text(BOB, "/go")
        assert "already has a tournament" in await table.text(BOB, "/gomoku tournament")
        await table.say(BOB, "/join bot easy")
        said = await table.text(ALICE, "/go")
        assert "3 entrants, 3 rounds" in said  # a round robin of three: a bye each round
        await until(lambda: any("Nim begins" in r.text for r in table.delivered))
        assert "begun" in await table.text(person("carol"), "/join")
        assert "Bob withdrew" in await table.text(BOB, "/withdraw")
        assert "Only the organiser" in await table.text(BOB, "/cancel tournament")
        assert "Mo cancelled" in await table.text(MOD, "/cancel tournament")
        event = await table.store.event_latest(table.channel)
        assert event.status == EventStatus.CANCELLED and event.entry(BOB.id).withdrawn == 1
        standings = (await table.say(BOB, "/standings"))[0]
        assert standings.image_name == "standings.png" and "Bob — score 0" in standings.text_board
    finally:
        await close_table(table)
