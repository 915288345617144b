"""The Dou Dizhu state, its moves, the facts derived from it, and the views of it.

The state keeps every seat's cards (the host stores it privately); what anyone
may see comes out of `view`: the public view (`DdzView`) has card counts, the
cards played and, once the landlord is known, the bottom cards — never a hand.
A seat's view (`DdzPrivateView`) adds that seat's own hand. The AI and the
pictures work from these views only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, overload

from engines.doudizhu.cards import counts_of_cards, rank_of
from engines.doudizhu.rules import BOMB, ROCKET, Combo, classify

SEATS = 3
POINTS, CALL = "points", "call"


@dataclass(frozen=True)
class Move:
    kind: str  # "bid", "call", "pass" or "play"
    bid: int = 0  # 1..3 for "bid"
    ranks: tuple[int, ...] = ()  # the cards of a "play", as sorted ranks


PASS = Move("pass")
CALL_MOVE = Move("call")


@dataclass(frozen=True)
class State:
    mode: str  # POINTS or CALL
    seed: int
    deal: int  # 0 for the first deal, +1 for every redeal after all passed
    hands: tuple[tuple[int, ...], ...]  # card ids per seat, sorted
    bottom: tuple[int, ...]  # the 3 bottom cards (also in the landlord's hand once known)
    first_bidder: int
    bids: tuple[int, ...] = ()  # this deal's bids in order from first_bidder: 0 pass, 1..3 (call mode: 1 = call)
    landlord: int | None = None
    base: int = 0  # the winning bid (call mode: 1)
    plays: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (seat, card ids) in play order; () is a pass


def deal_cards(seed: int, deal: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """The hands, bottom cards and first bidder of deal number `deal` of the game made from `seed`."""
    rng = random.Random(f"doudizhu:{seed}:{deal}")
    deck = list(range(54))
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[17 * i : 17 * (i + 1)])) for i in range(SEATS))
    return hands, tuple(sorted(deck[51:])), rng.randrange(SEATS)


# --- derived facts ------------------------------------------------------------------------


def bidding_over(state: State) -> bool:
    return state.landlord is not None


def highest_bid(state: State) -> int:
    return max(state.bids, default=0)


def trick(state: State) -> tuple[int, tuple[int, ...], Combo] | None:
    """The play to beat (seat, cards, combo), or None when the seat to move leads."""
    if not state.plays:
        return None
    for back, (seat, cards) in enumerate(reversed(state.plays)):
        if cards:
            if back >= SEATS - 1:  # the two others passed: its player leads again
                return None
            combo = classify(counts_of_cards(cards))
            assert combo is not None
            return seat, cards, combo
    return None


def is_bomb(cards: tuple[int, ...]) -> bool:
    """A bomb or the rocket (each doubles the stake)."""
    combo = classify(counts_of_cards(cards))
    return combo is not None and combo.kind in (BOMB, ROCKET)


def bombs_played(state: State) -> int:
    return sum(1 for _, cards in state.plays if cards and is_bomb(cards))


def winner(state: State) -> int | None:
    for seat, hand in enumerate(state.hands):
        if not hand and state.landlord is not None:
            return seat
    return None


def spring(state: State) -> str | None:
    """"spring" (the farmers never played), "anti_spring" (the landlord played once) or None; game over only."""
    out = winner(state)
    if out is None or state.landlord is None:
        return None
    made = [sum(1 for s, cards in state.plays if s == seat and cards) for seat in range(SEATS)]
    if out == state.landlord and all(made[s] == 0 for s in range(SEATS) if s != state.landlord):
        return "spring"
    if out != state.landlord and made[state.landlord] == 1:
        return "anti_spring"
    return None


def multiplier(state: State) -> int:
    return 1 << (bombs_played(state) + (1 if spring(state) else 0))


def seat_to_move(state: State) -> int | None:
    if winner(state) is not None:
        return None
    if state.landlord is None:
        return (state.first_bidder + len(state.bids)) % SEATS
    if not state.plays:
        return state.landlord
    return (state.plays[-1][0] + 1) % SEATS


def settlement(state: State) -> tuple[int, ...] | None:
    """Points per seat once the game is over: the stake is the bid times the multiplier; the landlord
    wins or loses twice the stake, each farmer once. None while the game goes on."""
    out = winner(state)
    if out is None or state.landlord is None:
        return None
    stake = state.base * multiplier(state)
    sign = 1 if out == state.landlord else -1
    return tuple(2 * sign * stake if s == state.landlord else -sign * stake for s in range(SEATS))


# --- views -----------------------------------------------------------------------------------


class TrickView(TypedDict):
    """The play to beat."""

    seat: int
    cards: list[int]
    kind: str  # a play type of `rules.KINDS`
    rank: int  # its main rank (the top rank of a chain)
    chain: int  # chain length (1 for plays that are no chain)


class DdzView(TypedDict):
    """What everyone may see: the public view (`seat` None). Cards are ids 0..53 (`cards`)."""

    mode: str  # POINTS or CALL
    deal: int  # 0 for the first deal, +1 for every redeal
    phase: Literal["bidding", "playing", "over"]
    first_bidder: int
    bids: list[list[int]]  # [seat, bid] in bidding order; 0 is a pass (call mode: 1 is a call)
    bid: int  # the highest bid so far; once bidding is over, the base stake
    landlord: int | None
    bottom: list[int] | None  # shown once the landlord is known
    counts: list[int]  # cards held per seat
    turn: int | None  # the seat to move
    lead: bool  # the seat to move leads (no play to beat)
    trick: TrickView | None
    recent: list[list[int] | None]  # each seat's last action this round: cards, [] a pass, None nothing
    history: list[list[Any]]  # [seat, [card, ...]] for every play in order; [] is a pass
    remaining: list[int]  # per rank (`cards.RANKS`): cards not played yet
    bombs: int  # bombs and rockets played
    spring: str | None  # "spring", "anti_spring" or None
    multiplier: int
    scores: list[int] | None  # the settlement once the game is over
    seat: int | None  # whose view this is
    hands: NotRequired[list[list[int]]]  # every seat's cards, once the game is over (then they are public)


class DdzPrivateView(DdzView):
    """What one seat may see: the public view and its own hand."""

    hand: list[int]
    unseen: list[int]  # per rank: cards neither played nor in this hand (the two others hold them)


@overload
def view(state: State, seat: None) -> DdzView: ...
@overload
def view(state: State, seat: int) -> DdzPrivateView: ...
def view(state: State, seat: int | None) -> DdzView | DdzPrivateView:
    """What `seat` may see (None: the public)."""
    current = trick(state)
    remaining = [4] * 13 + [1, 1]
    for _, cards in state.plays:
        for card in cards:
            remaining[rank_of(card)] -= 1
    recent: list[list[int] | None] = [None] * SEATS
    for s, cards in state.plays[-SEATS:]:
        recent[s] = list(cards)
    to_move = seat_to_move(state)
    over = winner(state) is not None
    scores = settlement(state)
    public = DdzView(
        mode=state.mode,
        deal=state.deal,
        phase="bidding" if not bidding_over(state) else ("over" if over else "playing"),
        first_bidder=state.first_bidder,
        bids=[[(state.first_bidder + i) % SEATS, b] for i, b in enumerate(state.bids)],
        bid=state.base if bidding_over(state) else highest_bid(state),
        landlord=state.landlord,
        bottom=list(state.bottom) if bidding_over(state) else None,
        counts=[len(h) for h in state.hands],
        turn=to_move,
        lead=to_move is not None and bidding_over(state) and current is None,
        trick=None if current is None else TrickView(seat=current[0], cards=list(current[1]), kind=current[2].kind,
                                                     rank=current[2].rank, chain=current[2].chain),
        recent=recent,
        history=[[s, list(cards)] for s, cards in state.plays],
        remaining=remaining,
        bombs=bombs_played(state),
        spring=spring(state),
        multiplier=multiplier(state),
        scores=list(scores) if scores is not None else None,
        seat=seat,
    )
    if over:
        public["hands"] = [list(h) for h in state.hands]
    if seat is None:
        return public
    hand = list(state.hands[seat])
    unseen = [n - c for n, c in zip(remaining, counts_of_cards(hand), strict=True)]
    return DdzPrivateView(**public, hand=hand, unseen=unseen)


__all__ = ["CALL", "CALL_MOVE", "PASS", "POINTS", "SEATS", "DdzPrivateView", "DdzView", "Move", "State", "TrickView",
           "view"]
