"""Gomoku benchmarks: AI latency over whole games, AI strength, render time and size.

    nice -n 10 .venv/bin/python -m bench.gomoku                        # everything, 40 games a pairing
    nice -n 10 .venv/bin/python -m bench.gomoku --only strength --games 8   # quick strength run
    nice -n 10 .venv/bin/python -m bench.gomoku --only latency --games 4
    .venv/bin/python -m bench.gomoku --only render

strength: for each pairing (stronger vs weaker) `--games` games from varied
2-4 stone openings (seeded), each opening played twice with the colours
swapped; a win rate counts wins only (draws are printed apart).
Each pairing's openings are counted by how their two games went: an opening
that black (or white) won both times tells the colour apart, not the players.
latency: every move of each level measured over whole games played against
itself from such openings; prints p50 / p95 / max per level and checks the rule
"hard p95 <= 1.0 s, master p95 <= 3.0 s, no move above twice its budget".
The move times of the strength games are summarised too.
render: median time and PNG size of pictures of finished games (15x15, 19x19).
Games run in at most 2 worker processes, at nice 10.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from engines.base import Limit
from engines.gomoku import Gomoku, Point
from engines.gomoku.players import move as player_move

GAME = Gomoku()
BUDGET = dict({name: limit.seconds for name, limit in Gomoku.levels.items()}, oneply=0.1)
PAIRINGS = [("medium", "easy"), ("hard", "medium"), ("master", "hard"), ("hard", "oneply")]
TARGET = {("medium", "easy"): 0.75, ("hard", "medium"): 0.75, ("master", "hard"): 0.65, ("hard", "oneply"): 0.95}


def opening(seed: int, size: int = 15) -> list[Point]:
    """2, 3 or 4 stones (by turns, so a run has as many of each), black first, on distinct points
    within two of the centre; half of them start on the centre."""
    rng = random.Random(seed * 7919 + 17)
    centre = size // 2
    points = [Point(centre + dc, centre + dr) for dc in range(-2, 3) for dr in range(-2, 3)]
    stones = [Point(centre, centre)] if rng.random() < 0.5 else []
    while len(stones) < 2 + seed % 3:
        p = rng.choice(points)
        if p not in stones:
            stones.append(p)
    return stones


def play(black: str, white: str, seed: int, size: int = 15, rule: str = "freestyle") -> dict:
    """One game from opening(seed); returns the winner's level (or None), plies and move times."""
    state = GAME.new_state({"size": size, "rule": rule}, 2, seed)
    for p in opening(seed, size):
        state = GAME.apply(state, state.turn, p)
    rng = random.Random(seed)
    levels = (black, white)
    times: list[tuple[str, float]] = []
    while (seat := GAME.to_move(state)) is not None:
        level = levels[seat]
        started = time.perf_counter()
        move = player_move(state, seat, level, Limit(1, BUDGET[level.partition(":")[0]]), rng).move
        times.append((level, time.perf_counter() - started))
        state = GAME.apply(state, seat, move)
    outcome = GAME.outcome(state)
    winner = levels[outcome.winners[0]] if outcome.winners else None
    return {"black": black, "white": white, "seed": seed, "winner": winner, "plies": len(state.moves),
            "times": times, "record": " ".join(p.name for p in state.moves)}


def by_opening(results: list[dict], strong: str) -> Counter:
    """How the two games of each opening (one per colour assignment) went: the stronger side won both,
    the weaker won both, black won both, white won both, or "other" (a draw, or an odd --games left one game)."""
    games: dict[int, list[dict]] = {}
    for r in results:
        games.setdefault(r["seed"], []).append(r)
    tally: Counter = Counter()
    for pair in games.values():
        winners = [r["winner"] for r in pair]
        if len(winners) != 2 or None in winners:
            tally["other"] += 1
        elif winners[0] == winners[1]:
            tally["stronger" if winners[0] == strong else "weaker"] += 1
        else:  # each side won with the same colour: the colour of the first game's winner
            tally["black" if winners[0] == pair[0]["black"] else "white"] += 1
    return tally


def _play(args: tuple) -> dict:
    return play(*args)


def _nice() -> None:
    with contextlib.suppress(OSError):
        os.nice(10)


def run_games(jobs: list[tuple], workers: int) -> list[dict]:
    with ProcessPoolExecutor(max_workers=workers, initializer=_nice) as pool:
        return list(pool.map(_play, jobs))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def latency_table(times: list[tuple[str, float]], title: str) -> bool:
    print(f"\n{title}")
    print(f"{'level':8} {'moves':>6} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'budget':>7}  rule")
    ok = True
    for level in dict.fromkeys([lv for lv, _ in times]):
        values = [t for lv, t in times if lv == level]
        if not values:
            continue
        p50, p95, top = statistics.median(values), percentile(values, 0.95), max(values)
        budget = BUDGET[level.partition(":")[0]]
        good = top <= 2 * budget and (p95 <= budget if level.startswith(("hard", "master")) else True)
        if level.partition(":")[0] in Gomoku.levels and "nps=" not in level:
            ok &= good
            verdict = "PASS" if good else "FAIL"
        else:
            verdict = "n/a"  # the benchmark player, or a level counting time in nodes
        print(f"{level:8} {len(values):6} {p50:7.3f} {p95:7.3f} {top:7.3f} {budget:7.1f}  {verdict}")
    return ok


def latency(games: int, workers: int) -> None:
    jobs = [(level, level, 1000 + i) for level in Gomoku.levels for i in range(games)]
    started = time.perf_counter()
    results = run_games(jobs, workers)
    times = [t for r in results for t in r["times"]]
    ok = latency_table(times, f"Latency: {games} whole game(s) per level, each level against itself")
    print(f"rule hard p95 <= 1.0 s, master p95 <= 3.0 s, no move > 2x budget: {'PASS' if ok else 'FAIL'}"
          f"   ({time.perf_counter() - started:.0f} s wall)")


def strength(games: int, workers: int, pairings: list[tuple[str, str]], show: bool) -> None:
    jobs = []
    for strong, weak in pairings:
        for i in range(games):
            seed = 5000 + i // 2
            jobs.append((strong, weak, seed) if i % 2 == 0 else (weak, strong, seed))
    started = time.perf_counter()
    results = run_games(jobs, workers)
    print(f"\nStrength: {games} games per pairing, openings of 2-4 stones, colours swapped per opening")
    print(f"{'pairing':18} {'games':>5} {'wins':>5} {'losses':>6} {'draws':>5} {'win %':>6} "
          f"{'as black':>8} {'as white':>8} {'target':>6}  result")
    all_times = []
    for strong, weak in pairings:
        mine = [r for r in results if {r["black"], r["white"]} == {strong, weak}]
        wins = sum(r["winner"] == strong for r in mine)
        losses = sum(r["winner"] == weak for r in mine)
        draws = len(mine) - wins - losses
        as_black = [r for r in mine if r["black"] == strong]
        as_white = [r for r in mine if r["white"] == strong]
        wb = sum(r["winner"] == strong for r in as_black)
        ww = sum(r["winner"] == strong for r in as_white)
        rate = wins / len(mine)
        target = TARGET.get((strong, weak), 0.0)
        print(f"{strong + ' vs ' + weak:18} {len(mine):5} {wins:5} {losses:6} {draws:5} {100 * rate:5.1f}% "
              f"{wb:>4}/{len(as_black):<3} {ww:>4}/{len(as_white):<3} {100 * target:5.0f}%  "
              f"{'PASS' if rate >= target else 'FAIL'}")
        tally = by_opening(mine, strong)
        print(f"{'':18} openings: {strong} won both games {tally['stronger']}, {weak} won both {tally['weaker']}, "
              f"black won both {tally['black']}, white won both {tally['white']}, other {tally['other']}")
        if show:
            for r in mine:
                if r["winner"] != strong:
                    print(f"    lost/drawn: {r['black']} (black) vs {r['white']}: {r['record']}")
        all_times += [t for r in mine for t in r["times"]]
    latency_table(all_times, "Move times in these games")
    print(f"({time.perf_counter() - started:.0f} s wall)")


def render_bench(repeat: int) -> None:
    from bot.i18n import Translator
    from render.base import RenderContext
    from render.gomoku import render

    tr = Translator()
    print("\nRender: finished games, public picture, move numbers off / on")
    for size in (15, 19):
        result = play("oneply", "oneply", 7, size)
        state = GAME.new_state({"size": size}, 2, 0)
        for name in result["record"].split():
            state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, name))
        view = GAME.view(state, None)
        for numbers in (False, True):
            ctx = RenderContext(("Alice", "小明 🐼"), GAME.to_move(state), GAME.outcome(state), tr,
                                overlay={"numbers": numbers})
            render(view, ctx)  # warm the caches (board, sprites, fonts)
            times, size_bytes = [], 0
            for _ in range(repeat):
                t = time.perf_counter()
                size_bytes = len(render(view, ctx))
                times.append(time.perf_counter() - t)
            print(f"{size}x{size} {len(state.moves):3} stones numbers={'on ' if numbers else 'off'}: "
                  f"median {1000 * statistics.median(times):5.1f} ms, max {1000 * max(times):5.1f} ms, "
                  f"PNG {size_bytes / 1024:5.1f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=0, help="games per pairing / per level (40 / 4)")
    parser.add_argument("--only", default="latency,strength,render")
    parser.add_argument("--pairs", default="", help="e.g. \"master/hard;hard/oneply\" (a level may carry :overrides)")
    parser.add_argument("--budget", default="", help="override budgets, e.g. hard=0.3,master=0.9")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="print the records of games the stronger side lost")
    args = parser.parse_args()
    _nice()
    workers = max(1, min(2, args.workers))
    for item in filter(None, args.budget.split(",")):
        name, _, value = item.partition("=")
        BUDGET[name] = float(value)
    sections = args.only.split(",")
    print(f"machine load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"(1/5/15 min), {os.cpu_count()} cores, {workers} workers")
    if "latency" in sections:
        latency(args.games or 4, workers)
    if "strength" in sections:
        pairs = [tuple(p.split("/")) for p in args.pairs.split(";")] if args.pairs else PAIRINGS
        strength(args.games or 40, workers, pairs, args.show)
    if "render" in sections:
        render_bench(30)


if __name__ == "__main__":
    main()
