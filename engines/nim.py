"""Nim (拈): take stones from one heap; options `max=K` and `misere`.

Theory used by the perfect player: with at most K stones per move a heap of n
stones is worth n mod (K+1) (its Grundy value), and every move that raises that
value can be reversed, so a position plays like ordinary Nim on the reduced
heaps. In normal play the mover loses iff the XOR of the reduced heaps is 0; in
misère play likewise, except when every reduced heap is 0 or 1, where the mover
loses iff an odd number of them are 1. tests/engines/test_nim.py checks this
against a brute-force game-tree solver on every small position.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from functools import reduce
from operator import xor
from typing import TypedDict

from engines.base import JSON, AIResult, Game, Limit, Msg, Option, Outcome, Refusal, Translate, msg, read_number

# 1 to 10 heaps of 1 to 100 stones: `/nim start 100 max=10` is the classic subtraction game.
MAX_HEAPS, MAX_STONES = 10, 100

# What players type around the two numbers of a move (after the host's NFKC): "heap 2 3",
# "take 3 from heap 2", "第2堆取3颗", "从第二堆拿三个"; a number after "heap", "from", 从 or 第,
# or before 堆, is the heap.
FILLER = re.compile(r"take|from|heap|stones?|[第堆从取拿颗个枚粒走里中]|石子|石头")
HEAP_MARK = re.compile(r"(?:from|heap)\s*(?:heap\s*)?([0-9]+)|[从第]\s*第?\s*([0-9]+)|([0-9]+)\s*堆")
CHINESE_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
CHINESE_NUMBER = re.compile(r"[一二两三四五六七八九十]+")


@dataclass(frozen=True)
class Move:
    heap: int  # 0-based
    count: int


@dataclass(frozen=True)
class State:
    heaps: tuple[int, ...]
    max_take: int | None
    misere: bool
    turn: int  # seat to move (or who would move, once over)
    last: Move | None = None  # the move just made, for the picture (made by 1 - turn)
    start: tuple[int, ...] = ()  # the heaps the game began with


class LastTakeView(TypedDict):
    heap: int  # 0-based
    count: int
    seat: int  # who took


class NimView(TypedDict):
    """What everyone sees (Nim hides nothing)."""

    heaps: list[int]  # stones left per heap
    start: list[int]  # the heaps the game began with
    max: int | None  # the most one may take at once (None: no limit)
    misere: bool  # whoever takes the last stone loses
    last: LastTakeView | None


class Nim(Game[State, Move]):
    name = "nim"
    seat_counts = (2,)
    options = (
        Option("heaps", low=1, high=MAX_STONES, many=MAX_HEAPS, bare=True, refusal="nim.bad_heap_size"),
        Option("max", low=1, high=MAX_STONES, refusal="nim.bad_max"),
        Option("misere", choices=(False, True), default=False,
               spellings={"misere": True, "misère": True, "normal": False, "反常": True, "普通": False}),
    )
    # The perfect player needs no search: one unit of work is one position looked at.
    levels = {"easy": Limit(1_000, 1.0), "medium": Limit(1_000, 1.0), "hard": Limit(1_000, 1.0)}
    default_level = "hard"
    move_words = {"take": ""}
    hint_level = "hard"

    # --- setting up ---------------------------------------------------------------
    def new_state(self, options: dict[str, JSON], seats: int, seed: int) -> State:
        heaps = options.get("heaps")
        if not heaps:
            rng = random.Random(seed)
            heaps = [rng.randint(1, 20) for _ in range(rng.randint(3, 5))]
        return State(tuple(heaps), options.get("max"), bool(options.get("misere")), 0, None, tuple(heaps))

    # --- playing -----------------------------------------------------------------
    def to_move(self, state: State) -> int | None:
        return None if not any(state.heaps) else state.turn

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        """Two numbers, the heap first ("2 3"), unless a word marks the heap ("heap 2", "第2堆",
        "从第二堆取三颗"); Chinese numerals up to 99 are read as numbers."""
        text = CHINESE_NUMBER.sub(_arabic, text.lower())
        found = list(re.finditer(r"[0-9]+", text))
        numbers = [read_number(m[0]) for m in found]
        if len(numbers) != 2 or None in numbers or re.search(r"[^0-9\s,:/x-]", FILLER.sub(" ", text)):
            raise Refusal("nim.how_to_move")
        marked = HEAP_MARK.search(text)
        first = 1 if marked and found[1].start() == marked.start(marked.lastindex or 0) else 0
        given = [n for n in numbers if n is not None]  # all of them (None is refused above)
        heap, count = given[first], given[1 - first]
        move = Move(heap - 1, count)
        self._check(state, move)
        return move

    def _check(self, state: State, move: Move) -> None:
        if not 0 <= move.heap < len(state.heaps):
            raise Refusal("nim.no_such_heap", heap=move.heap + 1, count=len(state.heaps))
        stones = state.heaps[move.heap]
        if stones == 0:
            raise Refusal("nim.heap_empty", heap=move.heap + 1)
        if move.count < 1:
            raise Refusal("nim.take_at_least_one")
        if state.max_take is not None and move.count > state.max_take:
            raise Refusal("nim.over_max", most=state.max_take)
        if move.count > stones:
            raise Refusal("nim.not_enough", heap=move.heap + 1, count=stones)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if self.to_move(state) != seat:
            return []
        limit = state.max_take or MAX_STONES
        return [Move(h, k) for h, n in enumerate(state.heaps) for k in range(1, min(n, limit) + 1)]

    def apply(self, state: State, seat: int, move: Move) -> State:
        heaps = list(state.heaps)
        heaps[move.heap] -= move.count
        return replace(state, heaps=tuple(heaps), turn=1 - seat, last=move)

    def outcome(self, state: State) -> Outcome | None:
        if any(state.heaps):
            return None
        took_last = 1 - state.turn
        winner = 1 - took_last if state.misere else took_last
        reason = msg("nim.misere_end" if state.misere else "nim.normal_end")
        ranks = (1, 2) if winner == 0 else (2, 1)
        return Outcome(ranks, reason)

    def move_text(self, state: State, move: Move) -> str:
        return f"{move.heap + 1} {move.count}"

    def describe(self, state: State, seat: int, move: Move) -> Msg:
        return msg("nim.moved", heap=move.heap + 1, count=move.count)

    # --- showing -----------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> NimView:
        return {
            "heaps": list(state.heaps),
            "start": list(state.start),
            "max": state.max_take,
            "misere": state.misere,
            "last": _last_json(state),
        }

    def text(self, view: NimView, tr: Translate) -> str:
        lines = []
        for i, n in enumerate(view["heaps"]):
            last = view["last"]
            taken = last["count"] if last and last["heap"] == i else 0
            lines.append(f"{i + 1:>2} | {'●' * n}{'○' * taken}  ({n})")
        return "\n".join(lines)

    # --- storing -----------------------------------------------------------------
    def to_json(self, state: State) -> JSON:
        return {**self.view(state, None), "turn": state.turn}

    def from_json(self, data: JSON) -> State:
        last = Move(data["last"]["heap"], data["last"]["count"]) if data.get("last") else None
        return State(tuple(data["heaps"]), data["max"], data["misere"], data["turn"], last, tuple(data["start"]))

    # --- the AI ------------------------------------------------------------------
    def ai(self, state: State, seat: int, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
        moves = self.legal_moves(state, seat)
        winning = [m for m in moves if mover_loses(self.apply(state, seat, m))]
        # How often each level finds the winning move when there is one.
        skill = {"easy": 0.35, "medium": 0.75, "hard": 1.0}[level]
        if winning and (rng.random() < skill or _obvious(state, winning)):
            return AIResult(rng.choice(winning), {"work": len(moves), "reason": "win"})
        return AIResult(_plausible(state, moves, rng), {"work": len(moves)})


def _arabic(m: re.Match[str]) -> str:
    """A Chinese numeral of 1 to 99 ("三", "十二", "二十三") in digits; anything else as it is."""
    run = m[0]
    tens, ten, ones = run.partition("十")
    if not ten:
        return str(CHINESE_DIGITS[run]) if len(run) == 1 else run
    if len(tens) > 1 or len(ones) > 1:
        return run
    return str((CHINESE_DIGITS[tens] if tens else 1) * 10 + (CHINESE_DIGITS[ones] if ones else 0))


def _last_json(state: State) -> LastTakeView | None:
    if state.last is None:
        return None
    return {"heap": state.last.heap, "count": state.last.count, "seat": 1 - state.turn}


def mover_loses(state: State) -> bool:
    """True if the player to move loses against perfect play (see the module docstring)."""
    k = state.max_take
    reduced = [h % (k + 1) if k else h for h in state.heaps]
    if state.misere and all(r <= 1 for r in reduced):
        return sum(reduced) % 2 == 1
    return reduce(xor, reduced, 0) == 0


def _obvious(state: State, winning: list[Move]) -> bool:
    """A win any player sees: one heap left that can be cleared (normal play)."""
    live = [h for h in state.heaps if h]
    return not state.misere and len(live) == 1 and (state.max_take or MAX_STONES) >= live[0]


def _plausible(state: State, moves: list[Move], rng: random.Random) -> Move:
    """A move a person might make: a few stones from a big heap, not always one stone."""
    biggest = max(state.heaps)
    from_big = [m for m in moves if state.heaps[m.heap] >= biggest - 2 and m.count <= 3]
    return rng.choice(from_big or moves)
