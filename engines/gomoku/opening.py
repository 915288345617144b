"""The swap2 opening, and the AI's part in it.

Stones always alternate in `State.moves` (black, white, black, ...); what swap2 changes is who places
them and which seat ends up with black:

1. `place3`: the first player (seat 0) places three stones: black, white, black.
2. `decide`: the second player (seat 1) chooses: `black` (they play black; the first player plays white
   and moves now), `white` (they play white and move now: a point typed here is that white stone), or
   `more`:
3. `place2`: the second player places two more stones, a white one and then a black one;
4. `pick`: the first player picks `black` (the second player moves now, as white) or `white` (they
   move now).
5. `play`: ordinary alternation; white moves first after the opening stones.

`State.choices` holds the choices made ("more", then "black"), so the stage, the seat to move and the
seat with black all follow from the stones and the choices.

The AI: as the first player it places one of a few openings that its own search finds close to even,
in one of the eight symmetric ways; as the second player it takes the colour its search favours by a
clear margin, else places two more stones that leave the position as even as it can find; as the
first player picking, it takes the side the search favours.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engines.base import AIInfo, AIResult, Limit
from engines.gomoku.ai import choose, one_ply, position_of
from engines.gomoku.board import BLACK, WHITE
from engines.gomoku.levels import LEVELS
from engines.gomoku.state import Move, Point, State

SWAP2 = "swap2"
PLACE3, DECIDE, PLACE2, PICK, PLAY = "place3", "decide", "place2", "pick", "play"
CHOICES = ("black", "white", "more")
# The words for each choice, after an optional "swap" (交换): `/swap black`, `/move 执黑`.
WORDS = {
    "black": "black", "黑": "black", "黑棋": "black", "执黑": "black", "选黑": "black",
    "white": "white", "白": "white", "白棋": "white", "执白": "white", "选白": "white",
    "more": "more", "two": "more", "+2": "more", "加两子": "more", "再下两子": "more", "两子": "more",
    "加子": "more",
}
SWAP_WORDS = ("swap", "交换")
BLACK_SEAT = {(): None, ("black",): 1, ("white",): 0, ("more",): None, ("more", "black"): 0, ("more", "white"): 1}


def phase(state: State) -> str:
    """The stage of the opening (see the module's doc); `play` once the colours are settled, or at once
    without swap2."""
    if state.opening != SWAP2:
        return PLAY
    n = len(state.moves)
    if not state.choices:
        return PLACE3 if n < 3 else DECIDE
    if state.choices == ("more",):
        return PLACE2 if n < 5 else PICK
    return PLAY


def black_seat(state: State) -> int | None:
    """The seat that plays black: 0 without swap2; None while a swap2 opening has not settled it."""
    if state.opening != SWAP2:
        return 0
    return BLACK_SEAT[state.choices]


def seat_to_move(state: State) -> int:
    """The seat to act now (place a stone or choose), finished or not."""
    stage = phase(state)
    if stage in (PLACE3, PICK):
        return 0
    if stage in (DECIDE, PLACE2):
        return 1
    return seat_of(state, state.turn)


def seat_of(state: State, colour: int) -> int:
    """The seat that plays `colour` (0 black, 1 white); while colours are open, the seat that places it."""
    black = black_seat(state)
    if black is None:
        return 0 if phase(state) == PLACE3 else 1
    return black if colour == 0 else 1 - black


def read_choice(text: str) -> str | None:
    """`swap black`, `black`, `交换 执黑` -> "black"; None when `text` is not a choice."""
    words = text.lower().split()
    if words and words[0] in SWAP_WORDS:
        words = words[1:]
    return WORDS.get(words[0]) if len(words) == 1 else None


# --- the AI ------------------------------------------------------------------------------------

# The openings the AI places as the first player: the offsets (columns right, rows up) of the white
# stone and the second black stone from the first black stone. Chosen among the 26 classical
# three-stone openings (white next to the first stone, straight or diagonally; the second black stone
# within two points of the first) as the eight that `score` finds closest to even for white to move:
# from -123 to -160, where the other 18 score -181 to -258 (black is ahead in all of them; `python -m
# bench.gomoku_swap2 openings` prints the table).
BALANCED: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (-2, 2)), ((0, 1), (-2, 0)), ((1, 1), (-1, 1)), ((1, 1), (-1, -1)),
    ((1, 1), (0, 2)), ((1, 1), (-2, 1)), ((1, 1), (-2, -1)), ((0, 1), (-2, -2)),
)
SYMMETRIES = ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
              (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0))
# The even margin: a side must be this far ahead (in `score`, for white to move) to be worth taking at
# `decide`; nearer to even the second player places two more stones.
MARGIN = 150
# How the AI judges a position in the opening, at every level: the hard search to these depths, each
# within this work (a few hundred to a few thousand nodes in an opening).
DEPTHS = (3, 4)
JUDGE = Limit(6_000, 5.0)
WON = 100_000.0  # the score of a position the search finds won (a five, VCF or VCT)
SPOTS = 10  # black points looked at for the fifth stone


def _turned(offset: tuple[int, int], sym: tuple[int, int, int, int]) -> tuple[int, int]:
    a, b, c, d = sym
    return a * offset[0] + b * offset[1], c * offset[0] + d * offset[1]


def _placements(state: State) -> list[Point]:
    """Where the next opening stone may go so that the stones so far, and it, make a balanced opening."""
    if not state.moves:
        return [Point(state.size // 2, state.size // 2)]
    first = state.moves[0]
    placed = [(p.col - first.col, p.row - first.row) for p in state.moves[1:]]
    found = []
    for opening in BALANCED:
        for sym in SYMMETRIES:
            turned = [_turned(o, sym) for o in opening]
            if turned[: len(placed)] != placed:
                continue
            dx, dy = turned[len(placed)]
            p = Point(first.col + dx, first.row + dy)
            if 0 <= p.col < state.size and 0 <= p.row < state.size and state.at(p) == 0 and p not in found:
                found.append(p)
    return found


def score(state: State) -> tuple[float, int]:
    """How good the position is for the colour to move, and the work spent finding it: the mean of the
    hard level's search scores at two consecutive depths, since a search that ends on the mover's own
    move sees it ahead and one that ends on the reply sees it behind (by about 700 on the openings)."""
    total, work = 0.0, 0
    for depth in DEPTHS:
        result = choose(state, state.turn, replace(LEVELS["hard"], max_depth=depth), JUDGE, random.Random(depth))
        reason = result.info.get("reason")
        total += WON if reason in ("five", "vcf", "vct") else float(result.info.get("score", 0))
        work += int(result.info.get("work", 0))
    return total / len(DEPTHS), work


def move(state: State, level: str, limit: Limit, rng: random.Random) -> AIResult[Move]:
    """The AI's act in the opening: a stone (a Point) or a choice ("black", "white", "more")."""
    stage = phase(state)
    if stage == PLACE3:
        spots = _placements(state)
        if spots:
            return AIResult(rng.choice(spots), AIInfo(work=0, reason="opening"))
        return choose(state, state.turn, level, limit, rng)  # stones not of our list (a hint for a person)
    if stage == DECIDE:
        value, work = score(state)
        if value >= MARGIN:  # white is ahead: take white, and play its stone at once
            result = choose(state, state.turn, level, limit, rng)
            return AIResult(result.move, AIInfo(work=work + int(result.info.get("work", 0)), score=value,
                                                reason="swap2 white"))
        if value <= -MARGIN:
            return AIResult("black", AIInfo(work=work, score=value, reason="swap2 black"))
        return AIResult("more", AIInfo(work=work, score=value, reason="swap2 more"))
    if stage == PLACE2:
        return _even_stone(state, rng)
    # PICK: the side the search favours, white to move.
    value, work = score(state)
    return AIResult("white" if value > 0 else "black", AIInfo(work=work, score=value, reason="swap2 pick"))


def _even_stone(state: State, rng: random.Random) -> AIResult[Point]:
    """One of the two extra stones. The white one: the point the one-ply scorer likes best for white (the
    three stones favour black). The black one: among the points near the stones, the one after which the
    search finds the position closest to even for white to move, since the other player then chooses."""
    pos = position_of(state)
    colour = BLACK if state.turn == 0 else WHITE
    best = Point(*pos.geo.colrow(one_ply(pos, colour, rng)))
    if colour == WHITE:
        return AIResult(best, AIInfo(work=len(pos.cand), reason="swap2 white stone"))
    near = [Point(*pos.geo.colrow(q)) for q in sorted(pos.cand)]
    near = [p for p in near if p != best and _near(state, p)]
    rng.shuffle(near)
    spots = [best, *near[: SPOTS - 1]]
    work, scored = 0, []
    for i, p in enumerate(spots):
        value, spent = score(state.placed(p))
        work += spent
        scored.append((abs(value), i, p))
    _, _, chosen = min(scored)
    return AIResult(chosen, AIInfo(work=work, reason="swap2 even"))


def _near(state: State, p: Point) -> bool:
    return any(abs(p.col - q.col) <= 2 and abs(p.row - q.row) <= 2 for q in state.moves)
