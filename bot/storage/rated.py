"""Ratings and linked accounts on either database: the contract's `Ratings`, implemented once.

The SQL here reads the same in SQLite and in PostgreSQL (`?` placeholders, which the
PostgreSQL `Tx` numbers; upserts by ON CONFLICT; DELETE ... RETURNING; no text ordered by
the database, whose collations differ), so both backends run this one implementation over
a `Tx` of their own: their connection inside a transaction, their driver's errors, a
savepoint, and a lock held until the transaction ends (a PostgreSQL advisory lock;
SQLite's write transaction is one already, for the whole file).

Whatever changes the ratings (a game rated in `save`, `rate_unrated`, a rebuild, linking)
takes the `RATINGS` lock first and then reads what it builds on, so games finishing at
once in several processes are rated one after the other, each from the ratings the other
left, and each exactly once (`rated_games`' key says so too). Codes typed to link
accounts are counted under a lock of their own, so the throttle holds across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bot import ratings
from bot.ratings import WINDOW, Entry, Played, Rated, Skill
from bot.storage.contract import PLACE, Redeemed, Storage, Throttle

log = logging.getLogger(__name__)
RATINGS, GUESSES = "ratings", "link_guesses"  # the locks
EVERYONE = "*"  # who, in link_guesses, counts every account's wrong codes


class Tx(ABC):
    """One transaction on a backend's connection, in portable SQL with `?` placeholders."""

    errors: tuple[type[BaseException], ...]  # the driver's own (the database failed, not the code)

    @abstractmethod
    async def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]: ...

    @abstractmethod
    async def run(self, sql: str, *params: Any) -> None: ...

    @abstractmethod
    async def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def lock(self, name: str) -> None:
        """Hold `name` against every process until this transaction ends."""

    @abstractmethod
    def savepoint(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """A block undone alone if it raises (the transaction goes on)."""


def marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))


def played_of(session_id: int, rows: list[dict[str, Any]], links: dict[str, str]) -> Played:
    """One game's results rows as the rating scheme reads them."""
    entries = tuple(Entry(links.get(r["user_id"], r["user_id"]), r["rank"], r["role"], r["aided"] is not None)
                    for r in rows)  # fmt: skip
    return Played(session_id, rows[0]["game"], rows[0]["at"], entries)


async def _links(tx: Tx, user_ids: Sequence[str] | None = None) -> dict[str, str]:
    if user_ids is None:
        rows = await tx.rows("SELECT user_id, identity FROM links")
    else:
        rows = await tx.rows(f"SELECT user_id, identity FROM links WHERE user_id IN ({marks(len(user_ids))})",
                             *user_ids)  # fmt: skip
    return {r["user_id"]: r["identity"] for r in rows}


async def _linked(tx: Tx, identity: str) -> list[str]:
    """The accounts linked as `identity`."""
    rows = await tx.rows("SELECT user_id FROM links WHERE identity=? ORDER BY user_id", identity)
    return [r["user_id"] for r in rows]


async def rate_game(tx: Tx, session_id: int) -> Rated | None:
    """Rate a finished game from the ratings as they are now (once: a rated game is left alone)."""
    await tx.lock(RATINGS)
    if await tx.rows("SELECT session_id FROM rated_games WHERE session_id=?", session_id):
        return None
    rows = await tx.rows("SELECT * FROM results WHERE session_id=? ORDER BY seat", session_id)
    if not rows:
        return None
    played = played_of(session_id, rows, await _links(tx, sorted({r["user_id"] for r in rows})))
    recent = await tx.rows("SELECT COUNT(*) AS n FROM rated_games WHERE game=? AND players=? AND at>? AND weight>0",
                           played.game, played.key, played.at - WINDOW)  # fmt: skip
    found = await tx.rows("SELECT player, mu, sigma FROM ratings WHERE game=? AND player IN"
                          f" ({marks(len(played.players))})", played.game, *played.players)  # fmt: skip
    rated = ratings.rate(played, {r["player"]: Skill(r["mu"], r["sigma"]) for r in found}, recent[0]["n"])
    place = await tx.rows("SELECT COALESCE(c.value, s.channel) AS place FROM sessions s LEFT JOIN channel_settings c"
                          " ON c.channel=s.channel AND c.key=? WHERE s.id=?", PLACE, session_id)  # fmt: skip
    await _write(tx, [(played, rated, place[0]["place"] if place else "")])
    return rated


async def rate_finished(tx: Tx, session_id: int) -> None:
    """Rate the game whose results `save` just wrote, in their transaction. If the rating
    itself fails (not the database), that is logged and undone alone: the results stand and
    `rate_unrated` rates the game later."""
    try:
        async with tx.savepoint():
            await rate_game(tx, session_id)
    except tx.errors:
        raise
    except Exception:
        log.exception("rating session %s failed; it is rated when a host starts next", session_id)


async def _write(tx: Tx, games: list[tuple[Played, Rated, str]]) -> None:
    """Save rated games: the new ratings, the games, and each player's change."""
    latest: dict[tuple[str, str], Skill] = {}
    for played, rated, _ in games:
        if rated.weight > 0:
            latest.update({(played.game, p): s for p, s in rated.after.items()})
    await tx.many(
        "INSERT INTO ratings (game, player, mu, sigma) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game, player) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma",
        [(game, player, s.mu, s.sigma) for (game, player), s in latest.items()],
    )
    await tx.many(
        "INSERT INTO rated_games (session_id, game, players, place, weight, at) VALUES (?, ?, ?, ?, ?, ?)",
        [(p.session, p.game, p.key, place, r.weight, p.at) for p, r, place in games],
    )
    await tx.many(
        "INSERT INTO rating_changes (session_id, player, game, rating_from, rating_to, at) VALUES (?, ?, ?, ?, ?, ?)",
        [(p.session, player, p.game, r.before[player].ordinal, r.after[player].ordinal, p.at)
         for p, r, _ in games for player in dict.fromkeys(e.player for e in p.entries)],
    )  # fmt: skip


def _of_games(column: str, games: Sequence[str]) -> str:
    """The SQL condition that `column` is one of `games` (any game when there are none)."""
    return f"{column} IN ({marks(len(games))})" if games else "TRUE"


async def rebuild(tx: Tx, players: Sequence[str] | None = None) -> int:
    """Every rating again from the results (the same fold as `rate_game`, game after game); with
    `players`, only the games (Nim, Gomoku, ...) any of them played: each game's ratings are its own."""
    await tx.lock(RATINGS)
    links = await _links(tx)
    only: list[str] = []  # the games rebuilt (all of them if empty)
    if players is not None:
        found = await tx.rows(f"SELECT DISTINCT game FROM results WHERE user_id IN ({marks(len(players))})", *players)
        only = sorted(r["game"] for r in found)
        if not only:
            return 0
    rows = await tx.rows("SELECT r.*, COALESCE(c.value, s.channel) AS place FROM results r JOIN sessions s"
                         " ON s.id=r.session_id LEFT JOIN channel_settings c ON c.channel=s.channel AND c.key=?"
                         f" WHERE {_of_games('r.game', only)} ORDER BY r.at, r.session_id, r.seat",
                         PLACE, *only)  # fmt: skip
    by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_game[row["session_id"]].append(row)

    def replay() -> list[tuple[Played, Rated, str]]:
        ladder = ratings.Ladder()
        return [(p, ladder.play(p), seats[0]["place"])
                for sid, seats in by_game.items() for p in (played_of(sid, seats, links),)]  # fmt: skip

    games = await asyncio.to_thread(replay)
    for table in ("ratings", "rated_games", "rating_changes"):
        await tx.run(f"DELETE FROM {table} WHERE {_of_games('game', only)}", *only)
    await _write(tx, games)
    return len(games)


class SQLRatings(Storage):
    """`Ratings` for a backend that supplies `Tx`s: `_reading` (no transaction needed) and
    `_writing` (one transaction, committed when the block ends); both raise `StorageUnavailable`
    for the driver's errors."""

    @abstractmethod
    def _reading(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _writing(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    async def _query(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        async with self._reading() as tx:
            return await tx.rows(sql, *params)

    async def rate_unrated(self) -> int:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            rows = await tx.rows(
                "SELECT session_id, MIN(at) AS at FROM results WHERE session_id NOT IN"
                " (SELECT session_id FROM rated_games) GROUP BY session_id ORDER BY at, session_id"
            )
            for row in rows:
                await rate_finished(tx, row["session_id"])
        return len(rows)

    async def rebuild_ratings(self) -> int:
        async with self._writing() as tx:
            return await rebuild(tx)

    async def active_counts(self) -> dict[tuple[str, str], int]:
        rows = await self._query("SELECT status, game, COUNT(*) AS n FROM sessions WHERE status IN ('lobby', 'playing')"
                                 " GROUP BY status, game")  # fmt: skip
        return {(r["status"], r["game"]): r["n"] for r in rows}

    async def rated_counts(self) -> dict[str, int]:
        rows = await self._query("SELECT game, COUNT(*) AS n FROM rated_games GROUP BY game")
        return {r["game"]: r["n"] for r in rows}

    async def skills(self, game: str, players: Sequence[str] | None = None) -> dict[str, Skill]:
        if players is None:
            rows = await self._query("SELECT player, mu, sigma FROM ratings WHERE game=? AND player NOT LIKE ?",
                                    game, ratings.ROLE + "%")  # fmt: skip
        else:
            rows = await self._query("SELECT player, mu, sigma FROM ratings WHERE game=? AND player IN"
                                     f" ({marks(len(players))})", game, *players)  # fmt: skip
        return {r["player"]: Skill(r["mu"], r["sigma"]) for r in rows}

    async def rating_history(self, game: str, player: str, limit: int) -> list[float]:
        rows = await self._query("SELECT rating_to FROM rating_changes WHERE game=? AND player=?"
                                " ORDER BY at DESC, session_id DESC LIMIT ?", game, player, limit)  # fmt: skip
        return [r["rating_to"] for r in reversed(rows)]

    async def game_results(self, game: str) -> list[dict[str, Any]]:
        return await self._query("SELECT user_id, session_id, name, result, score FROM results WHERE game=?"
                                " ORDER BY at, session_id, seat", game)  # fmt: skip

    async def players_at(self, place: str, game: str) -> set[str]:
        rows = await self._query("SELECT DISTINCT r.user_id FROM results r JOIN rated_games g ON"
                                " g.session_id=r.session_id WHERE g.place=? AND g.game=?", place, game)  # fmt: skip
        return {r["user_id"] for r in rows}

    async def results_with_opponents(self, accounts: Sequence[str]) -> list[dict[str, Any]]:
        return await self._query(
            "SELECT r.*, o.user_id AS other, o.name AS other_name FROM results r LEFT JOIN results o"
            f" ON o.session_id=r.session_id AND o.seat<>r.seat WHERE r.user_id IN ({marks(len(accounts))})"
            " ORDER BY r.at, r.session_id, r.seat, o.seat", *accounts,
        )  # fmt: skip

    async def user_by_handle(self, handle: str) -> str | None:
        rows = await self._query("SELECT user_id FROM seats WHERE LOWER(handle)=? AND user_id IS NOT NULL"
                                " ORDER BY session_id DESC LIMIT 1", handle.lower())  # fmt: skip
        return rows[0]["user_id"] if rows else None

    async def identities(self) -> dict[str, str]:
        async with self._reading() as tx:
            return await _links(tx)

    async def issue_code(self, user_id: str, code: str, now: float, expires: float) -> None:
        async with self._writing() as tx:
            await tx.run("DELETE FROM link_codes WHERE user_id=? OR expires<=?", user_id, now)
            await tx.run("INSERT INTO link_codes (code, user_id, expires) VALUES (?, ?, ?)", code, user_id, expires)

    async def redeem_code(self, user_id: str, code: str | None, now: float, throttle: Throttle) -> Redeemed:
        async with self._writing() as tx:
            await tx.lock(GUESSES)  # counted and checked by one process at a time
            counts = await tx.rows("SELECT who, COUNT(*) AS n, MIN(at) AS first FROM link_guesses WHERE at>? AND"
                                   " who IN (?, ?) GROUP BY who", now - throttle.window, user_id, EVERYONE)  # fmt: skip
            limits = {user_id: throttle.per_user, EVERYONE: throttle.everyone}
            wait = max([r["first"] + throttle.window - now for r in counts if r["n"] >= limits[r["who"]]], default=0.0)
            if wait > 0:
                return Redeemed(None, wait)
            taken = await tx.rows("DELETE FROM link_codes WHERE code=? AND expires>? AND user_id<>? RETURNING user_id",
                                  code or "", now, user_id)  # fmt: skip
            if taken:
                return Redeemed(taken[0]["user_id"])
            if await tx.rows("SELECT user_id FROM link_codes WHERE code=? AND expires>?", code or "", now):
                return Redeemed(user_id)  # one's own code: no guess
            await tx.run("DELETE FROM link_guesses WHERE at<=?", now - throttle.window)
            await tx.many("INSERT INTO link_guesses (who, at) VALUES (?, ?)", [(user_id, now), (EVERYONE, now)])
            return Redeemed(None)

    async def link_accounts(self, owner: str, joiner: str, new_identity: str) -> bool:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            found = await _links(tx, [owner, joiner])
            if joiner in found:
                return found[joiner] == found.get(owner)
            identity = found.get(owner) or new_identity
            await tx.many("INSERT INTO links (user_id, identity) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
                          [(owner, identity), (joiner, identity)])  # fmt: skip
            await rebuild(tx, await _linked(tx, identity))
        return True

    async def unlink_account(self, user_id: str) -> bool:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            found = await _links(tx, [user_id])
            if user_id not in found:
                return False
            together = await _linked(tx, found[user_id])
            await tx.run("DELETE FROM links WHERE user_id=?", user_id)
            if len(together) == 2:
                await tx.run("DELETE FROM links WHERE identity=?", found[user_id])
            await rebuild(tx, together)
        return True
