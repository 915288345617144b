"""The README's promise that the AI thinks in worker processes, so the chat connections keep
answering while it does: the move comes from another process, and the search's CPU is spent
there, not in the bot's process, so it never holds the GIL the event loop needs.

This is measured in CPU time, not on the wall clock: a search in a thread spends its CPU in
this process (and, holding the GIL, makes the loop wait), a search in a worker process spends
it elsewhere, however loaded the machine. (The loop's lag, measured on the wall clock, said the
same on an idle machine but depended on how soon a busy one ran the bot's process again.) The
same measure is taken with a thread, so it is seen to fail where it should. The searches go on
until they have spent enough CPU between them, however fast the machine and whatever work or
time the level allows."""

from __future__ import annotations

import gc
import os
import time

import engines
from bot.ai import AIRunner
from bot.workers import Workers

ENOUGH_CPU, MOST_SEARCHES = 0.4, 200


def gomoku_middle_game() -> tuple[dict, int]:
    gomoku = engines.get("gomoku")
    state = gomoku.new_state({}, 2, 1)
    for point in ("h8", "h9", "i8", "g8", "j9"):
        seat = gomoku.to_move(state)
        state = gomoku.apply(state, seat, gomoku.parse_move(state, seat, point))
    return gomoku.to_json(state), gomoku.to_move(state)


async def think(ai: AIRunner) -> tuple[list[dict], float]:
    """The AI's info about its moves, and the CPU this process spent meanwhile."""
    state, seat = gomoku_middle_game()
    infos: list[dict] = []
    mine = time.process_time()
    for n in range(MOST_SEARCHES):
        infos.append((await ai.move("gomoku", state, seat, "hard", n))[1])
        if sum(i["cpu"] for i in infos) >= ENOUGH_CPU:
            break
    spent_here = time.process_time() - mine
    assert sum(i["cpu"] for i in infos) >= ENOUGH_CPU, infos  # the searches really worked
    return infos, spent_here


async def test_the_ai_moves_in_another_process_and_spends_its_cpu_there() -> None:
    ai = AIRunner(1)
    try:
        await ai.warm_up()
        infos, spent_here = await think(ai)
    finally:
        ai.close()
    assert os.getpid() not in {i["pid"] for i in infos}
    searched = sum(i["cpu"] for i in infos)
    assert spent_here < searched / 4, (spent_here, searched)


async def test_the_measure_fails_an_ai_that_thinks_in_a_thread() -> None:
    ai = AIRunner(0)  # one background thread (the --ai-workers 0 of tiny hosts)
    try:
        infos, spent_here = await think(ai)
    finally:
        ai.close()
    assert {i["pid"] for i in infos} == {os.getpid()}
    searched = sum(i["cpu"] for i in infos)
    assert spent_here >= searched * 0.9, (spent_here, searched)  # the search's CPU is this process's


async def test_a_worker_freezes_what_survives_a_move_and_the_hosts_thread_does_not() -> None:
    """After each move a worker process collects and freezes what survived (`engines.settle`), so
    the AIs' caches stay out of every later full collection (about 1 s each in a Dou Dizhu hard
    worker before). Where the AI thinks in the host's own thread, nothing is frozen: the host's
    objects must stay collectable."""
    state, seat = gomoku_middle_game()
    worker = Workers(1, "ai")
    try:
        assert await worker.run(gc.get_freeze_count) == 0
        await worker.run(engines.think, "gomoku", state, seat, "medium", 0)
        assert await worker.run(gc.get_freeze_count) > 0
    finally:
        worker.close()
    before = gc.get_freeze_count()
    ai = AIRunner(0)
    try:
        await ai.move("gomoku", state, seat, "medium", 0)
    finally:
        ai.close()
    assert gc.get_freeze_count() == before
