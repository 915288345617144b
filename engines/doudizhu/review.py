"""Dou Dizhu's review. Once the game is over every hand is known, so from `EXACT_CARDS` cards left in
all the exact solver (`solver.py`) decides each position with best play from both sides, within
`SOLVE` positions each: a play that turned a won endgame into a lost one is a mistake, proved, and the
better play is one that keeps the win.

Before that point the chances are an estimate: the play made and the level's best candidates
(`heuristics.ranked_moves`) are each played out `PLAYOUTS` times with the real hands by the fast
policies, with some random plays among theirs, and a play that won `ESTIMATE_LOSS` less often than the
best candidate is called a likely mistake. The bidding is not judged.
"""

from __future__ import annotations

import random

from engines.base import JSON, Limit, msg
from engines.budget import Budget, OutOfWork
from engines.doudizhu.ai import to_move
from engines.doudizhu.cards import Counts, counts_of_cards, counts_of_ranks, take_cards
from engines.doudizhu.game import DouDizhu
from engines.doudizhu.heuristics import ranked_moves
from engines.doudizhu.knowledge import knowledge
from engines.doudizhu.plan import minus, plan
from engines.doudizhu.policies import eager_follow, fast_lead
from engines.doudizhu.rules import Play, all_plays, answers, classify
from engines.doudizhu.solver import Solver, Trick
from engines.doudizhu.state import Move, State, trick, view
from engines.review import Mistake, Record, Review, finish

EXACT_CARDS = 20  # cards left in all from which the solver decides
SOLVE = 40_000  # solver positions a position at most (hard's limit per world)
PLAYOUTS = 24  # playouts of the real hands for each play compared
CONFIRM = 96  # playouts of the play made and the best candidate, for a likely mistake
NOISE = 0.1  # the share of random legal plays in a playout
CANDIDATES = 4  # the level's best candidates played out beside the play made
ESTIMATE_LOSS = 0.25  # a likely mistake: the best candidate won this much more often (in `CONFIRM` playouts)
CEILING = 600.0  # seconds: only for a stalled host (the work is the limit)


def review(record: Record, work: int | None = None) -> Review:
    game = DouDizhu()
    steps = record.replay(game)
    final: State = steps[-1][0]
    landlord = final.landlord if final.landlord is not None else 0
    farmers = tuple(s for s in range(3) if s != landlord)
    rng = random.Random(record.seed)
    solver = Solver(landlord, Budget(Limit(1, CEILING)))
    chances = [0.5] * len(steps)  # the landlord's chance at each point (0.5 while bidding)
    exact = [False] * len(steps)
    mistakes: list[Mistake] = []
    used = 0
    for ply, (state, seat, move) in enumerate(steps):
        if state.landlord is None or move is None or move.kind not in ("play", "pass"):
            if move is None:
                chances[ply], exact[ply] = _end(state), True
            continue
        hands = tuple(counts_of_cards(h) for h in state.hands)
        on = trick(state)
        beat: Trick = None if on is None else (on[2], on[0])
        mine = seat == landlord
        played = _play(move)
        solved = None
        if sum(sum(h) for h in hands) <= EXACT_CARDS:
            solver.budget = budget = Budget(Limit(work or SOLVE, CEILING))
            solved = _solve(solver, (hands[0], hands[1], hands[2]), seat, beat, played)
            used += budget.used
            if len(solver.memo) > 400_000:
                solver.memo.clear()
        if solved is not None:
            before, after, better = solved
            chances[ply], exact[ply] = (1.0 if before else 0.0), True
            chances[ply + 1], exact[ply + 1] = (1.0 if after else 0.0), True
            if before == mine and after != mine and better is not None:
                name = game.move_text(state, to_move(better))
                key = "review.doudizhu_passed_endgame" if played is None else "review.doudizhu_lost_endgame"
                mistakes.append(Mistake(ply, seat, game.move_text(state, move), name, 1.0, True,
                                        msg(key, move=game.move_name(state, move),
                                            better=game.move_name(state, to_move(better)))))
            continue
        rates, spent = _playouts(state, seat, played, rng, PLAYOUTS)
        used += spent
        rate = rates[0][0]
        chances[ply + 1] = rate if mine else 1 - rate
        if not exact[ply] and chances[ply] == 0.5 and ply and steps[ply - 1][2].kind not in ("play", "pass"):
            top = max(r for r, _ in rates)  # the first play: the position is worth the best candidate
            chances[ply] = top if mine else 1 - top
        best_rate, best = max(rates[1:], key=lambda r: r[0], default=rates[0])
        if best_rate - rate < ESTIMATE_LOSS:
            continue
        again, spent = _playouts(state, seat, played, rng, CONFIRM, [best])  # a second look, more playouts
        used += spent
        loss = again[1][0] - again[0][0]
        if loss >= ESTIMATE_LOSS:
            key = "review.doudizhu_estimate_pass" if played is None else "review.doudizhu_estimate"
            said = msg(key, move=game.move_name(state, move),
                       better=game.move_name(state, to_move(best)), played=round(100 * again[0][0]),
                       rate=round(100 * again[1][0]))
            mistakes.append(Mistake(ply, seat, game.move_text(state, move), game.move_text(state, to_move(best)),
                                    loss, False, said))
    series = [(c, 1 - c) for c in chances]
    movers = [seat for _, seat, move in steps if move is not None]
    return finish("doudizhu", ((landlord,), farmers), movers, series, exact, mistakes,
                  lambda m: _open(game, steps[m.ply][0], m), used, record.winners,
                  estimate=not all(exact))


def _play(move: Move) -> Play | None:
    if move.kind == "pass":
        return None
    counts = counts_of_ranks(move.ranks)
    combo = classify(counts)
    assert combo is not None, "a recorded play is a legal play"
    return Play(combo, counts)


def _solve(solver: Solver, hands: tuple[Counts, Counts, Counts], seat: int, beat: Trick,
           played: Play | None) -> tuple[bool, bool, Play | None] | None:
    """Whether the landlord wins before the play and after it, and a play of `seat` that wins for its side
    when the one made does not; None when the positions were too many for the budget."""
    try:
        before = solver.landlord_wins(hands, seat, beat)
        after = solver.after(hands, seat, beat, played)
        better = None
        mine = seat == solver.landlord
        if before == mine and after != mine:
            better = next((p for p in solver.moves(hands[seat], beat) if solver.after(hands, seat, beat, p) == mine),
                          None)
        return before, after, better
    except OutOfWork:
        return None


def _playouts(state: State, seat: int, played: Play | None, rng: random.Random, playouts: int,
              others: list[Play | None] | None = None) -> tuple[list[tuple[float, Play | None]], int]:
    """How often the play made, and each of the level's best candidates, won for the mover's side when the
    real hands are played out `playouts` times each by the fast policies, a random legal play `NOISE` of
    the time (the play made first; `others` instead of the candidates if given), and the moves played out."""
    if others is None:
        others = [p for _, p in ranked_moves(knowledge(view(state, seat))) if p != played][:CANDIDATES]
    candidates = [played, *others]
    hands = [counts_of_cards(h) for h in state.hands]
    on = trick(state)
    beat: Trick = None if on is None else (on[2], on[0])
    mine = seat == state.landlord
    rates, steps = [], 0
    for play in candidates:
        wins = 0
        for _ in range(playouts):
            won, moves = _playout(hands, state.landlord or 0, seat, beat, play, rng)
            wins += won == mine
            steps += moves
        rates.append((wins / playouts, play))
    return rates, steps


def _playout(hands: list[Counts], landlord: int, seat: int, beat: Trick, play: Play | None,
             rng: random.Random) -> tuple[bool, int]:
    """Whether the landlord wins after `seat` makes `play`, every seat then playing the fast policy (an
    enemy's play answered whenever it can be without a bomb), a random legal play `NOISE` of the time."""
    hands = list(hands)
    sizes = [sum(h) for h in hands]
    turn, move, step = seat, play, 0
    while True:
        step += 1
        if move is not None:
            hands[turn] = minus(hands[turn], move.counts)
            sizes[turn] -= move.combo.size
            if not sizes[turn]:
                return turn == landlord, step
            beat = (move.combo, turn)
        turn = (turn + 1) % 3
        if beat is not None and beat[1] == turn:
            beat = None
        hand = hands[turn]
        if rng.random() < NOISE:
            legal: list[Play | None] = list(all_plays(hand)) if beat is None else [*answers(hand, beat[0]), None]
            move = rng.choice(legal)
            continue
        split = plan(hand)
        partner = None if turn == landlord else 3 - turn - landlord
        enemy = sizes[landlord] if partner is not None else min(sizes[s] for s in range(3) if s != landlord)
        if beat is None:
            move = fast_lead(hand, split, enemy, None if partner is None else sizes[partner])
        else:
            owns = partner is not None and beat[1] == partner
            move = eager_follow(hand, split, beat[0], owns, not owns and sizes[beat[1]] <= 4, sizes[turn])


def _end(state: State) -> float:
    """The landlord's chance once the game is over (1 or 0)."""
    out = next((s for s, hand in enumerate(state.hands) if not hand), None)
    return 1.0 if out is not None and out == state.landlord else 0.0


def _open(game: DouDizhu, state: State, mistake: Mistake) -> tuple[JSON, JSON]:
    """The public view before the critical play with every hand open (the game is over), and the cards of
    the play made and of the better one, from the mover's hand."""
    board: dict[str, JSON] = {**game.view(state, None), "hands": [list(h) for h in state.hands]}
    marks = {}
    for key, text in (("played", mistake.played), ("better", mistake.better)):
        move = game.parse_move(state, mistake.seat, text) if text else None
        marks[key] = list(take_cards(state.hands[mistake.seat], move.ranks) or ()) if move else None
    return board, marks



