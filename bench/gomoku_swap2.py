"""The swap2 opening: how the AI judges the 26 classical three-stone openings, and bot games with and
without swap2 (who wins: which seat, which colour).

    nice -n 10 .venv/bin/python -m bench.gomoku_swap2 openings
    nice -n 10 .venv/bin/python -m bench.gomoku_swap2 games --level medium --games 10 --seed 1

openings: each opening (black h8, white next to it, the second black stone within two points) with
`opening.score` for white to move, the nodes it took, CPU seconds and nodes per CPU second; `*` marks
the eight of `opening.BALANCED`, the AI's openings as the first player.
games: `--games` games of `--level` against itself from a free opening (seat 0 is black; the first
three stones are one of the 26 openings, picked and turned by the seed, so that the games differ) and
as many with swap2 (the bots place, choose and pick as the AI does). Prints the wins of seat 0 and of
black, the second player's choices, nodes per CPU second, and a digest of every move: the levels are
node budgets and the clock stands still for the searches, so the same seed plays the same games on a
busy machine.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections import Counter

from engines.gomoku import Gomoku, State
from engines.gomoku import opening as op
from engines.gomoku.players import move as player_move

GAME = Gomoku()


def classical() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The 26 three-stone openings: white straight (0, 1) or diagonally (1, 1) next to black's first stone,
    black's second within two points, one of each set of mirror images."""
    seen, out = set(), []
    for white in ((0, 1), (1, 1)):
        keep = [s for s in op.SYMMETRIES if op._turned(white, s) == white]
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                if (dx, dy) in ((0, 0), white):
                    continue
                key = min(op._turned((dx, dy), s) for s in keep)
                if (white, key) not in seen:
                    seen.add((white, key))
                    out.append((white, key))
    return out


def placed(state: State, stones: list[tuple[int, int]]) -> State:
    for col, row in stones:
        seat = GAME.to_move(state)
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, f"{'abcdefghijklmno'[col]}{row + 1}"))
    return state


def openings() -> None:
    balanced = {(w, b) for w, b in op.BALANCED}
    print("opening (white, black offsets)   score   nodes   cpu s   nodes/s")
    for white, black in classical():
        state = placed(GAME.new_state({"opening": "swap2"}, 2, 1), [(7, 7), (7 + white[0], 7 + white[1]),
                                                                     (7 + black[0], 7 + black[1])])
        cpu = time.process_time()
        value, nodes = op.score(state)
        cpu = time.process_time() - cpu
        mark = "*" if (white, black) in balanced else " "
        print(f"{mark} {white!s:8} {black!s:9}  {value:8.0f}  {nodes:6}  {cpu:6.2f}  {nodes / max(cpu, 1e-9):8.0f}")


def games(level: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    digest = hashlib.sha256()
    nodes, cpu = 0, 0.0
    for start in ("free", "swap2"):
        seat0, black, draws, choices = 0, 0, 0, Counter()
        for g in range(count):
            state = GAME.new_state({"opening": start}, 2, g)
            if start == "free":
                white, second = rng.choice(classical())
                sym = rng.choice(op.SYMMETRIES)
                stones = [(0, 0), op._turned(white, sym), op._turned(second, sym)]
                state = placed(state, [(7 + dx, 7 + dy) for dx, dy in stones])
            game_rng = random.Random(rng.randrange(1 << 30))
            while GAME.to_move(state) is not None:
                seat = GAME.to_move(state)
                began = time.process_time()
                if op.phase(state) != "play":
                    result = GAME.ai(state, seat, level, GAME.levels[level], game_rng)
                    if isinstance(result.move, str) or op.phase(state) == "decide":
                        choices[f"{op.phase(state)} {result.move if isinstance(result.move, str) else 'white'}"] += 1
                else:
                    result = player_move(state, state.turn, level, GAME.levels[level], game_rng, clock=lambda: 0.0)
                cpu += time.process_time() - began
                nodes += int(result.info.get("work", 0))
                text = GAME.move_text(state, result.move)
                digest.update(text.encode())
                state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
            outcome = GAME.outcome(state)
            if not outcome.winners:
                draws += 1
                continue
            seat0 += outcome.winners == (0,)
            black += outcome.winners == (op.seat_of(state, 0),)
        decided = count - draws
        print(f"{start:6} {level}: {count} games, seat 0 (the first player) won {seat0}/{decided}, black won "
              f"{black}/{decided}, {draws} drawn; choices {dict(sorted(choices.items()))}")
    print(f"nodes {nodes}, CPU {cpu:.1f} s, {nodes / max(cpu, 1e-9):.0f} nodes per CPU second; "
          f"digest {digest.hexdigest()[:16]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("openings", "games"))
    parser.add_argument("--level", default="medium", choices=tuple(Gomoku.levels))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "openings":
        openings()
    else:
        games(args.level, args.games, args.seed)


if __name__ == "__main__":
    main()
