"""One Dou Dizhu bench game printed move by move: every hand at the start, then each move with the hand it was
played from and the work the AI spent on it. The deal, the landlord and the random generator are the bench's
(`bench.doudizhu`): copy A has the tested level as the landlord, copy B as both farmers.

    .venv/bin/python -m bench.doudizhu_game 30037 --level hard --against power --copy B

With `--deals N`: one copy of deals seed .. seed + N - 1 alone (2 workers at nice 10), its wins, CPU per move of
the tested side (p95, max), the deals lost (to print them one by one) and a digest of every move:

    nice -n 10 .venv/bin/python -m bench.doudizhu_game 50000 --deals 150 --copy B
"""

from __future__ import annotations

import argparse
import hashlib
import random
from multiprocessing import Pool

from bench.doudizhu import GAME, Tally, _nice, _pct, fixed_landlord_state, play, policy
from engines.doudizhu.cards import counts_of_cards

NAMES = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "b", "R")


def hand_text(cards: tuple[int, ...]) -> str:
    counts = counts_of_cards(cards)
    return " ".join(NAMES[r] * counts[r] for r in range(len(NAMES)) if counts[r])


def show(seed: int, level: str, against: str, copy: str) -> list[str]:
    state = fixed_landlord_state(seed)
    landlord = state.landlord
    assert landlord is not None
    tested = {landlord} if copy == "A" else {s for s in range(3) if s != landlord}
    policies = [policy(level) if s in tested else policy(against) for s in range(3)]
    rng = random.Random(seed * 2 + (copy == "B"))  # as the bench's copies
    lines = [f"seat {s} {'landlord' if s == landlord else 'farmer  '} {level if s in tested else against:7}: "
             f"{hand_text(state.hands[s])}" for s in range(3)]
    while (seat := GAME.to_move(state)) is not None:
        move, info = policies[seat](state, seat, rng)
        text = GAME.move_text(state, move)
        role = "L" if seat == landlord else "F"
        work = f"work {info['work']}" if "work" in info else ""
        held = hand_text(state.hands[seat])
        lines.append(f"  {seat}{role} [{len(state.hands[seat]):2}] {text:28} | {held:40} {work}")
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    outcome = GAME.outcome(state)
    assert outcome is not None
    won = any(outcome.ranks[s] == 1 for s in tested)
    lines.append(f"{level} ({'landlord' if copy == 'A' else 'farmers'}) {'won' if won else 'lost'}")
    return lines


def one_copy(args: tuple[str, str, int, str]) -> tuple[int, bool, list[float], str]:
    """Copy `copy` of deal `seed` as the bench plays it: (seed, won, CPU seconds per tested move, the moves)."""
    level, against, seed, copy = args
    start = fixed_landlord_state(seed)
    landlord = start.landlord
    assert landlord is not None
    tested = {landlord} if copy == "A" else {s for s in range(3) if s != landlord}
    policies = [policy(level) if s in tested else policy(against) for s in range(3)]
    tally, moves = Tally(), []
    end = play(start, policies, random.Random(seed * 2 + (copy == "B")), tested, tally, moves)
    outcome = GAME.outcome(end)
    assert outcome is not None
    return seed, any(outcome.ranks[s] == 1 for s in tested), tally.cpu, "/".join(moves)


def copies(first: int, deals: int, level: str, against: str, copy: str) -> list[str]:
    with Pool(2, initializer=_nice) as pool:
        done = pool.map(one_copy, [(level, against, s, copy) for s in range(first, first + deals)], chunksize=1)
    cpu = [c for _, _, cpus, _ in done for c in cpus]
    wins = sum(won for _, won, _, _ in done)
    digest = hashlib.sha256("//".join(moves for *_, moves in done).encode()).hexdigest()[:10]
    side = "landlord" if copy == "A" else "farmers"
    return [f"{level} as the {side} vs {against}, deals {first}..{first + deals - 1}: {wins}/{deals} = "
            f"{wins / deals:.3f}; CPU per move p95 {_pct(cpu, 0.95) * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms; "
            f"digest {digest}", "lost: " + " ".join(str(seed) for seed, won, _, _ in done if not won)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed", type=int)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", default="power")
    parser.add_argument("--copy", choices=("A", "B"), default="B")
    parser.add_argument("--deals", type=int, default=0, help="play this many deals' copy (no moves printed)")
    args = parser.parse_args()
    if args.deals:
        _nice()
        print("\n".join(copies(args.seed, args.deals, args.level, args.against, args.copy)))
        return
    print("\n".join(show(args.seed, args.level, args.against, args.copy)))


if __name__ == "__main__":
    main()
