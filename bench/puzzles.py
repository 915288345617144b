"""Make the puzzles shipped in bot/puzzles/data/ from self-play at a fixed seed.

    nice -n 10 .venv/bin/python -m bench.puzzles gomoku --seed 1 --count 320
    nice -n 10 .venv/bin/python -m bench.puzzles doudizhu --seed 1 --count 320
    nice -n 10 .venv/bin/python -m bench.puzzles checkers --seed 1 --count 320
    nice -n 10 .venv/bin/python -m bench.puzzles doudizhu --seed 1 --count 320 --resume   # go on with the file

The project's AIs play games (the seed makes each game, so the same command writes the same
file); every position of a game is a candidate, kept when the game's exact search verifies it
(`Puzzles.verify`: the forced win is there and its first move is unique). Dou Dizhu also looks at
the positions one different move away from the game (the other answers of the seat to move),
where its unique wins mostly are. Prints the rate in puzzles per CPU minute (`time.process_time`).
Nim's puzzles need no file: `engines.nim_puzzles` makes one from a number.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from engines.budget import OutOfWork
from engines.puzzles import puzzles_of

DATA = Path(__file__).resolve().parent.parent / "bot" / "puzzles" / "data"


def gomoku(seed: int, first: int = 0) -> Iterator[dict[str, Any]]:
    """Games of the easy and medium AIs (each seat's level drawn per game); the first position of each
    colour in a game where it has a VCF of one four or more."""
    from engines.gomoku import Gomoku
    from engines.gomoku.board import geometry
    from engines.gomoku.position import Position
    from engines.gomoku.puzzles import vcf_depth

    game, kind = Gomoku(), puzzles_of("gomoku")
    for number in range(first, 10**9):
        rng = random.Random(f"{seed}:{number}")
        state = game.new_state({}, 2, number)
        levels = [rng.choice(["easy", "medium"]) for _ in range(2)]
        done: set[int] = set()
        board = Position(state.size, state.rule)  # the game so far, kept move by move
        while game.outcome(state) is None and len(state.moves) < 150:
            seat = state.turn
            if len(state.moves) >= 8 and seat not in done:
                fours = vcf_depth(board, 1 + seat, 10)
                if fours:
                    puzzle = {
                        "size": state.size,
                        "rule": state.rule,
                        "moves": [p.name for p in state.moves],
                        "fours": fours,
                        "from": f"self-play {seed}:{number}",
                    }
                    if kind.verify(puzzle):
                        done.add(seat)
                        yield puzzle
            move = game.ai(state, seat, levels[seat], game.levels[levels[seat]], rng).move
            state = game.apply(state, seat, move)
            board.make(geometry(state.size).index(move.col, move.row), 1 + seat)


def doudizhu(seed: int, first: int = 0) -> Iterator[dict[str, Any]]:
    """Games of the easy AI; the positions with at most 28 cards in all, and those one other move away."""
    from engines.doudizhu import DouDizhu
    from engines.doudizhu.state import seat_to_move

    game, kind = DouDizhu(), puzzles_of("doudizhu")
    seen: set[str] = set()
    for number in range(first, 10**9):
        rng = random.Random(f"{seed}:{number}")
        state = game.new_state({}, 3, number)
        while (seat := game.to_move(state)) is not None:
            if state.landlord is not None and sum(map(len, state.hands)) <= 28:
                for candidate in [state, *(game.apply(state, seat, m) for m in game.legal_moves(state, seat))]:
                    if seat_to_move(candidate) is None or sum(map(len, candidate.hands)) < 8:
                        continue
                    data = game.to_json(replace(candidate, plays=candidate.plays[-3:], seed=0, bottom=()))
                    key = json.dumps(data, sort_keys=True)
                    if key in seen:
                        continue
                    seen.add(key)
                    puzzle = {"state": data, "from": f"self-play {seed}:{number}"}
                    try:
                        verified = kind.verify(puzzle)
                    except OutOfWork:  # beyond the solver's positions (`WORK`): no puzzle for people either
                        verified = False
                    if verified:
                        yield puzzle
            state = game.apply(state, seat, game.ai(state, seat, "easy", game.levels["easy"], rng).move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=["gomoku", "doudizhu", "checkers"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=320)
    parser.add_argument("--out", type=Path, help="default: bot/puzzles/data/<game>.json")
    parser.add_argument("--resume", action="store_true", help="go on from the last game of the file (same seed)")
    args = parser.parse_args(argv)
    out = args.out or DATA / f"{args.game}.json"
    source = {"gomoku": gomoku, "doudizhu": doudizhu, "checkers": checkers}[args.game]
    started = time.process_time()
    found: list[dict[str, Any]] = json.loads(out.read_text()) if args.resume and out.exists() else []
    first = int(found[-1]["from"].rpartition(":")[2]) if found else 0  # that game again: the puzzles it still had
    resumed = len(found)
    for puzzle in source(args.seed, first):
        if any(p == puzzle or ("state" in p and p["state"] == puzzle.get("state")) for p in found):
            continue
        found.append(puzzle)
        cpu = time.process_time() - started
        print(f"{len(found)} puzzles, {cpu:.0f} CPU s", file=sys.stderr, flush=True)
        out.write_text(json.dumps(found, ensure_ascii=False, separators=(",", ":")) + "\n")
        if len(found) >= args.count:
            break
    cpu = time.process_time() - started
    print(
        f"{args.game}: {len(found) - resumed} puzzles in {cpu:.0f} CPU s, {(len(found) - resumed) / (cpu / 60):.1f}"
        f" per CPU minute (seed {args.seed}; {len(found)} in all) -> {out}"
    )
    return 0


def checkers(seed: int, first: int = 0) -> Iterator[dict[str, Any]]:
    from bench.puzzles_checkers import endgames

    return endgames(seed, first)


if __name__ == "__main__":
    sys.exit(main())
