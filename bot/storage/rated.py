"""Ratings and linked accounts on either database: the contract's `Ratings`, implemented once.

The SQL here reads the same in SQLite and in PostgreSQL (`?` placeholders, which the
PostgreSQL `Tx` numbers; upserts by ON CONFLICT; DELETE ... RETURNING; no text ordered by
the database, whose collations differ), so both backends run this one implementation over
a `Tx` of their own: their connection inside a transaction, their driver's errors, a
savepoint, and a lock held until the transaction ends (a PostgreSQL advisory lock;
SQLite's write transaction is one already, for the whole file).

Whatever changes the ratings (a game rated in `save`, `rate_unrated`, re-rating, linking)
takes the `RATINGS` lock first and then reads what it builds on, so games finishing at
once in several processes are rated one after the other, each from the ratings the other
left, and each exactly once (`rated_games`' key says so too). Codes typed to link
accounts are counted under a lock of their own, so the throttle holds across processes.

The ratings of each game (Nim, Gomoku, ...) are kept per epoch: each row of `ratings`,
`rated_games` and `rating_changes` carries one, `rating_epochs.current` says which one
people see (no row: 0), and every reader here reads that one alone. Rating a game's whole
history again (after a link) builds the next epoch beside it, in the background, and then
makes it current at once (`bot.storage.rebuilt`).
"""

from __future__ import annotations

import contextlib
import logging
from abc import ABC, abstractmethod
from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any

from bot import rating_model
from bot.rating_model import WINDOW, Entry, Played, Rated, Skill
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
                    for r in rows)
    return Played(session_id, rows[0]["game"], rows[0]["at"], entries)


async def links_of(tx: Tx, user_ids: Sequence[str] | None = None) -> dict[str, str]:
    if user_ids is None:
        rows = await tx.rows("SELECT user_id, identity FROM links")
    else:
        rows = await tx.rows(f"SELECT user_id, identity FROM links WHERE user_id IN ({marks(len(user_ids))})",
                             *user_ids)
    return {r["user_id"]: r["identity"] for r in rows}


async def linked_as(tx: Tx, identity: str) -> list[str]:
    """The accounts linked as `identity`."""
    rows = await tx.rows("SELECT user_id FROM links WHERE identity=? ORDER BY user_id", identity)
    return [r["user_id"] for r in rows]


def current(column: str = "?") -> str:
    """The SQL of the current epoch of the game `column` names (a placeholder by default)."""
    return f"COALESCE((SELECT e.current FROM rating_epochs e WHERE e.game={column}), 0)"


async def ladder_for(tx: Tx, game: str, epoch: int, games: Sequence[Played]) -> rating_model.Ladder:
    """The fold (`rating_model.Ladder`) as `epoch` of `game` leaves it for rating `games` in order: the
    skills of their players, and the times of their pairings' rated games within `WINDOW`."""
    players, keys = sorted({p for g in games for p in g.players}), sorted({g.key for g in games})
    found = await tx.rows(f"SELECT player, mu, sigma FROM ratings WHERE game=? AND epoch=? AND player IN"
                          f" ({marks(len(players))})", game, epoch, *players)
    recent = await tx.rows("SELECT players, at FROM rated_games WHERE game=? AND epoch=? AND weight>0 AND at>? AND"
                           f" players IN ({marks(len(keys))}) ORDER BY at", game, epoch,
                           min(g.at for g in games) - WINDOW, *keys)
    times: defaultdict[tuple[str, str], deque[float]] = defaultdict(deque)
    for row in recent:
        times[(game, row["players"])].append(row["at"])
    return rating_model.Ladder({(game, r["player"]): Skill(r["mu"], r["sigma"]) for r in found}, times)


async def finished(tx: Tx, session_ids: Sequence[int]) -> list[tuple[Played, str]]:
    """Finished games as the rating scheme reads them (the accounts as linked now), in the order
    they are rated (their time, then their id), each with the place it was played at."""
    if not session_ids:
        return []
    rows = await tx.rows("SELECT r.*, COALESCE(c.value, s.channel) AS place FROM results r JOIN sessions s"
                         " ON s.id=r.session_id LEFT JOIN channel_settings c ON c.channel=s.channel AND c.key=?"
                         f" WHERE r.session_id IN ({marks(len(session_ids))}) ORDER BY r.at, r.session_id, r.seat",
                         PLACE, *session_ids)
    links = await links_of(tx, sorted({r["user_id"] for r in rows}))
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        seats[row["session_id"]].append(row)
    return [(played_of(sid, found, links), found[0]["place"]) for sid, found in seats.items()]


def fold(ladder: rating_model.Ladder, games: Sequence[tuple[Played, str]]) -> list[tuple[Played, Rated, str]]:
    return [(played, ladder.play(played), place) for played, place in games]


async def rate_game(tx: Tx, session_id: int) -> Rated | None:
    """Rate a finished game from the ratings as they are now (once: a rated game is left alone)."""
    await tx.lock(RATINGS)
    games = await finished(tx, [session_id])
    if not games:
        return None
    played = games[0][0]
    epoch = (await tx.rows(f"SELECT {current()} AS epoch", played.game))[0]["epoch"]
    if await tx.rows("SELECT session_id FROM rated_games WHERE session_id=? AND epoch=?", session_id, epoch):
        return None
    rated = fold(await ladder_for(tx, played.game, epoch, [played]), games)
    await write(tx, epoch, rated)
    return rated[0][1]


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


async def write(tx: Tx, epoch: int, games: list[tuple[Played, Rated, str]]) -> None:
    """Save rated games in `epoch`: the new ratings, the games, and each player's change."""
    latest: dict[tuple[str, str], Skill] = {}
    for played, rated, _ in games:
        if rated.weight > 0:
            latest.update({(played.game, p): s for p, s in rated.after.items()})
    await tx.many(
        "INSERT INTO ratings (game, epoch, player, mu, sigma) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game, epoch, player) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma",
        [(game, epoch, player, s.mu, s.sigma) for (game, player), s in latest.items()],
    )
    await tx.many(
        "INSERT INTO rated_games (session_id, epoch, game, players, place, weight, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(p.session, epoch, p.game, p.key, place, r.weight, p.at) for p, r, place in games],
    )
    await tx.many(
        "INSERT INTO rating_changes (session_id, epoch, player, game, rating_from, rating_to, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(p.session, epoch, player, p.game, r.before[player].ordinal, r.after[player].ordinal, p.at)
         for p, r, _ in games for player in dict.fromkeys(e.player for e in p.entries)],
    )


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
                "SELECT session_id, MIN(at) AS at FROM results r WHERE NOT EXISTS (SELECT 1 FROM rated_games g"
                f" WHERE g.session_id=r.session_id AND g.epoch={current('r.game')})"
                " GROUP BY session_id ORDER BY at, session_id"
            )
            for row in rows:
                await rate_finished(tx, row["session_id"])
        return len(rows)

    async def active_counts(self) -> dict[tuple[str, str], int]:
        rows = await self._query("SELECT status, game, COUNT(*) AS n FROM sessions WHERE status IN ('lobby', 'playing')"
                                 " GROUP BY status, game")
        return {(r["status"], r["game"]): r["n"] for r in rows}

    async def rated_counts(self) -> dict[str, int]:
        rows = await self._query(f"SELECT game, COUNT(*) AS n FROM rated_games g WHERE epoch={current('g.game')}"
                                 " GROUP BY game")
        return {r["game"]: r["n"] for r in rows}

    async def skills(self, game: str, players: Sequence[str] | None = None) -> dict[str, Skill]:
        if players is None:
            rows = await self._query(f"SELECT player, mu, sigma FROM ratings WHERE game=? AND epoch={current()} AND"
                                     " player NOT LIKE ?", game, game, rating_model.ROLE + "%")
        else:
            rows = await self._query(f"SELECT player, mu, sigma FROM ratings WHERE game=? AND epoch={current()} AND"
                                     f" player IN ({marks(len(players))})", game, game, *players)
        return {r["player"]: Skill(r["mu"], r["sigma"]) for r in rows}

    async def rating_history(self, game: str, player: str, limit: int) -> list[float]:
        rows = await self._query(f"SELECT rating_to FROM rating_changes WHERE game=? AND epoch={current()} AND player=?"
                                 " ORDER BY at DESC, session_id DESC LIMIT ?", game, game, player, limit)
        return [r["rating_to"] for r in reversed(rows)]

    async def game_results(self, game: str) -> list[dict[str, Any]]:
        return await self._query("SELECT user_id, session_id, name, result, score FROM results WHERE game=?"
                                " ORDER BY at, session_id, seat", game)

    async def players_at(self, place: str, game: str) -> set[str]:
        rows = await self._query("SELECT DISTINCT r.user_id FROM results r JOIN rated_games g ON"
                                 f" g.session_id=r.session_id WHERE g.place=? AND g.game=? AND g.epoch={current()}",
                                 place, game, game)
        return {r["user_id"] for r in rows}

    async def results_with_opponents(self, accounts: Sequence[str]) -> list[dict[str, Any]]:
        return await self._query(
            "SELECT r.*, o.user_id AS other, o.name AS other_name FROM results r LEFT JOIN results o"
            f" ON o.session_id=r.session_id AND o.seat<>r.seat WHERE r.user_id IN ({marks(len(accounts))})"
            " ORDER BY r.at, r.session_id, r.seat, o.seat", *accounts,
        )

    async def user_by_handle(self, handle: str) -> str | None:
        rows = await self._query("SELECT user_id FROM seats WHERE LOWER(handle)=? AND user_id IS NOT NULL"
                                " ORDER BY session_id DESC LIMIT 1", handle.lower())
        return rows[0]["user_id"] if rows else None

    async def identities(self) -> dict[str, str]:
        async with self._reading() as tx:
            return await links_of(tx)

    async def issue_code(self, user_id: str, code: str, now: float, expires: float) -> None:
        async with self._writing() as tx:
            await tx.run("DELETE FROM link_codes WHERE user_id=? OR expires<=?", user_id, now)
            await tx.run("INSERT INTO link_codes (code, user_id, expires) VALUES (?, ?, ?)", code, user_id, expires)

    async def redeem_code(self, user_id: str, code: str | None, now: float, throttle: Throttle) -> Redeemed:
        async with self._writing() as tx:
            await tx.lock(GUESSES)  # counted and checked by one process at a time
            counts = await tx.rows("SELECT who, COUNT(*) AS n, MIN(at) AS first FROM link_guesses WHERE at>? AND"
                                   " who IN (?, ?) GROUP BY who", now - throttle.window, user_id, EVERYONE)
            limits = {user_id: throttle.per_user, EVERYONE: throttle.everyone}
            wait = max([r["first"] + throttle.window - now for r in counts if r["n"] >= limits[r["who"]]], default=0.0)
            if wait > 0:
                return Redeemed(None, wait)
            taken = await tx.rows("DELETE FROM link_codes WHERE code=? AND expires>? AND user_id<>? RETURNING user_id",
                                  code or "", now, user_id)
            if taken:
                return Redeemed(taken[0]["user_id"])
            if await tx.rows("SELECT user_id FROM link_codes WHERE code=? AND expires>?", code or "", now):
                return Redeemed(user_id)  # one's own code: no guess
            await tx.run("DELETE FROM link_guesses WHERE at<=?", now - throttle.window)
            await tx.many("INSERT INTO link_guesses (who, at) VALUES (?, ?)", [(user_id, now), (EVERYONE, now)])
            return Redeemed(None)
