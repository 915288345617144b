"""Dou Dizhu AI strength, latency and picture figures.

    nice -n 10 .venv/bin/python -m bench.doudizhu            # everything, 1000 deals per match
    .venv/bin/python -m bench.doudizhu --deals 50 --quick    # a quick look

Duplicate format: every deal (seed i) is played twice. The landlord seat of a
deal is fixed before play: the seat whose 17 dealt cards have the highest
`hand_strength` takes the bottom cards with a bid of 1 (base stake 1); bidding
itself is not part of the match. In copy A the player under test holds the
landlord seat and the opponent both farmer seats; in copy B the same cards are
played with the roles swapped (the opponent is the landlord, the player under
test both farmers). Win rate = games won by the side under test / all games
(2 per deal); points = its settlement per game (landlord: ±2 x multiplier,
farmers together: ∓2 x multiplier), so equal players score 0.5 and 0.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool

from engines.doudizhu import ai
from engines.doudizhu.cards import counts_of_cards
from engines.doudizhu.game import DouDizhu
from engines.doudizhu.players import random_player, rule_player
from engines.doudizhu.state import Move, State, deal_cards, view

GAME = DouDizhu()
Policy = Callable[[State, int, random.Random], Move]
LEVELS = ("easy", "normal", "hard")
OPPONENTS = ("random", "rule")


def policy(name: str) -> tuple[Policy, str | None]:
    if name == "random":
        return (lambda state, seat, rng: random_player(view(state, seat), rng)), None
    if name == "rule":
        return (lambda state, seat, rng: rule_player(view(state, seat), rng)), None
    limit = GAME.levels[name]
    return (lambda state, seat, rng: ai.choose(state, seat, name, limit, rng).move), name


def fixed_landlord_state(seed: int) -> State:
    """Deal `seed`, the strongest hand bids 1, the others pass."""
    state = GAME.new_state({"mode": "points"}, 3, seed)
    hands, _, _ = deal_cards(seed, 0)
    landlord = max(range(3), key=lambda s: (ai.hand_strength(counts_of_cards(hands[s])), -s))
    while state.landlord is None:
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, "bid 1" if seat == landlord else "pass"))
    return state


def play(state: State, policies: list[Policy], rng: random.Random, timed: set[int],
         times: list[float]) -> State:
    while (seat := GAME.to_move(state)) is not None:
        started = time.perf_counter()
        move = policies[seat](state, seat, rng)
        if seat in timed:
            times.append(time.perf_counter() - started)
        text = GAME.move_text(state, move)
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    return state


def duplicate(args: tuple[str, str, int]) -> tuple[list[tuple[bool, float]], list[float]]:
    """Both copies of one deal: [(won, points) for copy A, copy B] and the tested side's move times."""
    try:
        return _duplicate(*args)
    except Exception as error:  # a worker's exception must reach the parent as plain text
        raise RuntimeError(f"deal {args}: {error!r}") from None


def _duplicate(tested: str, opponent: str, seed: int) -> tuple[list[tuple[bool, float]], list[float]]:
    mine, _ = policy(tested)
    theirs, _ = policy(opponent)
    start = fixed_landlord_state(seed)
    landlord = start.landlord
    assert landlord is not None
    results: list[tuple[bool, float]] = []
    times: list[float] = []
    for copy in ("A", "B"):
        tested_seats = {landlord} if copy == "A" else {s for s in range(3) if s != landlord}
        policies = [mine if s in tested_seats else theirs for s in range(3)]
        rng = random.Random(seed * 2 + (copy == "B"))
        end = play(start, policies, rng, tested_seats, times)
        outcome = GAME.outcome(end)
        assert outcome is not None and outcome.scores is not None
        points = sum(outcome.scores[s] for s in tested_seats)
        won = any(outcome.ranks[s] == 1 for s in tested_seats)
        results.append((won, points))
    return results, times


def landlord_state(seed: int, landlord: int) -> State:
    state = GAME.new_state({"mode": "points"}, 3, seed)
    while state.landlord is None:
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, "bid 1" if seat == landlord else "pass"))
    return state


def calibration_deal(seed: int) -> list[tuple[float, bool]]:
    """Each seat of deal `seed` in turn as the landlord, normal against normal: (strength, landlord won)."""
    normal, _ = policy("normal")
    out = []
    hands, _, _ = deal_cards(seed, 0)
    for landlord in range(3):
        end = play(landlord_state(seed, landlord), [normal] * 3, random.Random(seed), set(), [])
        outcome = GAME.outcome(end)
        assert outcome is not None
        out.append((ai.hand_strength(counts_of_cards(hands[landlord])), outcome.ranks[landlord] == 1))
    return out


def calibrate(deals: int, workers: int) -> None:
    with Pool(workers, initializer=_nice) as pool:
        rows = [r for rs in pool.map(calibration_deal, range(100_000, 100_000 + deals)) for r in rs]
    rows.sort()
    print(f"landlord win rate (normal vs normal) by hand_strength of the 17 dealt cards, {len(rows)} games")
    size = max(1, len(rows) // 12)
    for i in range(0, len(rows), size):
        chunk = rows[i : i + size]
        print(f"  strength {chunk[0][0]:7.1f} .. {chunk[-1][0]:7.1f}: {sum(w for _, w in chunk) / len(chunk):.2f}"
              f"  ({len(chunk)} games)")


def _nice() -> None:
    with contextlib.suppress(OSError):
        os.nice(10)


def match(tested: str, opponent: str, deals: int, workers: int) -> dict[str, float]:
    jobs = [(tested, opponent, seed) for seed in range(deals)]
    started = time.perf_counter()
    with Pool(workers, initializer=_nice) as pool:
        done = pool.map(duplicate, jobs, chunksize=max(1, deals // (workers * 8)))
    games = [r for results, _ in done for r in results]
    times = sorted(t for _, ts in done for t in ts)
    wins = sum(won for won, _ in games)
    landlord_wins = sum(results[0][0] for results, _ in done)
    farmer_wins = sum(results[1][0] for results, _ in done)
    return {
        "games": len(games),
        "win": wins / len(games),
        "points": sum(p for _, p in games) / len(games),
        "as_landlord": landlord_wins / deals,
        "as_farmers": farmer_wins / deals,
        "p50": _pct(times, 0.5),
        "p95": _pct(times, 0.95),
        "max": times[-1] if times else 0.0,
        "moves": len(times),
        "seconds": time.perf_counter() - started,
    }


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--against", default="random,rule,below")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--calibrate", type=int, default=0, help="measure bidding: landlord win rate by strength")
    args = parser.parse_args()
    _nice()
    workers = min(2, args.workers)
    if args.calibrate:
        calibrate(args.calibrate, workers)
        return
    print(f"Dou Dizhu duplicate matches: {args.deals} deals x 2 copies per match, {workers} workers; "
          f"load average {os.getloadavg()[0]:.2f}")
    print("copy A: the tested level is the landlord (strongest dealt hand, bid 1); copy B: it plays both farmers")
    header = (f"{'tested':8} {'vs':8} {'games':>6} {'win':>6} {'pts/game':>9} {'as LL':>6} {'as F':>6} "
              f"{'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'secs':>7}")
    print(header)
    hard_p95 = None
    for level in args.levels.split(","):
        for against in args.against.split(","):
            if against == "below":
                below = LEVELS.index(level) - 1
                if below < 0:
                    continue
                against = LEVELS[below]
            r = match(level, against, args.deals, workers)
            print(f"{level:8} {against:8} {r['games']:>6} {r['win']:>6.3f} {r['points']:>9.3f} "
                  f"{r['as_landlord']:>6.3f} {r['as_farmers']:>6.3f} {r['p50'] * 1000:>8.1f} "
                  f"{r['p95'] * 1000:>8.1f} {r['max'] * 1000:>8.1f} {r['seconds']:>7.0f}", flush=True)
            if level == "hard" and against == "rule":
                print(f"  hard vs rule win rate >= 0.70: {'PASS' if r['win'] >= 0.70 else 'FAIL'}", flush=True)
            if level == "hard":
                hard_p95 = max(hard_p95 or 0.0, r["p95"])
    if hard_p95 is not None:
        print(f"hard p95 latency {hard_p95 * 1000:.0f} ms <= 1000 ms: {'PASS' if hard_p95 <= 1.0 else 'FAIL'}")
    if not args.no_render:
        render_figures()
    sys.stdout.flush()


def render_figures() -> None:
    from bench.doudizhu_render import figures

    for line in figures():
        print(line)


if __name__ == "__main__":
    main()
