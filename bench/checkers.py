"""Chinese Checkers benchmarks: AI strength, game length, AI latency, render speed and size.

    nice -n 10 .venv/bin/python -m bench.checkers            # everything, 40 games a pair
    nice -n 10 .venv/bin/python -m bench.checkers --games 8  # quick mode
    nice -n 10 .venv/bin/python -m bench.checkers --only pairs,multi --pairs hard-easy --sizes 6 --games 20
    .venv/bin/python -m bench.checkers --only render

Sections (--only, comma separated): pairs (two players, every pair of levels or those of
--pairs, seats swapped every game), multi (one hard AI among easy ones, greedy bots, at 3,
4 and 6 players or --sizes), render. So that games differ, each game opens with one random
forward move per player (seeded), then the AIs play. Games run in at most 2 worker processes
at nice 10.

Reproducible: the levels are work (search nodes), not time, so the same --seed plays the
same games on an idle machine and on a busy one; each section prints a digest of every move
played (two runs print the same digests). AI cost per move is measured in CPU seconds
(`time.process_time`, not the wall clock, which a busy machine stretches), with the nodes
per CPU second.

Goals: hard against easy (greedy) with two players wins every game in at most
36 moves per player; hard among five easy bots at six seats comes first in >= 85 % of games.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from engines.base import Limit
from engines.checkers import Checkers
from engines.checkers.board import TIP_DISTANCE
from engines.checkers.state import GOAL_POINT, distance

GAME = Checkers()
# The levels' work without their wall-clock ceiling: on a machine this loaded (a worker at nice 10 may get a
# few per cent of a core) the safety net would cut moves short and make the figures depend on the load.
LEVELS = {name: Limit(limit.work, math.inf) for name, limit in Checkers.levels.items()}


def play(levels: tuple[str, ...], seed: int) -> dict:
    """One game; levels[seat] is that seat's AI. Returns ranks, turns, end and each move's think time."""
    rng = random.Random(seed)
    n = len(levels)
    state = GAME.new_state({}, n, seed)
    times: list[tuple[str, float, int]] = []
    moves: list[str] = []
    plies = 0
    while (seat := GAME.to_move(state)) is not None:
        if state.turns[seat] < 1:
            table = TIP_DISTANCE[GOAL_POINT[n][seat]]
            forward = [m for m in GAME.legal_moves(state, seat) if table[m.to] < table[m.start]]
            move = rng.choice(forward)
        else:
            started = time.process_time()
            result = GAME.ai(state, seat, levels[seat], LEVELS[levels[seat]], rng)
            move = result.move
            times.append((levels[seat], time.process_time() - started, result.info.get("work", 0)))
        moves.append(GAME.move_text(state, move))
        state = GAME.apply(state, seat, move)
        plies += 1
    outcome = GAME.outcome(state)
    return {
        "levels": levels,
        "ranks": outcome.ranks,
        "turns": list(state.turns),
        "plies": plies,
        "end": state.end,
        "finished": list(state.finished),
        "distance": [distance(state.board, n, s) for s in range(n)],
        "times": times,
        "moves": moves,
        "state": GAME.to_json(state),
    }


def digest(results: list[dict]) -> str:
    h = hashlib.sha256()
    for r in results:
        h.update(" ".join(r["moves"]).encode() + b"/")
    return h.hexdigest()[:10]


def _nice() -> None:
    """Nice 10 (not more: `nice -n 10` around the command and this call do not add up)."""
    with contextlib.suppress(OSError):
        os.nice(max(0, 10 - os.nice(0)))


def _play(args: tuple[tuple[str, ...], int]) -> dict:
    _nice()
    return play(*args)


def run_all(jobs: list[tuple[tuple[str, ...], int]], workers: int) -> list[dict]:
    if workers <= 1:
        return [play(*job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play, jobs, chunksize=1))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def all_pairs() -> list[tuple[str, str]]:
    """(strong, weak) for every pair of levels."""
    names = list(LEVELS)
    return [(strong, weak) for i, weak in enumerate(names) for strong in names[i + 1 :]]


def pairs(games: int, workers: int, seed: int, chosen: list[tuple[str, str]]) -> list[dict]:
    print(f"== two players: {games} games per pair of levels, seats swapped every game")
    jobs = []
    for number, (strong, weak) in enumerate(all_pairs()):
        if (strong, weak) not in chosen:
            continue
        for g in range(games):  # each pair's seeds are its own, whichever pairs are run
            jobs.append(((strong, weak) if g % 2 == 0 else (weak, strong), seed + number * games + g))
    results = run_all(jobs, workers)
    for strong, weak in chosen:
        mine = [r for r in results if set(r["levels"]) == {weak, strong}]
        wins = sum(r["ranks"][r["levels"].index(strong)] == 1 and r["ranks"][0] != r["ranks"][1] for r in mine)
        draws = sum(r["ranks"][0] == r["ranks"][1] for r in mine)
        rate = (wins + draws / 2) / len(mine)
        ends = {e: sum(r["end"] == e for r in mine) for e in ("goal", "rounds", "stalled", "stuck")}
        moves = statistics.mean(r["plies"] / 2 for r in mine)
        verdict = "PASS" if rate >= 0.75 else "FAIL"
        line = (
            f"{strong:>6} vs {weak:<6} {strong} wins {wins}/{len(mine)}, draws {draws}: "
            f"score {rate:.0%} [{verdict} >= 75%]; moves per player {moves:.1f}; ends {ends}; "
            f"digest {digest(mine)}"
        )
        if (strong, weak) == ("hard", "easy"):
            ok = wins == len(mine) and moves <= 36
            line += f" [{'PASS' if ok else 'FAIL'}: every game won, <= 36 moves per player]"
        print(line, flush=True)
    return results


def multi(games: int, workers: int, seed: int, sizes: list[int]) -> list[dict]:
    print(f"== one hard AI among easy ones: {games} games per table size, the hard seat rotating")
    jobs = []
    for n in sizes:
        for g in range(games):
            levels = tuple("hard" if s == g % n else "easy" for s in range(n))
            jobs.append((levels, seed + 1000 * n + g))
    results = run_all(jobs, workers)
    for n in sizes:
        mine = [r for r in results if len(r["levels"]) == n]
        ranks = [r["ranks"][r["levels"].index("hard")] for r in mine]
        firsts = sum(rank == 1 for rank in ranks)
        moves = statistics.mean(r["plies"] / n for r in mine)
        ends = {e: sum(r["end"] == e for r in mine) for e in ("goal", "rounds", "stalled", "stuck")}
        line = (
            f"{n} players: hard's average rank {statistics.mean(ranks):.2f} of {n} "
            f"(1st in {firsts}/{len(mine)}; chance alone {(n + 1) / 2:.1f}); "
            f"turns per player {moves:.1f}; ends {ends}; digest {digest(mine)}"
        )
        if n == 6:
            line += f" [{'PASS' if firsts >= 0.85 * len(mine) else 'FAIL'}: first in >= 85%]"
        print(line, flush=True)
    return results


def latency(results: list[dict]) -> None:
    print("== AI cost per move (the games above): CPU time, and search nodes per CPU second")
    for level in LEVELS:
        for label, two in (("2 players", True), ("3+ players", False)):
            rows = [(t, w) for r in results if (len(r["levels"]) == 2) == two for lv, t, w in r["times"] if lv == level]
            if not rows:
                continue
            times = [t for t, _ in rows]
            work = sum(w for _, w in rows)
            rate = f"{work / sum(times):8.0f} nodes/s" if work > len(rows) and sum(times) else " " * 15
            line = (
                f"{level:>6} {label:<10} n={len(times):<5} {rate}  cpu p50 {pct(times, 0.5) * 1000:6.0f} ms  "
                f"p95 {pct(times, 0.95) * 1000:6.0f} ms  max {max(times) * 1000:6.0f} ms"
            )
            if level == "hard":
                line += "  [PASS p95 <= 1.0 s]" if pct(times, 0.95) <= 1.0 else "  [FAIL p95 > 1.0 s]"
            print(line)


def render_bench(seed: int) -> None:
    from bot.i18n import Translator
    from render.base import RenderContext
    from render.checkers import render

    print("== render: a mid-game position per table size, 30 renders each")
    rng = random.Random(seed)
    tr = Translator("en")
    for n in (2, 3, 4, 6):
        state = GAME.new_state({}, n, seed)
        for _ in range(12 * n):
            seat = GAME.to_move(state)
            state = GAME.apply(state, seat, GAME.ai(state, seat, "easy", LEVELS["easy"], rng).move)
        view = GAME.view(state, None)
        names = tuple(["Alice", "Bob", "张伟", "Dora 🎲", "Eve", "Faisal"][:n])
        ctx = RenderContext(names, GAME.to_move(state), None, tr)
        render(view, ctx)  # the empty board is drawn once and cached
        times = []
        for _ in range(30):
            started = time.perf_counter()
            data = render(view, ctx)
            times.append(time.perf_counter() - started)
        ans = GAME.query(state, None, "moves", [view["last"]["path"][-1]])
        marked = render(view, RenderContext(names, GAME.to_move(state), None, tr, overlay=ans.overlay))
        med = statistics.median(times) * 1000
        verdict = "PASS" if med < 40 and len(data) < 200_000 else "FAIL"
        print(
            f"{n} players: median {med:.1f} ms, max {max(times) * 1000:.1f} ms, PNG {len(data) / 1024:.0f} KB "
            f"({len(marked) / 1024:.0f} KB with marks) [{verdict}: < 40 ms, < 200 KB]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pair of levels / per table size")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (at most 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="pairs,multi,render")
    parser.add_argument("--pairs", default=None, help="strong-weak pairs, comma separated (hard-easy); default all")
    parser.add_argument("--sizes", default="3,4,6", help="table sizes of the multi section")
    args = parser.parse_args()
    _nice()
    chosen = all_pairs() if args.pairs is None else [tuple(p.split("-")) for p in args.pairs.split(",")]
    sizes = [int(n) for n in args.sizes.split(",")]
    workers = max(1, min(2, args.workers))
    only = set(args.only.split(","))
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}, cpus {os.cpu_count()}")
    results: list[dict] = []
    started = time.perf_counter()
    if "pairs" in only:
        results += pairs(args.games, workers, args.seed, chosen)  # type: ignore[arg-type]
    if "multi" in only:
        results += multi(args.games, workers, args.seed, sizes)
    if results:
        latency(results)
    if "render" in only:
        render_bench(args.seed)
    print(f"({time.perf_counter() - started:.0f} s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
