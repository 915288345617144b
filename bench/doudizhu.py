"""Dou Dizhu AI figures: strength in duplicate matches, style errors, bidding, work per second, pictures.

    nice -n 10 .venv/bin/python -m bench.doudizhu                   # everything: 1,000 deals a match
    nice -n 10 .venv/bin/python -m bench.doudizhu --deals 40 --levels normal --against rule --bidding 0
    .venv/bin/python -m bench.doudizhu --only render                 # the pictures alone

Matches (duplicate format): every deal (seed 0, 1, ...) is played twice. The
landlord seat of a deal is fixed before play: the seat whose 17 dealt cards have
the highest `hand_strength` takes the bottom cards with a bid of 1 (base stake
1). In copy A the level under test holds the landlord seat and the opponent both
farmer seats; in copy B the same cards are played with the roles swapped. Win
rate = games won by the side under test / all games (2 per deal); points = its
settlement per game (landlord ±2 x multiplier, the farmers together ∓2 x
multiplier), so equal players score 0.5 and 0; `+-95%`: the half width of the
win rate's 95% interval (by deal: its two copies share the cards). Opponents:
`random` (a random legal move), `rule` (the simple rule player of
`engines/doudizhu/players.py`), `power` (a player of another style from the same
module: it leads its longest combinations and answers every enemy play it can)
and the level below.

Style errors of the side under test, counted in its games (per 1,000 games):
- `rocket`: holding both jokers it beats a single with one joker alone (the rocket broken);
- `rocket lead`: it leads the rocket while two or more plays of the rest of its hand could still
  be beaten (a single or so must follow anyway: the rocket only doubles the stake);
- `early bomb`: it plays a bomb or the rocket while two or more plays remain in its hand and
  every enemy holds more than 4 cards.

Bidding: each deal is played three times from the deal, bidding included, by
easy, normal and hard together, each level taking each seat once (the seats
rotate); the deal's first bidder is the game's. Per level: how often it became
the landlord, its mean winning bid, its win rate and points as the landlord,
and its points per game over all games (bidding and play together), each with
its 95% interval (Wilson for the win rate; mean +- 1.96 standard errors for
points, points per game by deal), and hard's points per game minus normal's, by
deal, with its interval. 150 deals (450 games) make each level the bidder in
about 150 games: its win rate as the landlord known to about +-0.08.

Work: every AI move is timed in CPU seconds (`time.process_time`, so a busy
machine does not change the figures) and reports its work (sampled worlds,
playout steps and solver nodes, see `engines/doudizhu/levels.py`); the table prints
work per CPU second, CPU p50 / p95 / max per move, and a digest of every move
played (two runs of the same command print the same digests: the levels are
defined by work, not by the clock). Workers: at most 2 processes, at nice 10.
A line that says FAIL makes the exit status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool

import engines
from engines.base import AIInfo, Limit
from engines.doudizhu import ai
from engines.doudizhu.bidding import hand_strength
from engines.doudizhu.cards import BLACK_JOKER, RED_JOKER, counts_of_cards, counts_of_ranks
from engines.doudizhu.game import DouDizhu
from engines.doudizhu.plan import minus, plan
from engines.doudizhu.players import power_player, random_player, rule_player
from engines.doudizhu.rules import BOMB, ROCKET, SINGLE, classify, has_answer
from engines.doudizhu.state import SEATS, Move, State, deal_cards, trick, view

GAME = DouDizhu()
LEVELS = ("easy", "normal", "hard")
OPPONENTS = ("random", "rule", "power")
# The latency each level keeps to on an idle core (CPU seconds per move, p95 and the slowest move).
LATENCY = {"easy": 0.2, "normal": 0.5, "hard": 1.0}
# Goals of the project's own yardsticks (win rate of the side under test, duplicate format).
GOALS = {("hard", "rule"): 0.80, ("hard", "power"): 0.88, ("normal", "rule"): 0.72, ("hard", "normal"): 0.52,
         ("normal", "easy"): 0.55}
STYLE = ("rocket", "rocket_lead", "early_bomb")
# A style error may be right now and then (a solved endgame): at most this many per 1,000 games.
STYLE_MOST = {"rocket": 5.0, "rocket_lead": 5.0, "early_bomb": 20.0}

Policy = Callable[[State, int, random.Random], tuple[Move, AIInfo]]


def policy(name: str) -> Policy:
    if name == "random":
        return lambda state, seat, rng: (random_player(view(state, seat), rng), AIInfo())
    if name == "rule":
        return lambda state, seat, rng: (rule_player(view(state, seat), rng), AIInfo())
    if name == "power":
        return lambda state, seat, rng: (power_player(view(state, seat), rng), AIInfo())
    # The level's work without its wall-clock ceiling: on a machine this loaded (a worker at nice 10 may get
    # a few per cent of a core) the safety net would cut moves short and make the figures depend on the load.
    limit = Limit(GAME.levels[name].work, math.inf)

    def think(state: State, seat: int, rng: random.Random) -> tuple[Move, AIInfo]:
        result = ai.choose(state, seat, name, limit, rng)
        engines.settle()  # as the bot's AI workers do after each move
        return result.move, result.info

    return think


def fixed_landlord_state(seed: int) -> State:
    """Deal `seed`; the strongest hand bids 1, the others pass."""
    state = GAME.new_state({"mode": "points"}, 3, seed)
    hands, _, _ = deal_cards(seed, 0)
    landlord = max(range(3), key=lambda s: (hand_strength(counts_of_cards(hands[s])), -s))
    return landlord_state(state, landlord)


def landlord_state(state: State, landlord: int) -> State:
    while state.landlord is None:
        seat = GAME.to_move(state)
        assert seat is not None
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, "bid 1" if seat == landlord else "pass"))
    return state


def style_errors(state: State, seat: int, move: Move) -> list[str]:
    """The style errors (see the module's docstring) that `move` of `seat` makes in `state`."""
    if move.kind != "play" or state.landlord is None:
        return []
    hand = counts_of_cards(state.hands[seat])
    played = counts_of_ranks(move.ranks)
    combo = classify(played)
    assert combo is not None
    rest = minus(hand, played)
    left = plan(rest).groups if any(rest) else ()
    current = trick(state)
    errors = []
    both = hand[BLACK_JOKER] and hand[RED_JOKER]
    answer = current is not None and current[2].kind == SINGLE
    if both and answer and combo.kind == SINGLE and combo.rank in (BLACK_JOKER, RED_JOKER):
        errors.append("rocket")
    if current is None and combo.kind == ROCKET:
        seen = view(state, seat)
        unseen = seen["unseen"]
        if sum(1 for g in left if has_answer(unseen, g.combo)) >= 2:
            errors.append("rocket_lead")
    if combo.kind in (BOMB, ROCKET) and len(left) >= 2:
        enemies = [s for s in range(SEATS) if (s == state.landlord) != (seat == state.landlord)]
        if min(len(state.hands[s]) for s in enemies) > 4:
            errors.append("early_bomb")
    return errors


@dataclass
class Tally:
    """What one side's moves in some games add up to."""

    cpu: list[float] = field(default_factory=list)  # CPU seconds per move
    work: int = 0
    style: Counter = field(default_factory=Counter)
    digest: str = ""

    def add(self, other: Tally) -> None:
        self.cpu.extend(other.cpu)
        self.work += other.work
        self.style.update(other.style)


def play(state: State, policies: list[Policy], rng: random.Random, tested: set[int], tally: Tally,
         moves: list[str]) -> State:
    while (seat := GAME.to_move(state)) is not None:
        started = time.process_time()
        move, info = policies[seat](state, seat, rng)
        if seat in tested:
            tally.cpu.append(time.process_time() - started)
            tally.work += info.get("work", 0)
            tally.style.update(style_errors(state, seat, move))
        text = GAME.move_text(state, move)
        moves.append(text)
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    return state


def duplicate(args: tuple[str, str, int]) -> tuple[list[tuple[bool, float]], Tally]:
    """Both copies of one deal: [(won, points) for copy A, copy B] and the tested side's tally."""
    try:
        return _duplicate(*args)
    except Exception as error:  # a worker's exception must reach the parent as plain text
        raise RuntimeError(f"deal {args}: {error!r}") from None


def _duplicate(tested: str, opponent: str, seed: int) -> tuple[list[tuple[bool, float]], Tally]:
    mine, theirs = policy(tested), policy(opponent)
    start = fixed_landlord_state(seed)
    landlord = start.landlord
    assert landlord is not None
    results: list[tuple[bool, float]] = []
    tally = Tally()
    moves: list[str] = []
    for copy in ("A", "B"):
        tested_seats = {landlord} if copy == "A" else {s for s in range(3) if s != landlord}
        policies = [mine if s in tested_seats else theirs for s in range(3)]
        rng = random.Random(seed * 2 + (copy == "B"))
        end = play(start, policies, rng, tested_seats, tally, moves)
        outcome = GAME.outcome(end)
        assert outcome is not None and outcome.scores is not None
        points = sum(outcome.scores[s] for s in tested_seats)
        won = any(outcome.ranks[s] == 1 for s in tested_seats)
        results.append((won, points))
    tally.digest = "/".join(moves)
    return results, tally


def _nice() -> None:
    """Nice 10 (not more: `nice -n 10` around the command and the workers' own call do not add up)."""
    with contextlib.suppress(OSError):
        os.nice(max(0, 10 - os.nice(0)))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def match(tested: str, opponent: str, deals: int, workers: int, first: int = 0) -> dict:
    jobs = [(tested, opponent, seed) for seed in range(first, first + deals)]
    started = time.perf_counter()
    with Pool(workers, initializer=_nice) as pool:
        done = pool.map(duplicate, jobs, chunksize=max(1, deals // (workers * 8)))
    games = [r for results, _ in done for r in results]
    tally = Tally()
    digest = hashlib.sha256()
    for _, t in done:
        tally.add(t)
        digest.update(t.digest.encode())
    return {
        "games": len(games),
        "win": sum(won for won, _ in games) / len(games),
        # the 95% interval of the win rate, by deal (its two copies averaged: they share the cards)
        "win_half": mean_interval([sum(won for won, _ in results) / 2 for results, _ in done])[1],
        "points": sum(p for _, p in games) / len(games),
        "as_landlord": sum(results[0][0] for results, _ in done) / deals,
        "as_farmers": sum(results[1][0] for results, _ in done) / deals,
        "tally": tally,
        "digest": digest.hexdigest()[:10],
        "seconds": time.perf_counter() - started,
    }


# --- bidding -----------------------------------------------------------------------------------


def bidding_deal(seed: int) -> list[dict]:
    """Deal `seed` played three times, easy, normal and hard taking each seat once, bidding included."""
    try:
        return _bidding_deal(seed)
    except Exception as error:
        raise RuntimeError(f"bidding deal {seed}: {error!r}") from None


def _bidding_deal(seed: int) -> list[dict]:
    rows = []
    for rotation in range(3):
        levels = [LEVELS[(s + rotation) % 3] for s in range(3)]
        policies = [policy(level) for level in levels]
        tally = Tally()
        moves: list[str] = []
        end = play(GAME.new_state({"mode": "points"}, 3, seed), policies, random.Random(seed * 3 + rotation),
                   set(), tally, moves)
        outcome = GAME.outcome(end)
        assert outcome is not None and outcome.scores is not None and end.landlord is not None
        rows.append({"levels": levels, "landlord": levels[end.landlord], "bid": end.base, "redeals": end.deal,
                     "landlord_won": outcome.ranks[end.landlord] == 1, "scores": list(outcome.scores),
                     "moves": "/".join(moves)})
    return rows


def bidding(deals: int, workers: int, first: int = 0, rows_file: str | None = None) -> list[tuple[str, bool]]:
    with Pool(workers, initializer=_nice) as pool:
        rows = [r for rs in pool.map(bidding_deal, range(first, first + deals),
                                     chunksize=max(1, deals // (workers * 8)))
                for r in rs]
    if rows_file:  # appended, so that runs over other seeds add up (`--rows-from` reads them all back)
        with open(rows_file, "a") as out:
            out.writelines(json.dumps(r) + "\n" for r in rows)
    return bidding_table(rows, f"{deals} deals (seeds {first}..{first + deals - 1})")


def bidding_table(rows: list[dict], what: str) -> list[tuple[str, bool]]:
    digest = hashlib.sha256("//".join(r["moves"] for r in rows).encode()).hexdigest()[:10]
    print(f"\nBidding: {what} x 3 games (easy, normal and hard bid "
          f"and play together, seats rotated; {sum(r['redeals'] for r in rows)} redeals after all passed); "
          f"digest {digest}")
    print("landlord: share of games it became the landlord; LL win, LL pts: its win rate and points per game "
          "as the landlord (the bidder); pts/game: its points over all games; [95% intervals: Wilson for rates, "
          "mean +- 1.96 standard errors for points, pts/game by deal (its 3 games averaged)]")
    print(f"{'level':8} {'landlord':>9} {'mean bid':>9} {'LL games':>8} {'LL win':>19} {'LL pts':>20} "
          f"{'pts/game':>22}")
    verdicts = []
    per_deal: dict[str, list[float]] = {}
    for level in LEVELS:
        mine = [r for r in rows if r["landlord"] == level]
        share = len(mine) / len(rows)
        wins = sum(r["landlord_won"] for r in mine)
        low, high = wilson(wins, len(mine))
        bid = sum(r["bid"] for r in mine) / max(1, len(mine))
        ll_points = [r["scores"][r["levels"].index(level)] for r in mine]
        ll_mean, ll_half = mean_interval(ll_points)
        per_deal[level] = [sum(r["scores"][r["levels"].index(level)] for r in rows[i : i + 3]) / 3
                           for i in range(0, len(rows), 3)]
        mean, half = mean_interval(per_deal[level])
        print(f"{level:8} {share:>9.3f} {bid:>9.2f} {len(mine):>8} {wins / max(1, len(mine)):>7.3f} "
              f"[{low:.3f},{high:.3f}] {ll_mean:>7.2f} [{ll_mean - ll_half:>5.2f},{ll_mean + ll_half:>5.2f}] "
              f"{mean:>7.3f} [{mean - half:>6.3f},{mean + half:>6.3f}]")
    diff, half = mean_interval([h - n for h, n in zip(per_deal["hard"], per_deal["normal"], strict=True)])
    print(f"hard - normal, points per game by deal: {diff:.3f} [{diff - half:.3f}, {diff + half:.3f}]")
    verdicts.append((f"bidding: hard scores more points per game than normal ({diff:+.3f} per game, 95% interval "
                     f"[{diff - half:.3f}, {diff + half:.3f}])", diff > 0))
    return verdicts


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate of `wins` in `n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, z * math.sqrt(var / len(values))


# --- calibration of the bids ------------------------------------------------------------------


def calibration_deal(seed: int) -> list[tuple[float, bool]]:
    """Each seat of deal `seed` in turn as the landlord, normal against normal: (strength, landlord won)."""
    normal = policy("normal")
    out = []
    hands, _, _ = deal_cards(seed, 0)
    for landlord in range(3):
        start = landlord_state(GAME.new_state({"mode": "points"}, 3, seed), landlord)
        end = play(start, [normal] * 3, random.Random(seed), set(), Tally(), [])
        outcome = GAME.outcome(end)
        assert outcome is not None
        out.append((hand_strength(counts_of_cards(hands[landlord])), outcome.ranks[landlord] == 1))
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


# --- the report ---------------------------------------------------------------------------------


def matches(args: argparse.Namespace, workers: int) -> list[tuple[str, bool]]:
    print(f"Dou Dizhu duplicate matches: {args.deals} deals (seeds {args.seed}..{args.seed + args.deals - 1}) "
          f"x 2 copies per match, {workers} workers; "
          f"load average {os.getloadavg()[0]:.2f}")
    print("copy A: the tested level is the landlord (strongest dealt hand, bid 1); copy B: it plays both farmers;")
    print("style errors per 1,000 games of the tested side; work/s = work units per CPU second; "
          "cpu = CPU ms per move")
    print(f"{'tested':7} {'vs':7} {'games':>5} {'win':>6} {'pts':>6} {'as LL':>6} {'as F':>6} "
          f"{'+-95%':>6} {'rocket':>6} {'r.lead':>6} {'bomb':>6} {'work/s':>8} {'cpu p50':>7} {'p95':>6} {'max':>6} "
          f"{'secs':>5}  digest")
    verdicts: list[tuple[str, bool]] = []
    for level in args.levels.split(","):
        level_tally = Tally()
        for against in args.against.split(","):
            if against == "below":
                below = LEVELS.index(level) - 1
                if below < 0:
                    continue
                against = LEVELS[below]
            r = match(level, against, args.deals, workers, args.seed)
            t: Tally = r["tally"]
            level_tally.add(t)
            per = 1000 / r["games"]
            rate = t.work / sum(t.cpu) if t.work and sum(t.cpu) else 0.0
            print(f"{level:7} {against:7} {r['games']:>5} {r['win']:>6.3f} {r['points']:>6.3f} "
                  f"{r['as_landlord']:>6.3f} {r['as_farmers']:>6.3f} {r['win_half']:>6.3f} "
                  + " ".join(f"{t.style[k] * per:>6.1f}" for k in STYLE)
                  + f" {rate:>8.0f} {_pct(t.cpu, 0.5) * 1000:>7.1f} {_pct(t.cpu, 0.95) * 1000:>6.0f} "
                  f"{max(t.cpu, default=0) * 1000:>6.0f} {r['seconds']:>5.0f}  {r['digest']}", flush=True)
            goal = GOALS.get((level, against))
            if goal is not None:
                verdicts.append((f"{level} vs {against}: win rate {r['win']:.3f} >= {goal}", r["win"] >= goal))
            if level != "easy" and against != "random":
                for k in STYLE:
                    count = t.style[k] * per
                    verdicts.append((f"{level} vs {against}: {k} {count:.1f} per 1,000 games <= {STYLE_MOST[k]}",
                                     count <= STYLE_MOST[k]))
        if level_tally.cpu:
            p95, most = _pct(level_tally.cpu, 0.95), max(level_tally.cpu)
            verdicts.append((f"{level}: CPU per move p95 {p95 * 1000:.0f} ms, max {most * 1000:.0f} ms "
                             f"<= {LATENCY[level] * 1000:.0f} ms", most <= LATENCY[level]))
    return verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000, help="deals per match (default 1000)")
    parser.add_argument("--bidding", type=int, default=None, help="deals of the bidding bench (default: --deals)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the first deal (deals seed, seed + 1, ...)")
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--against", default="random,rule,below")
    parser.add_argument("--only", choices=("matches", "bidding", "render"), default=None)
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--rows", default=None, help="append the bidding games to this file (JSON lines)")
    parser.add_argument("--rows-from", default=None, help="print the bidding table of the games in this file")
    parser.add_argument("--calibrate", type=int, default=0, help="measure bidding: landlord win rate by strength")
    args = parser.parse_args()
    _nice()
    workers = max(1, min(2, args.workers))
    if args.calibrate:
        calibrate(args.calibrate, workers)
        return
    verdicts: list[tuple[str, bool]] = []
    if args.only in (None, "matches"):
        verdicts += matches(args, workers)
    deals = args.deals if args.bidding is None else args.bidding
    if args.rows_from:
        with open(args.rows_from) as saved:
            rows = [json.loads(line) for line in saved if line.strip()]
        verdicts += bidding_table(rows, f"{len(rows) // 3} deals from {args.rows_from}")
    elif args.only in (None, "bidding") and deals:
        verdicts += bidding(deals, workers, args.seed, args.rows)
    if args.only in (None, "render") and not args.no_render:
        from bench.doudizhu_render import figures

        print()
        for line in figures():
            print(line)
            verdicts.append((line, "FAIL" not in line))
    print()
    for text, ok in verdicts:
        if not text.startswith("render"):
            print(f"{'PASS' if ok else 'FAIL'}  {text}")
    sys.stdout.flush()
    sys.exit(0 if all(ok for _, ok in verdicts) else 1)


if __name__ == "__main__":
    main()
