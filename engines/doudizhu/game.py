"""Dou Dizhu (斗地主): one deck, three seats, bidding, a landlord against two farmers.

The rules a player meets: reading what people type (`parse_move`, the one judge
of what is legal), playing it (`apply`), the settlement (`outcome`), the
sentences that announce moves, and the text board. The state and the views are
in `state`, the play types in `rules`, the AI in `ai`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import cast

from engines.base import (
    JSON,
    AIResult,
    Game,
    Limit,
    Msg,
    OpenRefusal,
    Option,
    Outcome,
    Refusal,
    Translate,
    msg,
    read_number,
)
from engines.doudizhu import ai
from engines.doudizhu.cards import (
    JACK,
    LABELS,
    card_label,
    counts_of_cards,
    counts_of_ranks,
    parse_ranks,
    rank_of,
    ranks_of_counts,
    ranks_text,
    take_cards,
)
from engines.doudizhu.levels import LEVELS
from engines.doudizhu.rules import (
    BOMB,
    CHAINS,
    PLANE1,
    PLANE2,
    ROCKET,
    Combo,
    all_plays,
    answers,
    beats,
    classify,
)
from engines.doudizhu.state import (
    CALL,
    CALL_MOVE,
    PASS,
    POINTS,
    SEATS,
    DdzPrivateView,
    DdzView,
    Move,
    State,
    bidding_over,
    deal_cards,
    highest_bid,
    multiplier,
    seat_to_move,
    settlement,
    spring,
    trick,
    view,
)

MODES = {POINTS: POINTS, CALL: CALL, "bid": POINTS, "叫分": POINTS, "叫地主": CALL}
# What players type, in English and in Chinese (after the host's NFKC: full-width letters and digits
# arrive as ASCII). Cards are read by `cards.parse_ranks`.
PASS_WORDS = {"pass", "p", "no", "不要", "不出", "要不起", "过", "不叫", "不抢"}
CALL_WORDS = {"call", "叫", "叫地主", "抢地主", "landlord"}
# A bid: `bid 2`, `2`, `2分`, `叫2分`, `二分`.
BID = re.compile(r"(?P<word>bid|叫)? ?(?P<number>[0-9]+|[一二两三]) ?(?P<points>分)?")
BID_NUMBERS = {"一": 1, "二": 2, "两": 2, "三": 3}


def combo_msg(combo: Combo) -> Msg:
    """The play named for people: "a pair of 9s", "a straight from 5 to 9", "the rocket"."""
    kind = combo.kind
    if kind in CHAINS or kind in (PLANE1, PLANE2):
        return msg(f"doudizhu.combo_{kind}", low=LABELS[combo.rank - combo.chain + 1], high=LABELS[combo.rank])
    return msg(f"doudizhu.combo_{kind}", rank=rank_msg(combo.rank), ranks=ranks_msg(combo.rank))


def rank_msg(rank: int) -> Msg | str:
    """A rank named in a sentence: "7", "jack", "black joker"."""
    return msg("doudizhu.rank_" + LABELS[rank]) if rank >= JACK else LABELS[rank]


def ranks_msg(rank: int) -> Msg:
    return msg("doudizhu.ranks_" + LABELS[rank])


ORDINAL_KEYS = ("doudizhu.no_card", "doudizhu.no_second", "doudizhu.no_third", "doudizhu.no_fourth")


class DouDizhu(Game[State, Move]):
    name = "doudizhu"
    aliases = ("ddz",)
    seat_counts = (3,)
    options = (Option("mode", choices=(POINTS, CALL), default=POINTS, keys=("bidding",),
                      spellings={k: v for k, v in MODES.items() if k not in (POINTS, CALL)}),)
    levels = {name: level.limit for name, level in LEVELS.items()}  # see levels.py
    default_level = "normal"
    # Undo is not offered: taking back a play after the others have shown their answers
    # (and the cards they still hold) would let people search for the best line with
    # knowledge of hidden cards. Restart (everyone agrees) is harmless.
    offers = frozenset({"restart"})
    hidden_hands = True
    hint_level = "normal"
    move_words = {"bid": "bid", "pass": "pass", "call": "call", "play": ""}

    # --- setting up ---------------------------------------------------------------
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        if seats != SEATS:
            raise Refusal("doudizhu.three_players")
        mode = MODES.get(str(options.get("mode", POINTS)), POINTS)
        hands, bottom, first = deal_cards(seed, 0)
        return State(mode, seed, 0, hands, bottom, first)

    # --- playing -----------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return seat_to_move(state)

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        words = " ".join(text.lower().split())
        if not bidding_over(state):
            move = self._read_bid(state, words)
        elif words in PASS_WORDS:
            move = PASS
        elif words in CALL_WORDS or ((bid := BID.fullmatch(words)) and (bid["word"] or bid["points"])):
            raise OpenRefusal("doudizhu.bidding_over")
        else:
            ranks = parse_ranks(text)
            if ranks is None:
                raise OpenRefusal("doudizhu.unreadable", text=text.strip())
            move = Move("play", ranks=ranks)
        self._check(state, seat, move)
        return move

    def _read_bid(self, state: State, words: str) -> Move:
        if words in PASS_WORDS:
            return PASS
        bid = BID.fullmatch(words)
        if state.mode == CALL:
            if words in CALL_WORDS:
                return CALL_MOVE
            if bid is None and parse_ranks(words) is not None:
                raise OpenRefusal("doudizhu.still_bidding")
            raise OpenRefusal("doudizhu.call_how")
        if bid is not None:
            number = BID_NUMBERS.get(bid["number"]) or read_number(bid["number"])
            if number is not None:
                return Move("bid", bid=number)
        if parse_ranks(words) is not None:
            raise OpenRefusal("doudizhu.still_bidding")
        raise OpenRefusal("doudizhu.bid_how", least=highest_bid(state) + 1)

    def _check(self, state: State, seat: int, move: Move) -> None:
        """Refuse `move` of `seat` (the seat to move) unless the rules allow it."""
        if not bidding_over(state):
            if move.kind == "play":
                raise OpenRefusal("doudizhu.still_bidding")
            if move.kind == "call" and state.mode != CALL:
                raise OpenRefusal("doudizhu.bid_how", least=highest_bid(state) + 1)
            if move.kind == "bid":
                if state.mode == CALL:
                    raise OpenRefusal("doudizhu.call_how")
                if not 1 <= move.bid <= 3:
                    raise OpenRefusal("doudizhu.bad_bid")
                if move.bid <= highest_bid(state):
                    raise OpenRefusal("doudizhu.bid_higher", bid=highest_bid(state))
            return
        if move.kind in ("bid", "call"):
            raise OpenRefusal("doudizhu.bidding_over")
        current = trick(state)
        if move.kind == "pass":
            if current is None:
                raise OpenRefusal("doudizhu.must_lead")
            return
        hand = counts_of_cards(state.hands[seat])
        wanted = counts_of_ranks(move.ranks)
        for rank, need in enumerate(wanted):
            if need > hand[rank]:
                raise Refusal(ORDINAL_KEYS[min(hand[rank], 3)], rank=rank_msg(rank))
        combo = classify(wanted)
        if combo is None:
            raise Refusal("doudizhu.not_a_play")
        if current is not None:
            previous = current[2]
            if beats(combo, previous):
                return
            if previous.kind == ROCKET:
                raise Refusal("doudizhu.rocket_on_table")
            if (combo.kind == previous.kind and combo.size == previous.size) or combo.kind == BOMB:
                raise Refusal("doudizhu.does_not_beat", play=combo_msg(combo), previous=combo_msg(previous))
            if previous.kind == BOMB:
                raise Refusal("doudizhu.bomb_on_table", play=combo_msg(combo), previous=combo_msg(previous))
            raise Refusal(
                "doudizhu.wrong_kind",
                play=combo_msg(combo),
                previous=combo_msg(previous),
                kind=msg(f"doudizhu.kind_{previous.kind}"),
                count=previous.size if previous.kind in CHAINS or previous.kind in (PLANE1, PLANE2) else 1,
            )

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if self.to_move(state) != seat:
            return []
        if not bidding_over(state):
            if state.mode == CALL:
                return [CALL_MOVE, PASS]
            return [Move("bid", bid=b) for b in range(highest_bid(state) + 1, 4)] + [PASS]
        hand = counts_of_cards(state.hands[seat])
        current = trick(state)
        plays = all_plays(hand) if current is None else answers(hand, current[2])
        moves = [Move("play", ranks=ranks_of_counts(p.counts)) for p in plays]
        return moves if current is None else [PASS, *moves]

    def apply(self, state: State, seat: int, move: Move) -> State:
        if not bidding_over(state):
            return self._after_bid(state, move)
        if move.kind == "pass":
            return replace(state, plays=(*state.plays, (seat, ())))
        cards = take_cards(state.hands[seat], move.ranks)
        assert cards is not None
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c not in cards)
        return replace(state, hands=tuple(hands), plays=(*state.plays, (seat, cards)))

    def _after_bid(self, state: State, move: Move) -> State:
        value = 0 if move.kind == "pass" else move.bid if move.kind == "bid" else 1
        bids = (*state.bids, value)
        landlord: int | None = None
        if state.mode == CALL and value:
            landlord = len(bids) - 1
        elif state.mode == POINTS and (value == 3 or (len(bids) == SEATS and max(bids))):
            landlord = max(range(len(bids)), key=lambda i: bids[i])
        if landlord is not None:
            seat = (state.first_bidder + landlord) % SEATS
            hands = list(state.hands)
            hands[seat] = tuple(sorted(hands[seat] + state.bottom))
            return replace(state, bids=bids, landlord=seat, base=bids[landlord], hands=tuple(hands))
        if len(bids) == SEATS:  # everyone passed: deal again
            hands_, bottom, first = deal_cards(state.seed, state.deal + 1)
            return replace(state, deal=state.deal + 1, hands=hands_, bottom=bottom, first_bidder=first, bids=())
        return replace(state, bids=bids)

    def outcome(self, state: State) -> Outcome | None:
        scores = settlement(state)
        if scores is None or state.landlord is None:
            return None
        landlord_won = scores[state.landlord] > 0
        ranks = tuple(1 if (s == state.landlord) == landlord_won else 2 for s in range(SEATS))
        kind = spring(state) or "plain"
        side = "landlord" if landlord_won else "farmers"
        return Outcome(ranks, msg(f"doudizhu.end_{side}_{kind}", base=state.base, multiplier=multiplier(state),
                                  stake=state.base * multiplier(state)), scores)

    def forfeit(self, state: State, seats: int, seat: int, reason: Msg) -> Outcome:
        """Whoever leaves pays the stake so far (the bid, at least 1, times the bombs' doubling)
        to each of the two others, so the partner of a farmer who resigns loses nothing."""
        stake = max(state.base, highest_bid(state), 1) * multiplier(state)
        scores = tuple(-2 * stake if s == seat else stake for s in range(SEATS))
        return Outcome(tuple(SEATS if s == seat else 1 for s in range(SEATS)), reason, scores)

    def roles(self, state: State) -> tuple[str, ...] | None:
        """The landlord and the two farmers, once the bidding has made a landlord."""
        if state.landlord is None:
            return None
        return tuple("landlord" if s == state.landlord else "farmer" for s in range(SEATS))

    def move_text(self, state: State, move: Move) -> str:
        if move.kind == "bid":
            return f"bid {move.bid}"
        if move.kind == "play":
            return ranks_text(move.ranks)
        return move.kind

    def move_name(self, state: State, move: Move) -> Msg | str:
        if move.kind == "bid":
            return msg("doudizhu.move_bid", bid=move.bid)
        if move.kind == "pass":
            return msg("doudizhu.move_pass" if bidding_over(state) else "doudizhu.move_no_bid")
        return msg("doudizhu.move_call") if move.kind == "call" else self.move_text(state, move)

    def describe(self, state: State, seat: int, move: Move) -> Msg:
        if move.kind == "play":
            combo = classify(counts_of_ranks(move.ranks))
            assert combo is not None
            out = len(move.ranks) == len(state.hands[seat])
            return msg("doudizhu.played_out" if out else "doudizhu.played", play=combo_msg(combo))
        if bidding_over(state):
            return msg("doudizhu.passed")
        after = self._after_bid(state, move)
        if after.deal != state.deal:
            return msg("doudizhu.all_passed")
        became = after.landlord is not None
        if move.kind == "pass":
            return msg("doudizhu.bid_pass_over" if became else "doudizhu.bid_pass")
        if move.kind == "call":
            return msg("doudizhu.called")
        return msg("doudizhu.bid_landlord" if after.landlord == seat else "doudizhu.bid", bid=move.bid)

    def quick_moves(self, state: State, seat: int) -> list[tuple[Msg, str]]:
        if self.to_move(state) != seat:
            return []
        if not bidding_over(state):
            if state.mode == CALL:
                return [(msg("doudizhu.button_call"), "call"), (msg("doudizhu.button_no_bid"), "pass")]
            bids = [(msg("doudizhu.button_bid", bid=b), f"bid {b}") for b in range(highest_bid(state) + 1, 4)]
            return [*bids, (msg("doudizhu.button_no_bid"), "pass")]
        if trick(state) is not None:
            return [(msg("doudizhu.button_pass"), "pass")]
        return []

    # --- showing -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> DdzView | DdzPrivateView:
        return view(state, seat)

    def text(self, view: DdzView, tr: Translate) -> str:
        """The bottom cards, bid and multiplier; a line per seat (its role, cards left and last action);
        in a seat's view its hand, on a line that begins with the catalog's `hand_line`; once the game is
        over, what each seat still held under its line."""
        bottom = " ".join(card_text(c, tr) for c in view["bottom"]) if view["bottom"] else "? ? ?"
        if view["phase"] == "bidding" and view["mode"] == POINTS:
            stake = tr(msg("doudizhu.label_bid", bid=view["bid"]))
        else:  # in call mode the stake is 1 from the start
            stake = tr(msg("doudizhu.label_stake", bid=max(1, view["bid"])))
        lines = [f"[{bottom}]  {stake}  {tr(msg('doudizhu.label_multiplier', multiplier=view['multiplier']))}"]
        roles = (tr(msg("doudizhu.landlord")), tr(msg("doudizhu.farmer")))
        width = max(len(r) for r in roles)
        for seat in range(SEATS):
            badge = "" if view["landlord"] is None else roles[0] if view["landlord"] == seat else roles[1]
            mark = "▶" if view["turn"] == seat else " "
            last = view["recent"][seat]
            shown = "" if last is None else (tr(msg("doudizhu.label_pass")) if not last else cards_text(last, tr))
            if view["phase"] == "bidding":
                said = [b for s, b in view["bids"] if s == seat]
                shown = "" if not said else tr(
                    msg("doudizhu.label_no_bid") if not said[0]
                    else msg("doudizhu.label_call") if view["mode"] == CALL else msg("doudizhu.label_bid", bid=said[0]))
            lines.append(f"{mark}{seat + 1} {badge.ljust(width)} [{view['counts'][seat]:2}]  {shown}".rstrip())
            if view.get("hands") and view["hands"][seat]:  # the game is over: the hands are open
                lines.append(f"  {' ' * width}  {cards_text(view['hands'][seat], tr)}")
        hand = cast(DdzPrivateView, view).get("hand")  # a seat's own view holds its hand
        if hand is not None:
            lines.append(hand_line(hand, tr))
        return "\n".join(lines)

    def private_lines(self, state: State, seat: int, tr: Translate) -> list[str]:
        return [hand_line(state.hands[seat], tr)]

    # --- storing -----------------------------------------------------------------
    def to_json(self, state: State) -> JSON:
        return {
            "mode": state.mode,
            "seed": state.seed,
            "deal": state.deal,
            "hands": [list(h) for h in state.hands],
            "bottom": list(state.bottom),
            "first_bidder": state.first_bidder,
            "bids": list(state.bids),
            "landlord": state.landlord,
            "base": state.base,
            "plays": [[s, list(cards)] for s, cards in state.plays],
        }

    def from_json(self, data: JSON) -> State:
        return State(
            data["mode"],
            data["seed"],
            data["deal"],
            tuple(tuple(h) for h in data["hands"]),
            tuple(data["bottom"]),
            data["first_bidder"],
            tuple(data["bids"]),
            data["landlord"],
            data["base"],
            tuple((s, tuple(cards)) for s, cards in data["plays"]),
        )

    # --- the AI ------------------------------------------------------------------
    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
        return ai.choose(state, seat, level, limit, rng)


def card_text(card: int, tr: Translate) -> str:
    """`10♥`, `A♠`; the jokers in the reader's language (`BJ`, `小王`)."""
    if card >= 52:
        return tr(msg("doudizhu.card_" + LABELS[rank_of(card)]))
    return card_label(card)


def cards_text(cards: Iterable[int], tr: Translate) -> str:
    """Cards low to high, as `card_text` writes them."""
    return " ".join(card_text(c, tr) for c in sorted(cards, key=lambda c: (rank_of(c), c)))


def hand_line(hand: Iterable[int], tr: Translate) -> str:
    """A seat's hand on its line; an empty one (the seat went out) said in words."""
    cards = cards_text(hand, tr)
    return tr(msg("doudizhu.hand_line", cards=cards or tr(msg("doudizhu.hand_empty"))))


__all__ = ["CALL", "PASS", "POINTS", "DouDizhu", "Move", "State"]
