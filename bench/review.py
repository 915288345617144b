"""What a review of a finished game costs: CPU seconds per game (p50, p95) for each game, its work, and
what it found, on games the AIs play against each other at fixed seeds (a weaker level against a stronger
one, so that there are mistakes to find).

    nice -n 10 .venv/bin/python -m bench.review               # 8 games of each (Nim 40)
    nice -n 10 .venv/bin/python -m bench.review --games 4 --only gomoku,doudizhu

A review's work is fixed (engines/<game>/review.py says in what units), so the same seed finds the same
mistakes on an idle machine and on a busy one: each game prints a digest of what the reviews found. The
games are played first, then each is reviewed in this process alone, its CPU time measured with
`time.process_time` (the wall clock on a shared machine measures the others too). The self-play is not
timed. Nim's games start from random heaps (3 to 5 heaps of 1 to 20).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time

import engines
from engines.review import Record, review

PLAYERS = {  # the levels that play each seat
    "nim": ("easy", "hard"),
    "gomoku": ("easy", "medium"),
    "doudizhu": ("easy", "normal", "easy"),
    "checkers": ("easy", "normal"),
}


def play(name: str, seed: int) -> Record:
    """A game of `name` between the levels of `PLAYERS`, the first seat swapped every other game."""
    game = engines.get(name)
    levels = PLAYERS[name] if seed % 2 == 0 else tuple(reversed(PLAYERS[name]))
    state = game.new_state({}, len(levels), seed)
    rng = random.Random(seed)
    moves = []
    while (seat := game.to_move(state)) is not None and len(moves) < 600:
        move = game.ai(state, seat, levels[seat], game.levels[levels[seat]], rng).move
        moves.append((seat, game.move_text(state, move)))
        state = game.apply(state, seat, move)
    outcome = game.outcome(state)
    return Record(name, {}, len(levels), seed, tuple(moves), outcome.winners if outcome else ())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench(name: str, games: int, seed: int) -> None:
    cpu: list[float] = []
    work: list[int] = []
    found = hashlib.sha256()
    mistakes = exact = 0
    moves = 0
    for i in range(games):
        record = play(name, seed + i)
        started = time.process_time()
        result = review(record)
        cpu.append(time.process_time() - started)
        work.append(result.work)
        moves += len(record.moves)
        mistakes += len(result.mistakes)
        exact += sum(m.exact for m in result.mistakes)
        found.update(repr([(m.ply, m.played, m.better) for m in result.mistakes]).encode())
    print(f"{name:9} games {games:3}  moves/game {moves / games:5.1f}"
          f"  review CPU s/game p50 {percentile(cpu, 0.5):6.3f}  p95 {percentile(cpu, 0.95):6.3f}"
          f"  max {max(cpu):6.3f}  work/game p50 {statistics.median(work):9.0f}"
          f"  mistakes {mistakes} ({exact} proved)  digest {found.hexdigest()[:12]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(PLAYERS))
    args = parser.parse_args()
    for name in args.only.split(","):
        bench(name, args.games * (5 if name == "nim" else 1), args.seed)


if __name__ == "__main__":
    main()
