"""Gomoku benchmarks: work per second, AI latency over whole games, AI strength, render time and size.

    nice -n 10 .venv/bin/python -m bench.gomoku                        # everything: 80 games a pairing
    nice -n 10 .venv/bin/python -m bench.gomoku --only strength --games 8   # quick strength run
    nice -n 10 .venv/bin/python -m bench.gomoku --only strength --pairs master/hard --games 80
    nice -n 10 .venv/bin/python -m bench.gomoku --only latency --games 4
    .venv/bin/python -m bench.gomoku --only speed                       # nodes/s on fixed positions
    .venv/bin/python -m bench.gomoku --only render
    nice -n 10 .venv/bin/python -m bench.gomoku --only white --games 10 --seed 1   # the levels against tss

The levels are defined by work (nodes searched, `Gomoku.levels`), not by the
clock: a game from the same seed is the same game on an idle machine and on a
busy one, and two runs of the same command print the same digest of every move
played (the AI's clock stands still here, so the host's wall-clock safety net
never cuts a move short). Only the times change with the load, so every move is
also timed in CPU seconds (`time.process_time`), which is what an idle core would take.

speed: hard and master on fixed positions (three positions from lost games
among them, each with the one move that saves it): nodes, CPU seconds,
nodes per CPU second, and whether each position's move was found.
strength: for each pairing (stronger vs weaker) `--games` games from varied
2-4 stone openings (seeded by `--seed`), each opening played twice with the
colours swapped; a win rate counts wins only (draws are printed apart). Each
pairing's openings are counted by how their two games went: an opening that
black (or white) won both times tells the colour apart, not the players.
latency: every move of each level measured over whole games played against
itself from such openings; prints p50 / p95 / max CPU seconds per level and
checks the rule "hard p95 <= 1.0 s, master p95 <= 3.0 s" on CPU time (wall
time printed beside it). The move times of the strength games are summarised too.
white: hard and master against `tss` (bench/gomoku_tss.py, an outside threat-space-search player
that shares no code with the engine), each on `--games` openings played twice, the level once as black
and once as white; the openings (`fresh_opening`: three stones within three of the centre, white to
move) come from their own generator, seeded from `--seed` (1 and up: measuring; tuning used 900 and up).
render: median time and PNG size of pictures of finished games (15x15, 19x19).
Games run in at most 2 worker processes, at nice 10. A line that says FAIL
makes the exit status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from bench import gomoku_tss
from engines.base import AIInfo, AIResult, Limit
from engines.gomoku import Gomoku, Point, fastpos
from engines.gomoku.players import move as player_move

GAME = Gomoku()
LIMIT = dict(Gomoku.levels, oneply=Limit(1, 1.0))
SECONDS = {"hard": 1.0, "master": 3.0}  # p95 of a move on an idle core (CPU seconds)
PAIRINGS = [("medium", "easy"), ("hard", "medium"), ("master", "hard"), ("hard", "oneply")]
TARGET = {("medium", "easy"): 0.75, ("hard", "medium"): 0.90, ("master", "hard"): 0.75, ("hard", "oneply"): 0.95}
# (level, moves, the move that must be played: "" when any will do)
POSITIONS = [
    ("hard", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8", "h9"),
    ("master", "i9 h7 g11 j8 h10 i7 g7 h6 k9 h8", "h9"),
    ("master", "i8 f6 j7 e7 k6 h9 g5 f7", "g8"),
    ("master", "k7 j5 l6 i6 j8 m5 k5 j6 k9 k6 m7 j4", "j7"),
    ("master", "h8 f8 g8 e6 g9 g7 e9 e11 f9 h9 g10", "g11 g12"),
    ("master", "j7 h6 j5 h7 h5 i5 i6 g4 j4 j6 k7 l7 k5 k8 k4 j9 i10", "i8"),
    ("hard", "h8 i9 g9 i7 i8 g7", ""),
    ("master", "h8 i9 g9 i7 i8 g7", ""),
    ("hard", "h8 h9 i8 g8 j8 k8 i9 i7 j10", ""),
    ("master", "h8 h9 i8 g8 j8 k8 i9 i7 j10", ""),
]


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


def fresh_opening(seed: int, size: int = 15) -> list[Point]:
    """Three stones (black, white, black) on distinct points within three of the centre: the `white`
    section's openings, from a generator of their own (never the tuning's `opening`)."""
    rng = random.Random(f"fresh opening {seed}")
    centre, stones = size // 2, []
    while len(stones) < 3:
        p = Point(centre + rng.randint(-3, 3), centre + rng.randint(-3, 3))
        if p not in stones:
            stones.append(p)
    return stones


def standing() -> float:
    """The AI's clock here: it stands still, so the host's wall-clock safety net never cuts a move short
    (on a busy machine it would, and the games would depend on the load)."""
    return 0.0


def limit_of(player: str) -> Limit:
    return LIMIT[player.partition(":")[0]]


def play(black: str, white: str, seed: int, size: int = 15, rule: str = "freestyle", fresh: bool = False) -> dict:
    """One game from opening(seed) (`fresh`: fresh_opening(seed)); returns the winner's level (or None),
    plies, and per move the player,
    wall and CPU seconds and nodes."""
    state = GAME.new_state({"size": size, "rule": rule}, 2, seed)
    for p in (fresh_opening if fresh else opening)(seed, size):
        state = GAME.apply(state, state.turn, p)
    rng = random.Random(seed)
    levels = (black, white)
    times: list[tuple[str, float, float, int]] = []
    while (seat := GAME.to_move(state)) is not None:
        level = levels[seat]
        started, cpu = time.perf_counter(), time.process_time()
        if level == "tss":
            result = AIResult(Point(*gomoku_tss.play([tuple(p) for p in state.moves], size, rng)), AIInfo(work=0))
        else:
            result = player_move(state, seat, level, limit_of(level), rng, clock=standing)
        times.append((level, time.perf_counter() - started, time.process_time() - cpu, result.info.get("work", 0)))
        state = GAME.apply(state, seat, result.move)
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
    """Nice 10 (not more: the workers inherit the main process's niceness, and `nice -n 10` may have set it)."""
    with contextlib.suppress(OSError):
        os.nice(max(0, 10 - os.nice(0)))
    fastpos.load()  # as the bot's AI workers do in their warm-up: no move waits for the compiled core


def run_games(jobs: list[tuple], workers: int, progress: bool = False) -> list[dict]:
    """The games of `jobs`, in their order; with `progress` a line per game as it ends (and the running
    score of its pairing), so that a run stopped early still tells how far it got."""
    results = []
    score: Counter = Counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_nice) as pool:
        for r in pool.map(_play, jobs):
            results.append(r)
            if progress:
                pairing = tuple(sorted((r["black"], r["white"])))
                score[pairing, r["winner"]] += 1
                played = sum(n for (p, _), n in score.items() if p == pairing)
                sides = []
                for who in (r["black"], r["white"]):
                    mine = [t for t in r["times"] if t[0] == who]
                    cpu = [t[2] for t in mine]
                    nodes = sum(t[3] for t in mine)
                    sides.append(f"{who} {len(mine)} moves cpu mean {statistics.mean(cpu):.2f} max {max(cpu):.2f} s"
                                 + (f" {nodes / max(sum(cpu), 1e-9):.0f} nodes/s" if nodes else ""))
                print(f"  game {len(results)}: {r['black']} (black) vs {r['white']}, seed {r['seed']}: "
                      f"{(r['winner'] + ' won') if r['winner'] else 'a draw'} in {r['plies']} plies; "
                      + ", ".join(f"{who} {score[pairing, who]}" for who in pairing) + f" of {played}"
                      + f"   [{'; '.join(sides)}]", flush=True)
    return results


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def digest(results: list[dict]) -> str:
    """A fingerprint of every game played (openings, moves, winners): the same command, the same digest."""
    text = "\n".join(f"{r['black']} {r['white']} {r['seed']} {r['record']}" for r in results)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def latency_table(times: list[tuple[str, float, float, int]], title: str) -> bool:
    print(f"\n{title}")
    print(f"{'level':8} {'moves':>6} {'nodes':>7} {'cpu p50':>8} {'p95':>6} {'max':>6} {'wall p95':>8} "
          f"{'nodes/s':>8}  rule (cpu p95)")
    ok = True
    for level in dict.fromkeys([t[0] for t in times]):
        rows = [t for t in times if t[0] == level]
        cpu = [t[2] for t in rows]
        nodes, spent = sum(t[3] for t in rows), sum(cpu)
        p50, p95, top = statistics.median(cpu), percentile(cpu, 0.95), max(cpu)
        wall = percentile([t[1] for t in rows], 0.95)
        rule = SECONDS.get(level)
        verdict = "n/a" if rule is None else "PASS" if p95 <= rule else "FAIL"
        ok &= verdict != "FAIL"
        rate = f"{nodes / spent:8.0f}" if nodes and spent else f"{'-':>8}"
        print(f"{level:8} {len(rows):6} {nodes // len(rows):7} {p50:8.3f} {p95:6.3f} {top:6.3f} {wall:8.3f} "
              f"{rate}  {verdict}{f' <= {rule:.1f} s' if rule else ''}")
    return ok


def speed() -> bool:
    """Nodes per CPU second of hard and master on POSITIONS, and whether each found its move."""
    board = "compiled" if fastpos.load() else "pure Python"  # loaded before the clock runs, as in a worker
    print(f"\nSpeed: hard and master on fixed positions (CPU seconds), board: {board}")
    print(f"{'level':7} {'position':52} {'move':>5} {'want':>7} {'nodes':>7} {'cpu s':>6} {'nodes/s':>8}")
    ok, totals, chosen = True, Counter(), []
    for level, record, want in POSITIONS:
        state = GAME.new_state({"size": 15}, 2, 0)
        for name in record.split():
            state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, name))
        cpu = time.process_time()
        result = player_move(state, state.turn, level, LIMIT[level], random.Random(1), clock=standing)
        spent = time.process_time() - cpu
        nodes = result.info.get("work", 0)
        totals["nodes"] += nodes
        totals["cpu"] += spent
        good = not want or result.move.name in want.split()
        ok &= good
        chosen.append(f"{level} {record} {result.move.name} {nodes}")
        print(f"{level:7} {record:52} {result.move.name:>5} {want or '-':>7} {nodes:7} {spent:6.2f} "
              f"{nodes / max(spent, 1e-9):8.0f}  {'' if not want else 'PASS' if good else 'FAIL'}")
    print(f"all: {totals['nodes']} nodes in {totals['cpu']:.2f} CPU s = {totals['nodes'] / totals['cpu']:.0f} nodes/s")
    print(f"digest of the moves and node counts: {hashlib.sha256(chr(10).join(chosen).encode()).hexdigest()[:16]}")
    return ok


def latency(games: int, workers: int, seed: int) -> bool:
    jobs = [(level, level, seed + i) for level in Gomoku.levels for i in range(games)]
    started = time.perf_counter()
    results = run_games(jobs, workers)
    times = [t for r in results for t in r["times"]]
    ok = latency_table(times, f"Latency: {games} whole game(s) per level, each level against itself")
    print(f"rule hard p95 <= 1.0 s, master p95 <= 3.0 s (CPU): {'PASS' if ok else 'FAIL'}   "
          f"digest {digest(results)}   ({time.perf_counter() - started:.0f} s wall)")
    return ok


def strength(games: int, workers: int, pairings: list[tuple[str, str]], show: bool, seed: int) -> bool:
    jobs = []
    for i in range(games):  # the pairings interleaved: a run stopped early has played each about as much
        for strong, weak in pairings:
            opening_seed = seed + i // 2
            jobs.append((strong, weak, opening_seed) if i % 2 == 0 else (weak, strong, opening_seed))
    started = time.perf_counter()
    print(f"\nStrength games as they end (seeds from {seed}):", flush=True)
    results = run_games(jobs, workers, progress=True)
    print(f"\nStrength: {games} games per pairing, openings of 2-4 stones, colours swapped per opening")
    print(f"{'pairing':18} {'games':>5} {'wins':>5} {'losses':>6} {'draws':>5} {'win %':>6} "
          f"{'as black':>8} {'as white':>8} {'target':>6}  result")
    all_times, ok = [], True
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
        ok &= rate >= target
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
    print(f"digest {digest(results)}   ({time.perf_counter() - started:.0f} s wall)")
    return ok


def white(games: int, workers: int, levels: list[str], seed: int) -> bool:
    """Each level against tss on `games` fresh openings, once with each colour: wins by colour."""
    # Every level's white games first (the colour it loses with), so a run stopped early has played those.
    jobs = [("tss", level, seed + i, 15, "freestyle", True) for i in range(games) for level in levels]
    jobs += [(level, "tss", seed + i, 15, "freestyle", True) for i in range(games) for level in levels]
    started = time.perf_counter()
    print(f"\nAgainst tss (bench/gomoku_tss.py), fresh openings, seeds {seed}..{seed + games - 1}:", flush=True)
    results = run_games(jobs, workers, progress=True)
    print(f"{'level':8} {'as black':>9} {'as white':>9} {'all':>9}")
    for level in levels:
        black = [r for r in results if r["black"] == level]
        white_ = [r for r in results if r["white"] == level]
        wb, ww = sum(r["winner"] == level for r in black), sum(r["winner"] == level for r in white_)
        print(f"{level:8} {wb:>5}/{len(black):<3} {ww:>5}/{len(white_):<3} {wb + ww:>5}/{len(black) + len(white_):<3}")
        for r in black + white_:
            if r["winner"] != level:
                print(f"    not won: {r['black']} (black) vs {r['white']}, seed {r['seed']}: {r['record']}")
    latency_table([t for r in results for t in r["times"] if t[0] != "tss"], "Move times of the levels")
    print(f"digest {digest(results)}   ({time.perf_counter() - started:.0f} s wall)")
    return True


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
    parser.add_argument("--games", type=int, default=0, help="games per pairing / per level (80 / 4)")
    parser.add_argument("--only", default="speed,latency,strength,render")
    parser.add_argument("--pairs", default="", help="e.g. \"master/hard;hard/oneply\" (a level may carry :overrides)")
    parser.add_argument("--work", default="", help="override node budgets, e.g. hard=20000,master=60000")
    parser.add_argument("--seed", type=int, default=5000, help="the first opening's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="print the records of games the stronger side lost")
    args = parser.parse_args()
    _nice()
    workers = max(1, min(2, args.workers))
    for item in filter(None, args.work.split(",")):
        name, _, value = item.partition("=")
        LIMIT[name] = Limit(int(value), LIMIT[name].seconds)
    sections = args.only.split(",")
    print(f"machine load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"(1/5/15 min), {os.cpu_count()} cores, {workers} workers")
    ok = True
    if "speed" in sections:
        ok &= speed()
    if "latency" in sections:
        ok &= latency(args.games or 4, workers, args.seed - 4000)
    if "strength" in sections:
        pairs = [tuple(p.split("/")) for p in args.pairs.split(";")] if args.pairs else PAIRINGS
        ok &= strength(args.games or 80, workers, pairs, args.show, args.seed)
    if "white" in sections:
        ok &= white(args.games or 10, workers, (args.pairs or "hard;master").split(";"), args.seed)
    if "render" in sections:
        render_bench(30)
    print(f"\nall targets: {'PASS' if ok else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
