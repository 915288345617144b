"""Moves that arrive at once apply exactly once, in order; no input breaks the host (on SQLite
and on PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import AIRunner
from bot.model import Event, Reply
from tests.conftest import ALICE, BOB, BOTH, CAROL, Clock, Table, close_table, open_table
from tests.support.hostile import hostile_names, hostile_numbers, hostile_text
from tests.support.postgres import scalar

BACKENDS = BOTH


async def test_many_copies_of_one_move_apply_exactly_once(table: Table) -> None:
    await table.say(ALICE, "/nim start 20 20")
    await table.say(BOB, "/join")
    results = await asyncio.gather(*(table.say(ALICE, "/take 1 1") for _ in range(50)))
    applied = [r for r in results if r[0].text.startswith("Alice took")]
    assert len(applied) == 1
    assert all(r[0].text == "It is Bob's turn." for r in results if r not in applied)
    session = await table.session()
    assert session.state["heaps"] == [19, 20] and session.ply == 1
    assert len(await table.store.moves(session.id)) == 1


async def test_concurrent_moves_from_both_players_apply_in_turn_order(table: Table) -> None:
    await table.say(ALICE, "/nim start 50 50")
    await table.say(BOB, "/join")
    # Each player fires 30 single-stone moves at once; only moves in turn can apply.
    commands = [(ALICE if i % 2 == 0 else BOB, "/take 1 1") for i in range(60)]
    random.Random(4).shuffle(commands)
    for _ in range(10):
        await asyncio.gather(*(table.say(user, text) for user, text in commands))
    moves = await table.store.moves((await table.session()).id)
    assert [m.seat for m in moves] == [i % 2 for i in range(len(moves))]  # strictly alternating
    assert [m.ply for m in moves] == list(range(len(moves)))
    session = await table.session()
    assert session.state["heaps"][0] == 50 - len(moves) and session.ply == len(moves)


async def test_a_double_click_on_accept_starts_one_game(table: Table) -> None:
    sent = await table.say(ALICE, "/nim challenge @bob", bob=BOB)
    accept = next(b for b in sent[0].buttons if b.command == "/accept")
    results = await asyncio.gather(*(table.press(BOB, accept.id) for _ in range(10)))
    assert sum("Nim begins" in r[0].text for r in results) == 1


async def test_channels_do_not_wait_for_each_other(database: Path | str) -> None:
    table = await open_table(database, Clock())
    try:
        async def play(channel: int) -> None:
            def event(user, text):
                return Event(f"console:{channel}", user, text)

            await table.host.handle(event(ALICE, "/nim start 5 5"))
            await table.host.handle(event(BOB, "/join"))
            for i in range(4):
                await table.host.handle(event(ALICE if i % 2 == 0 else BOB, "/take 1 1"))

        await asyncio.gather(*(play(c) for c in range(20)))
        assert await scalar(table.store, "SELECT COUNT(*) FROM moves") == 80
    finally:
        await close_table(table)


COMMAND_WORDS = ["/nim", "/nim start", "/nim solo", "/nim challenge", "/join", "/accept", "/decline", "/take",
                 "/move", "/undo", "/draw", "/restart", "/resign", "/board", "/hint", "/hand", "/record", "/stats",
                 "/leaderboard", "/cancel", "/rematch", "/back", "/go", "/rules", "/help", "/hints", "/as"]
# Words, arguments and names from the hostile alphabet (tests/support/hostile.py, the fuzzer's): plain
# st.text() almost never draws a "²", a newline in a name or a lone surrogate.
# The steps of a table's life come up more often: opened, joined, looked at, closed.
words = st.one_of(st.sampled_from(COMMAND_WORDS), st.sampled_from(["/nim start", "/join", "/board", "/cancel"]),
                  hostile_text(12))
OPTIONS = ["@bob", "@alice", "max=2", "misere", "hard", "easy", "timer=1m", "on", "off", "numbers"]
arguments = st.lists(st.one_of(hostile_numbers(), st.sampled_from(OPTIONS), hostile_text(8)), max_size=5)
people = st.sampled_from([ALICE, BOB, CAROL]).flatmap(
    lambda user: st.one_of(st.just(user), hostile_names().map(lambda name: replace(user, name=name))))
lines = st.tuples(people, words, arguments)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(lines, min_size=1, max_size=25), st.booleans())
def test_arbitrary_commands_never_break_the_host(database: Path | str, script, press_buttons: bool) -> None:
    """Random people typing random commands: every reply is well-formed, nothing raises. Each
    example plays in a channel of its own."""

    async def run() -> None:
        table = await open_table(database, Clock())
        table.channel = f"console:fuzz-{time.perf_counter_ns()}"
        table.host.ai.close()
        table.host.ai = AIRunner(0)
        buttons: list[str] = []
        try:
            for user, word, args in script:
                text = " ".join([word, *args])
                if press_buttons and buttons and len(text) % 3 == 0:
                    replies = await table.press(user, buttons[len(text) % len(buttons)])
                else:
                    replies = await table.say(user, text, bob=BOB, alice=ALICE)
                for reply in replies:
                    assert isinstance(reply, Reply) and (reply.text or reply.image)
                    buttons += [b.id for b in reply.buttons]
                await table.host.idle()
            session = await table.session()
            if session is not None and session.status == "playing":
                moves = await table.store.moves(session.id)
                assert len(moves) == session.ply
        finally:
            await close_table(table)

    asyncio.run(run())
