"""How a piece may move: steps, jump chains, the goal-entry rule, shortest paths.

A board is a sequence of 121 ints: 0 for an empty hole, seat + 1 for a piece.
`goal` is a sequence of 121 bools, true on the holes of the moving piece's goal
point: a piece standing in its goal point may move only inside it, and a jump
chain that lands in the goal may not land outside it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Refusal
from engines.checkers.board import ADJACENT, JUMPS, LABELS, OVER, STEPS


def reach(board: Sequence[int], start: int, goal: Sequence[bool]) -> dict[int, int]:
    """Every hole the piece on `start` can move to, with the hole it comes from on a shortest path.

    Breadth-first over steps and jumps, so following the parents back from a
    destination gives a path with the fewest hops (ties: the first direction).
    """
    parent: dict[int, int] = {}
    inside = goal[start]
    for n in STEPS[start]:
        if not board[n] and (goal[n] or not inside):
            parent[n] = start
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for h in frontier:
            inside = goal[h]
            for over, land in JUMPS[h]:
                if land in seen or board[land] or not (board[over] and over != start):
                    continue
                if inside and not goal[land]:
                    continue
                seen.add(land)
                parent[land] = h
                nxt.append(land)
        frontier = nxt
    return parent


def path_to(parent: dict[int, int], start: int, to: int) -> tuple[int, ...]:
    path = [to]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return tuple(reversed(path))


def shortest_path(board: Sequence[int], start: int, to: int, goal: Sequence[bool]) -> tuple[int, ...] | None:
    parent = reach(board, start, goal)
    return path_to(parent, start, to) if to in parent else None


def check_path(board: Sequence[int], path: Sequence[int], goal: Sequence[bool]) -> None:
    """Raise a Refusal saying why the explicit `path` (start, landing, ...) is not a legal move."""
    start = path[0]
    visited = {start}
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        la, lb = LABELS[a], LABELS[b]
        if b in visited:
            raise Refusal("checkers.revisit", hole=lb)
        if board[b]:
            raise Refusal("checkers.taken", hole=lb)
        if goal[a] and not goal[b]:
            raise Refusal("checkers.leaves_goal", hole=la)
        if (a, b) in ADJACENT:
            if len(path) > 2:
                raise Refusal("checkers.step_in_chain", start=la, to=lb)
        elif (a, b) in OVER:
            over = OVER[(a, b)]
            if not board[over] or over == start:
                raise Refusal("checkers.nothing_to_jump", start=la, to=lb, over=LABELS[over])
        else:
            raise Refusal("checkers.not_a_hop", start=la, to=lb)
        visited.add(b)
