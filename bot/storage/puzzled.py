"""The contract's puzzle part (`puzzle_contract`) on either database, over the backends' `Tx`
(portable SQL, as `rated` is): attempts, and the ratings of players and puzzles."""

from __future__ import annotations

import contextlib
import json
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from bot.puzzles.rating import rate
from bot.rating_model import Skill
from bot.session import Conflict
from bot.storage.puzzle_contract import OPEN, Attempt, PuzzleSkill, PuzzleStore
from bot.storage.rated import Tx, marks

COLUMNS = "id, channel, user_id, name, puzzle, daily, position, status, aided, rated, version, started_at, finished_at"


def _attempt(row: dict[str, Any]) -> Attempt:
    return Attempt(row["channel"], row["user_id"], row["name"], row["puzzle"], json.loads(row["position"]),
                   row["started_at"], row["daily"], row["status"], bool(row["aided"]), bool(row["rated"]),
                   row["version"], row["finished_at"], row["id"])


def _skill(row: dict[str, Any]) -> PuzzleSkill:
    return PuzzleSkill(Skill(row["mu"], row["sigma"]), row["solved"], row["tried"], row.get("name") or "")


class SQLPuzzles(PuzzleStore):
    @abstractmethod
    def _reading(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _writing(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    async def puzzle_attempt(self, channel: str, user_id: str) -> Attempt | None:
        async with self._reading() as tx:
            rows = await tx.rows(f"SELECT {COLUMNS} FROM puzzle_attempts WHERE channel=? AND user_id=? AND status=?",
                                 channel, user_id, OPEN)
        return _attempt(rows[0]) if rows else None

    async def puzzle_begin(self, attempt: Attempt, prior: Skill) -> Attempt:
        async with self._writing() as tx:
            rows = await tx.rows(
                "INSERT INTO puzzle_attempts (channel, user_id, name, puzzle, daily, position, status, aided, rated,"
                " version, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING RETURNING id",
                attempt.channel, attempt.user_id, attempt.name, attempt.puzzle, attempt.daily,
                json.dumps(attempt.position), OPEN, int(attempt.aided), int(attempt.rated), attempt.started_at,
            )
            if not rows:
                raise Conflict(attempt.channel)
            await tx.run("INSERT INTO puzzle_ratings (puzzle, mu, sigma, solved, tried) VALUES (?, ?, ?, 0, 0)"
                         " ON CONFLICT DO NOTHING", attempt.puzzle, prior.mu, prior.sigma)
        attempt.id, attempt.version, attempt.status = rows[0]["id"], 1, OPEN
        return attempt

    async def puzzle_save(self, attempt: Attempt) -> dict[str, tuple[Skill, Skill]]:
        moved: dict[str, tuple[Skill, Skill]] = {}
        async with self._writing() as tx:
            rows = await tx.rows(
                "UPDATE puzzle_attempts SET position=?, status=?, aided=?, rated=?, version=version + 1,"
                " finished_at=?, name=? WHERE id=? AND version=? AND status=? RETURNING version",
                json.dumps(attempt.position), attempt.status, int(attempt.aided), int(attempt.rated),
                attempt.finished_at, attempt.name, attempt.id, attempt.version, OPEN,
            )
            if not rows:
                raise Conflict(attempt.channel)
            if attempt.status != OPEN and attempt.rated and not attempt.aided:
                moved = await self._rate_attempt(tx, attempt)
        attempt.version = rows[0]["version"]
        return moved

    async def _rate_attempt(self, tx: Tx, attempt: Attempt) -> dict[str, tuple[Skill, Skill]]:
        solved = attempt.status == "solved"
        players = await tx.rows("SELECT mu, sigma, solved, tried FROM puzzle_players WHERE user_id=?", attempt.user_id)
        puzzles = await tx.rows("SELECT mu, sigma, solved, tried FROM puzzle_ratings WHERE puzzle=?", attempt.puzzle)
        player = _skill(players[0]).skill if players else Skill()
        puzzle = _skill(puzzles[0]).skill if puzzles else Skill()
        after_player, after_puzzle = rate(player, puzzle, solved)
        await tx.run(
            "INSERT INTO puzzle_players (user_id, name, mu, sigma, solved, tried) VALUES (?, ?, ?, ?, ?, 1)"
            " ON CONFLICT (user_id) DO UPDATE SET name=excluded.name, mu=excluded.mu, sigma=excluded.sigma,"
            " solved=puzzle_players.solved + excluded.solved, tried=puzzle_players.tried + 1",
            attempt.user_id, attempt.name, after_player.mu, after_player.sigma, int(solved),
        )
        await tx.run(
            "INSERT INTO puzzle_ratings (puzzle, mu, sigma, solved, tried) VALUES (?, ?, ?, ?, 1)"
            " ON CONFLICT (puzzle) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma,"
            " solved=puzzle_ratings.solved + excluded.solved, tried=puzzle_ratings.tried + 1",
            attempt.puzzle, after_puzzle.mu, after_puzzle.sigma, int(solved),
        )
        return {attempt.user_id: (player, after_player), attempt.puzzle: (puzzle, after_puzzle)}

    async def puzzles_tried(self, user_id: str) -> set[str]:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT DISTINCT puzzle FROM puzzle_attempts WHERE user_id=?", user_id)
        return {r["puzzle"] for r in rows}

    async def puzzle_skills(self, puzzles: Sequence[str]) -> dict[str, PuzzleSkill]:
        if not puzzles:
            return {}
        async with self._reading() as tx:
            rows = await tx.rows(f"SELECT puzzle, mu, sigma, solved, tried FROM puzzle_ratings"
                                 f" WHERE puzzle IN ({marks(len(puzzles))})", *puzzles)
        return {r["puzzle"]: _skill(r) for r in rows}

    async def puzzle_player(self, user_id: str) -> PuzzleSkill | None:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT name, mu, sigma, solved, tried FROM puzzle_players WHERE user_id=?", user_id)
        return _skill(rows[0]) if rows else None

    async def puzzle_leaderboard(self, limit: int = 10) -> list[tuple[str, PuzzleSkill]]:
        async with self._reading() as tx:
            rows = await tx.rows("SELECT user_id, name, mu, sigma, solved, tried FROM puzzle_players"
                                 " ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?", limit)
        return [(r["user_id"], _skill(r)) for r in rows]
