"""Gomoku puzzles: the side to move wins by continuous fours (VCF).

Every answer must keep the win: a five, or a four after whose one block a VCF is still there
(`Searcher.vcf`, which is exact for wins by fours). The defence blocks the four; when a four has
two five points it blocks one and the other wins. A move that is no four is wrong here even if it
might win otherwise: the puzzle says "with fours". `verify` checks that exactly one first move wins
by fours at all, and that no shorter win (an open four, a five) is on the board.
"""

from __future__ import annotations

from engines.base import JSON, Limit, Msg, Translate, msg
from engines.budget import Budget
from engines.gomoku import Gomoku
from engines.gomoku.ai import position_of
from engines.gomoku.board import point_name
from engines.gomoku.levels import LEVELS
from engines.gomoku.position import BIT_F5, Position
from engines.gomoku.search import Searcher
from engines.gomoku.state import Point, State
from engines.puzzles import GOOD, SOLVED, WRONG, Answer, Picture, Puzzles

DEPTH = 14  # fours looked ahead when checking an answer: more than any puzzle needs
WORK = Limit(3_000_000, 120.0)

_GAME = Gomoku()


def searcher(pos: Position) -> Searcher:
    return Searcher(pos, LEVELS["hard"], Budget(WORK))


def wins_after(s: Searcher, attacker: int, point: int, depth: int) -> bool:
    """Whether `attacker` (to move) wins by fours when it plays `point` first."""
    pos = s.pos
    defender = 3 - attacker
    if pos.code[attacker][point] >= BIT_F5:
        return True
    theirs = pos.fives(defender)
    if theirs and point not in theirs:
        return False
    pos.make(point, attacker)
    try:
        blocks = pos.five_near(attacker, point)
        if not blocks:
            return False
        if len(blocks) > 1:
            return True
        block = blocks[0]
        if pos.code[defender][block] >= BIT_F5:
            return False
        if defender == 1 and pos.renju and pos.is_forbidden(block):
            return True
        pos.make(block, defender)
        try:
            return s.vcf(attacker, depth) is not None
        finally:
            pos.unmake()
    finally:
        pos.unmake()


def winning_moves(state: State, depth: int = DEPTH) -> list[Point]:
    """Every first move of the side to move that wins by fours."""
    pos = position_of(state)
    attacker = 1 + state.turn
    s = searcher(pos)
    points = sorted(pos.fours[attacker] | set(pos.fives(3 - attacker)))
    return [Point(*pos.geo.colrow(p)) for p in points if wins_after(s, attacker, p, depth)]


def shortest(state: State, most: int = DEPTH) -> int | None:
    """The fewest fours before the winning one (`Searcher.vcf`'s depth), or None: no VCF within `most`."""
    return vcf_depth(position_of(state), 1 + state.turn, most)


def vcf_depth(pos: Position, attacker: int, most: int) -> int | None:
    """`shortest` on the AI's board (left as it was)."""
    s = searcher(pos)
    if s.vcf(attacker, most) is None:  # none at all (most positions): no need to look depth by depth
        return None
    for depth in range(most + 1):
        if s.vcf(attacker, depth) is not None:
            return depth
    return None


def state_of(position: JSON) -> State:
    return _GAME.from_json(position)


class GomokuPuzzles(Puzzles):
    game = "gomoku"

    def goal(self, puzzle: JSON) -> Msg:
        colour = "black" if len(puzzle["moves"]) % 2 == 0 else "white"
        return msg(f"puzzle.gomoku_goal_{colour}")

    def start(self, puzzle: JSON) -> JSON:
        state = _GAME.new_state({"size": puzzle["size"], "rule": puzzle["rule"]}, 2, 0)
        for name in puzzle["moves"]:
            state = _GAME.apply(state, state.turn, _GAME.parse_move(state, state.turn, name))
        return _GAME.to_json(state)

    def answer(self, puzzle: JSON, position: JSON, text: str) -> Answer:
        state = state_of(position)
        seat = state.turn
        move = _GAME.parse_move(state, seat, text)
        assert isinstance(move, Point)
        after = _GAME.apply(state, seat, move)
        if after.win_line:
            return Answer(SOLVED, _GAME.to_json(after))
        pos = position_of(state)
        attacker = 1 + state.turn
        point = pos.geo.index(move.col, move.row)
        if not wins_after(searcher(pos), attacker, point, DEPTH):
            better = winning_moves(state)
            return Answer(WRONG, position, better=better[0].name if better else None)
        pos.make(point, attacker)
        block = Point(*pos.geo.colrow(pos.five_near(attacker, point)[0]))
        defended = _GAME.apply(after, 1 - seat, block)
        return Answer(GOOD, _GAME.to_json(defended), reply=block.name)

    def solution(self, puzzle: JSON, position: JSON) -> list[str]:
        state = state_of(position)
        pos = position_of(state)
        line = searcher(pos).vcf_line(1 + state.turn, DEPTH)
        return [point_name(*pos.geo.colrow(p)) for p in line]

    def picture(self, puzzle: JSON, position: JSON) -> Picture:
        state = state_of(position)
        mine = len(puzzle["moves"]) % 2
        return Picture("gomoku", dict(_GAME.view(state, None)), 2, (mine,), None if state.over else state.turn)

    def text(self, puzzle: JSON, position: JSON, tr: Translate) -> str:
        state = state_of(position)
        return _GAME.text(_GAME.view(state, None), tr)

    def verify(self, puzzle: JSON) -> bool:
        state = state_of(self.start(puzzle))
        if state.over:
            return False
        pos = position_of(state)
        attacker = 1 + state.turn
        if pos.fives(attacker) or pos.fives(3 - attacker) or pos.flex_points(attacker):
            return False
        return shortest(state) == puzzle["fours"] and len(winning_moves(state)) == 1
