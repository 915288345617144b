"""Ratings as people see them: leaderboards and /stats figures (`board`, `profile`), and the
rating of finished games (`catch_up`, `rebuild`, `Rerater`), kept by the storage contract.

The ratings are a function of the results and the linked accounts: the store rates each
finished game in the transaction that writes its results (`Storage.save`), with
`bot.rating_model`' fold. Linking or unlinking accounts changes who played which game, so the
games of each kind they played are rated again from the first, off the command's path: the
command asks for it, and a `Rerater` in each host does it in small steps in the background
(`Storage.rerate`: `bot.storage.rebuilt` says how), while the ratings from before are shown,
said to be being updated (`updating`). `rebuild` asks for every game at once and waits. A
game the store could not rate when it ended (the rating itself failed; logged) is rated when
a host starts (`catch_up`): exactly once, whichever of the processes sharing a database gets
there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot import rating_model
from bot.storage import PLACE, Storage
from bot.storage.rebuilt import paced
from bot.supervised import backoff

__all__ = ["PLACE", "Rerater", "Standing", "accounts_of", "board", "catch_up", "identity_of", "profile", "rebuild",
           "updating"]
log = logging.getLogger(__name__)
HISTORY = 20  # rating changes shown in /stats


async def identity_of(store: Storage, user_id: str) -> str:
    return (await store.identities()).get(user_id, user_id)


async def accounts_of(store: Storage, identity: str) -> list[str]:
    return sorted(u for u, i in (await store.identities()).items() if i == identity) or [identity]


async def catch_up(store: Storage) -> int:
    """Rate the finished games that were not rated yet, oldest first; returns how many."""
    return await store.rate_unrated()


async def rebuild(store: Storage) -> int:
    """Every rating again from the results table (and the linked accounts), in the background's
    small steps, here and now; returns how many games are rated."""
    return await store.rebuild_ratings()


async def updating(store: Storage) -> set[str]:
    """The games whose ratings are being rated again (what is shown of them is from before)."""
    return await store.rerating()


class Rerater:
    """The re-rating that links ask for, done in this process's background (`Storage.rerate`,
    step after step, resting between them as long as each took: `paced`): woken when this process links
    or unlinks accounts, and every `poll` seconds (another process may have asked, or died
    holding a build, whose lease then runs out). A failing step is logged and tried again
    after the back-off (`bot.supervised`: 1 s doubling to 60 s)."""

    def __init__(self, store: Storage, owner: str, lease: float, poll: float) -> None:
        self.store, self.owner, self.lease, self.poll = store, owner, lease, poll
        self._wake = asyncio.Event()
        self._settled = asyncio.Event()  # set while a pass found nothing left for this process
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._settled.clear()  # until its first pass has looked
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        self._settled.clear()
        self._wake.set()

    async def idle(self) -> None:
        """Until this process finds no re-rating left to do (tests and benchmarks use this)."""
        if self._task is not None and not self._task.done():
            await self._settled.wait()

    async def _run(self) -> None:
        failures = 0
        while True:
            self._wake.clear()
            try:
                while await paced(self.store.rerate(self.owner, self.lease)):  # the commands between the steps
                    pass
            except Exception:
                failures += 1
                wait = backoff(failures)
                log.exception("re-rating failed (%d in a row); trying again in %g s", failures, wait)
            else:
                failures, wait = 0, self.poll
                if not self._wake.is_set():
                    self._settled.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)


# --- what people see --------------------------------------------------------------------
@dataclass
class Standing:
    """One player's place in one game."""

    player: str  # an identity, or ai:<level>
    name: str
    rating: float  # the conservative rating (ordinal)
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0  # +n: the last n games won; -n: lost; 0: the last was a draw
    best_streak: int = 0
    points: float | None = None  # where the game settles in points (Dou Dizhu): the total
    recent: list[str] = field(default_factory=list)  # the last results, oldest first: win, loss, draw
    history: list[float] = field(default_factory=list)  # the rating after each of the last rated games
    aided: int = 0  # games they had help in (a hint, a move taken back): not rated for them
    favourite: str | None = None  # the opponent met most often (a name)

    @property
    def is_ai(self) -> bool:
        return self.player.startswith(rating_model.AI)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def _tally(rows: Iterable[dict[str, Any]], links: dict[str, str]) -> dict[str, Standing]:
    """Records from results rows (oldest first), per identity; a player in several seats of one
    game counts that game once, by its best seat."""
    found: dict[str, Standing] = {}
    seen: set[tuple[str, int]] = set()
    for row in rows:
        who = links.get(row["user_id"], row["user_id"])
        if (who, row["session_id"]) in seen:
            continue
        seen.add((who, row["session_id"]))
        s = found.setdefault(who, Standing(who, row["name"], 0.0))
        s.name, s.games = row["name"], s.games + 1
        result = row["result"]
        s.wins += result == "win"
        s.losses += result == "loss"
        s.draws += result == "draw"
        if row["score"] is not None:
            s.points = (s.points or 0) + row["score"]
        step = 1 if result == "win" else -1 if result == "loss" else 0
        s.streak = s.streak + step if step and (s.streak > 0) == (step > 0) and s.streak else step
        s.best_streak = max(s.best_streak, s.streak)
        s.recent = [*s.recent[-9:], result]
        s.aided += row.get("aided") is not None
    return found


async def board(store: Storage, game: str, place: str | None = None) -> list[Standing]:
    """The game's rated players, best first (`place`: only those who played a rated game there).
    While the game is rated again (`updating`), as the ratings from before know the players: an
    account linked since stands alone, an identity dissolved since is left out."""
    links, stale = await store.identities(), game in await updating(store)
    results = await store.game_results(game)
    records, alone = _tally(results, links), _tally(results, {}) if stale else {}
    players = {p: skill.ordinal for p, skill in (await store.skills(game)).items()}
    if place is not None:
        accounts = await store.players_at(place, game)
        members = {links.get(u, u) for u in accounts} | (accounts if stale else set())
        players = {p: v for p, v in players.items() if p in members}
    standings = []
    for player, rating in players.items():
        s = records.get(player) or alone.get(player)
        if s is None and stale:
            continue
        s = s or Standing(player, player, rating)
        s.rating = rating
        standings.append(s)
    standings.sort(key=lambda s: (-s.rating, -s.games, s.name))
    return standings


async def profile(store: Storage, identity: str) -> list[tuple[str, Standing]]:
    """Per game the identity played: its standing, rating history and favourite opponent (while
    a game is rated again, the rating is the best its accounts had before)."""
    links, stale = await store.identities(), await updating(store)
    accounts = sorted(u for u, i in links.items() if i == identity) or [identity]
    games: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in await store.results_with_opponents(accounts):
        games[row["game"]].append(row)
    found = []
    for game, game_rows in sorted(games.items()):
        s = _tally(game_rows, links).get(identity) or Standing(identity, identity, 0.0)
        met: dict[str, int] = defaultdict(int)
        names: dict[str, str] = {}
        for row in game_rows:
            other = links.get(row["other"], row["other"]) if row["other"] else None
            if other and other != identity:
                met[other] += 1
                names[other] = row["other_name"]
        if met:
            s.favourite = names[max(met, key=lambda o: (met[o], o))]
        skills = await store.skills(game, [identity, *accounts] if game in stale else [identity])
        key = identity if identity in skills else max(skills, key=lambda k: skills[k].ordinal, default=identity)
        s.rating = skills[key].ordinal if key in skills else 0.0
        s.history = await store.rating_history(game, key, HISTORY)
        found.append((game, s))
    return found
