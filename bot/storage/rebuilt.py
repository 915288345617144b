"""Rating a game's whole history again, off the commands' path, on either database: after
`/link` and `/unlink`, and for `gamehost --rebuild-ratings` (the contract's `rerate`).

Linking changes who played which game, and each game's ratings build on every game before it,
so all the games of each game the accounts played (Nim, Gomoku, ...) are rated again, the
accounts as one player; each game's ratings are its own, the others are left as they are. The
command only writes the links and asks for it: `rating_epochs.building`, the next epoch of that
game's ratings (asked again while one is built, it starts over: the links changed). Background
work (`bot.rating_store.Rerater`, in whichever process claims the row with a lease, as timers are
claimed) builds it in chunks of `CHUNK` games in the order they ended: each chunk is read
outside any write transaction, rated, and written in a short transaction that first checks the
row still expects it (the same epoch, the same last game, the claimer's lease), so a chunk that
lost its claim or its links writes nothing. It is the fold `rate_game` uses, from what the
chunks before it wrote, so the numbers are the ones a rebuild from scratch gives. Games that
end meanwhile are rated in the current epoch as always, and the build reaches them in turn.
When none is left, one transaction under the ratings' lock (no game is rated meanwhile) rates
what ended since the last chunk and makes the new epoch current; the other epochs' rows are
then deleted, `SWEEP` rows at a time. After each step the worker rests as long as the step
took (`paced`), so the channels' commands always find the database free half the time.

Until then people see the current epoch (the ratings from before the link, with the games
ended since); `rerating` names the games being rated again, and /leaderboard and /stats say
so. A rebuild from scratch is the same work asked for every game at once.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.rated import (
    RATINGS,
    SQLRatings,
    Tx,
    finished,
    fold,
    ladder_for,
    linked_as,
    links_of,
    marks,
    write,
)

CHUNK = 50  # games a chunk: about 3 ms of CPU each to read, to rate and to write them (SQLite)
REST = 1.0  # after each step, a rest this many times as long as it took: the commands come first
SWEEP = 500  # rows of other epochs deleted a transaction, from each table
LATE = 300.0  # seconds: games committed after the build passed their end, still caught at its last step
LEASE = 5.0  # seconds `rebuild_ratings` holds a game's build without renewing it
START = (-1.0, -1)  # `after` before the first game


@dataclass(frozen=True)
class Build:
    """A game's `rating_epochs` row as claimed: what the claimer's next step must find unchanged."""

    game: str
    current: int
    building: int | None
    after: tuple[float, int]  # the last game rated into `building`: (its time, its session)
    sweep: bool

    @classmethod
    def of(cls, row: dict[str, Any]) -> Build:
        after = START if row["after_at"] is None else (row["after_at"], row["after_session"])
        return cls(row["game"], row["current"], row["building"], after, bool(row["sweep"]))


async def ask(tx: Tx, games: Sequence[str]) -> None:
    """Ask for `games`' ratings to be rated again from the first game (a build under way starts over)."""
    await tx.many(
        "INSERT INTO rating_epochs (game, current, building) VALUES (?, 0, 1) ON CONFLICT (game) DO UPDATE SET"
        " building=COALESCE(rating_epochs.building, rating_epochs.current) + 1, after_at=NULL, after_session=NULL,"
        " sweep=CASE WHEN rating_epochs.building IS NULL THEN rating_epochs.sweep ELSE 1 END,"
        " lease_owner=NULL, lease_until=NULL",
        [(game,) for game in games],
    )


async def games_of(tx: Tx, accounts: Sequence[str]) -> list[str]:
    rows = await tx.rows(f"SELECT DISTINCT game FROM results WHERE user_id IN ({marks(len(accounts))})", *accounts)
    return sorted(r["game"] for r in rows)


async def next_games(tx: Tx, build: Build, most: int) -> list[int]:
    """The sessions of the next `most` games to rate into the build, in order."""
    at, session = build.after
    rows = await tx.rows("SELECT DISTINCT at, session_id FROM results WHERE game=? AND at>=? AND"
                         " (at>? OR session_id>?) ORDER BY at, session_id LIMIT ?",
                         build.game, at, at, session, most)
    return [r["session_id"] for r in rows]


async def paced(step: Awaitable[bool]) -> bool:
    """`step`'s answer, after a rest of `REST` times as long as it took (none when it did nothing)."""
    began = time.monotonic()
    if not await step:
        return False
    await asyncio.sleep(REST * (time.monotonic() - began))
    return True


class SQLRebuilds(SQLRatings):
    """Linking, unlinking and rating games again, for a backend that supplies `Tx`s (as
    `SQLRatings`) and its lease clock."""

    _now: str  # the lease clock, in the backend's SQL: seconds since 1970
    _skip_locked: str = ""  # PostgreSQL: " FOR UPDATE SKIP LOCKED"
    # Games a chunk, in `CHUNK`s: PostgreSQL's steps cost round trips to the server, not time on a
    # thread every channel shares (SQLite's), so it takes bigger ones.
    _chunks: int = 1

    async def link_accounts(self, owner: str, joiner: str, new_identity: str) -> bool:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            found = await links_of(tx, [owner, joiner])
            if joiner in found:
                return found[joiner] == found.get(owner)
            identity = found.get(owner) or new_identity
            await tx.many("INSERT INTO links (user_id, identity) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
                          [(owner, identity), (joiner, identity)])
            await ask(tx, await games_of(tx, await linked_as(tx, identity)))
        return True

    async def unlink_account(self, user_id: str) -> bool:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            found = await links_of(tx, [user_id])
            if user_id not in found:
                return False
            together = await linked_as(tx, found[user_id])
            await tx.run("DELETE FROM links WHERE user_id=?", user_id)
            if len(together) == 2:
                await tx.run("DELETE FROM links WHERE identity=?", found[user_id])
            await ask(tx, await games_of(tx, together))
        return True

    async def rebuild_ratings(self) -> int:
        async with self._writing() as tx:
            await tx.lock(RATINGS)
            await ask(tx, sorted(r["game"] for r in await tx.rows("SELECT DISTINCT game FROM results")))
        owner = f"rebuild:{os.getpid()}:{secrets.token_hex(4)}"
        while await paced(self.rerate(owner, LEASE)) or await self._query(
                "SELECT game FROM rating_epochs WHERE building IS NOT NULL OR sweep<>0 LIMIT 1"):
            await asyncio.sleep(0.05)  # another process holds a part of it: until it is done, or its lease runs out
        return sum((await self.rated_counts()).values())

    async def rerating(self) -> set[str]:
        return {r["game"] for r in await self._query("SELECT game FROM rating_epochs WHERE building IS NOT NULL")}

    async def rerate(self, owner: str, lease: float) -> bool:
        build = await self._claim(owner, lease)
        if build is None:
            return False
        if build.building is None:
            await self._sweep(build, owner)
        elif games := await self._read(build):
            await self._rate(build, owner, lease, games)
        else:
            await self._finish(build, owner)
        return True

    async def _claim(self, owner: str, lease: float) -> Build | None:
        free = f"(lease_owner IS NULL OR lease_owner=? OR lease_until < {self._now})"
        async with self._writing() as tx:
            rows = await tx.rows(
                f"UPDATE rating_epochs SET lease_owner=?, lease_until={self._now} + ? WHERE game IN (SELECT game FROM"
                f" rating_epochs WHERE (building IS NOT NULL OR sweep<>0) AND {free} ORDER BY game LIMIT 1"
                f"{self._skip_locked}) AND {free} RETURNING *", owner, lease, owner, owner,
            )
        return Build.of(rows[0]) if rows else None

    async def _holds(self, tx: Tx, build: Build, owner: str) -> bool:
        """In a write transaction, under the ratings' lock: the row is as `build` found it, and still `owner`'s."""
        await tx.lock(RATINGS)
        rows = await tx.rows("SELECT * FROM rating_epochs WHERE game=?", build.game)
        return bool(rows) and Build.of(rows[0]) == build and rows[0]["lease_owner"] == owner

    async def _read(self, build: Build) -> list[Any]:
        """The next chunk's games and the fold they start from, read outside any write transaction."""
        async with self._reading() as tx:
            games = await finished(tx, await next_games(tx, build, CHUNK * self._chunks))
            if not games:
                return []
            return [games, await ladder_for(tx, build.game, build.building or 0, [p for p, _ in games])]

    async def _rate(self, build: Build, owner: str, lease: float, read: list[Any]) -> None:
        games, ladder = read
        rated = fold(ladder, games)
        async with self._writing() as tx:
            if not await self._holds(tx, build, owner):
                return  # asked again (the links changed), or taken over: this chunk is not wanted
            await write(tx, build.building or 0, rated)
            last = rated[-1][0]
            await tx.run(f"UPDATE rating_epochs SET after_at=?, after_session=?, lease_until={self._now} + ?"
                         " WHERE game=?", last.at, last.session, lease, build.game)

    async def _finish(self, build: Build, owner: str) -> None:
        """The games ended since the last chunk was read (and any committed late), then the new epoch
        current: one transaction, under the ratings' lock."""
        epoch = build.building or 0
        async with self._writing() as tx:
            if not await self._holds(tx, build, owner):
                return
            late = await tx.rows("SELECT DISTINCT at, session_id FROM results r WHERE game=? AND at>=? AND NOT EXISTS"
                                 " (SELECT 1 FROM rated_games g WHERE g.session_id=r.session_id AND g.epoch=?)"
                                 " ORDER BY at, session_id", build.game, build.after[0] - LATE, epoch)
            games = await finished(tx, [r["session_id"] for r in late])
            if games:
                await write(tx, epoch, fold(await ladder_for(tx, build.game, epoch, [p for p, _ in games]), games))
            await tx.run("UPDATE rating_epochs SET current=building, building=NULL, after_at=NULL, after_session=NULL,"
                         " sweep=1 WHERE game=?", build.game)

    async def _sweep(self, build: Build, owner: str) -> None:
        """Delete up to `SWEEP` rows of each table of the epochs before the current one (with no build
        under way, there are no others: each build's epoch is above every earlier one); none left: the
        row is done (and its lease given up)."""
        async with self._writing() as tx:
            if not await self._holds(tx, build, owner):
                return
            gone = 0
            for table, key in (("ratings", "game, epoch, player"), ("rated_games", "session_id, epoch"),
                               ("rating_changes", "session_id, epoch, player")):  # each table's primary key
                gone += len(await tx.rows(f"DELETE FROM {table} WHERE ({key}) IN (SELECT {key} FROM {table}"
                                          " WHERE game=? AND epoch<? LIMIT ?) RETURNING epoch",
                                          build.game, build.current, SWEEP))
            if not gone:
                await tx.run("UPDATE rating_epochs SET sweep=0, lease_owner=NULL, lease_until=NULL WHERE game=?",
                             build.game)
