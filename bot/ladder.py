"""Ratings in the store: each finished game rated once (`record`), every rating rebuilt from
the results table (`rebuild`), and what leaderboards and /stats show (`board`, `profile`).

The ratings are a function of the results and the linked accounts: `rebuild` replays every
finished game in order with `bot.ratings.Ladder`, the same fold `record` applies one game
at a time, so linking or unlinking accounts (which changes who played which game) rebuilds
them. A game is rated after its results are committed; one the process did not get to
rate (stopped in between) is rated when the host starts (`catch_up`).

The tables are the store's third migration. The SQL here is plain (no SQLite-only
functions, upserts by ON CONFLICT) so the PostgreSQL store can run it as it is; it runs on
the SQLite store's connection, inside its transactions, until the storage contract lands.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot import ratings
from bot.ratings import WINDOW, Entry, Played, Rated, Skill
from bot.store import Store

PLACE = "place"  # channel setting: the Discord server or Telegram group the channel belongs to
HISTORY = 20  # rating changes shown in /stats


# --- the connection, inside the store's lock --------------------------------------------
async def _fetch(store: Store, sql: str, *params: Any) -> list[dict[str, Any]]:
    """Rows, inside a transaction already held (`store._transaction`)."""
    return [dict(r) for r in await store.db.execute_fetchall(sql, params)]


async def _read(store: Store, sql: str, *params: Any) -> list[dict[str, Any]]:
    async with store._lock:
        return await _fetch(store, sql, *params)


async def identities(store: Store, *, held: bool = False) -> dict[str, str]:
    """Every linked account -> the identity it shares with its other accounts."""
    rows = await (_fetch if held else _read)(store, "SELECT user_id, identity FROM links")
    return {r["user_id"]: r["identity"] for r in rows}


async def identity_of(store: Store, user_id: str) -> str:
    rows = await _read(store, "SELECT identity FROM links WHERE user_id=?", user_id)
    return rows[0]["identity"] if rows else user_id


async def accounts_of(store: Store, identity: str) -> list[str]:
    rows = await _read(store, "SELECT user_id FROM links WHERE identity=? ORDER BY user_id", identity)
    return [r["user_id"] for r in rows] or [identity]


# --- rating ----------------------------------------------------------------------------
def _played(session_id: int, rows: list[dict[str, Any]], links: dict[str, str]) -> Played:
    """One game's results rows as the rating scheme reads them."""
    entries = tuple(Entry(links.get(r["user_id"], r["user_id"]), r["rank"], r["role"]) for r in rows)
    return Played(session_id, rows[0]["game"], rows[0]["at"], entries)


async def record(store: Store, session_id: int) -> Rated | None:
    """Rate a finished game (once: a game already rated is left as it is)."""
    async with store._transaction():
        if await _fetch(store, "SELECT session_id FROM rated_games WHERE session_id=?", session_id):
            return None
        rows = await _fetch(store, "SELECT * FROM results WHERE session_id=? ORDER BY seat", session_id)
        if not rows:
            return None
        played = _played(session_id, rows, await identities(store, held=True))
        recent = await _fetch(
            store, "SELECT COUNT(*) AS n FROM rated_games WHERE game=? AND players=? AND at>? AND weight>0",
            played.game, played.key, played.at - WINDOW,
        )  # fmt: skip
        marks = ", ".join("?" for _ in played.players)
        found = await _fetch(store, f"SELECT player, mu, sigma FROM ratings WHERE game=? AND player IN ({marks})",
                             played.game, *played.players)  # fmt: skip
        skills = {r["player"]: Skill(r["mu"], r["sigma"]) for r in found}
        rated = ratings.rate(played, skills, recent[0]["n"])
        await _write(store, [(played, rated, await _place(store, session_id))])
        return rated


async def _place(store: Store, session_id: int) -> str:
    rows = await _fetch(
        store, "SELECT COALESCE(c.value, s.channel) AS place FROM sessions s LEFT JOIN channel_settings c"
        " ON c.channel=s.channel AND c.key=? WHERE s.id=?", PLACE, session_id,
    )  # fmt: skip
    return rows[0]["place"] if rows else ""


async def _write(store: Store, games: list[tuple[Played, Rated, str]]) -> None:
    """Save rated games: the new ratings, the game, and each seat's player's change."""
    latest: dict[tuple[str, str], Skill] = {}
    for played, rated, _ in games:
        if rated.weight > 0:
            latest.update({(played.game, p): s for p, s in rated.after.items()})
    await store.db.executemany(
        "INSERT INTO ratings (game, player, mu, sigma) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game, player) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma",
        [(game, player, s.mu, s.sigma) for (game, player), s in latest.items()],
    )
    await store.db.executemany(
        "INSERT INTO rated_games (session_id, game, players, place, weight, at) VALUES (?, ?, ?, ?, ?, ?)",
        [(p.session, p.game, p.key, place, r.weight, p.at) for p, r, place in games],
    )
    await store.db.executemany(
        "INSERT INTO rating_changes (session_id, player, game, rating_from, rating_to, at) VALUES (?, ?, ?, ?, ?, ?)",
        [(p.session, player, p.game, r.before[player].ordinal, r.after[player].ordinal, p.at)
         for p, r, _ in games for player in dict.fromkeys(e.player for e in p.entries)],
    )  # fmt: skip


async def catch_up(store: Store) -> int:
    """Rate the finished games that were not rated yet, oldest first; returns how many."""
    rows = await _read(store, "SELECT session_id, MIN(at) AS at FROM results WHERE session_id NOT IN (SELECT"
                              " session_id FROM rated_games) GROUP BY session_id ORDER BY at, session_id")  # fmt: skip
    for row in rows:
        await record(store, row["session_id"])
    return len(rows)


async def rebuild(store: Store) -> int:
    """Every rating again from the results table (and the linked accounts), in one transaction;
    returns how many games were rated."""
    async with store._transaction():
        links = await identities(store, held=True)
        sql = ("SELECT r.*, COALESCE(c.value, s.channel) AS place FROM results r JOIN sessions s ON s.id=r.session_id"
               " LEFT JOIN channel_settings c ON c.channel=s.channel AND c.key=? ORDER BY r.at, r.session_id, r.seat")
        rows = await _fetch(store, sql, PLACE)
        by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            by_game[row["session_id"]].append(row)

        def replay() -> list[tuple[Played, Rated, str]]:
            ladder = ratings.Ladder()
            return [(p, ladder.play(p), seats[0]["place"])
                    for sid, seats in by_game.items() for p in (_played(sid, seats, links),)]  # fmt: skip

        games = await asyncio.to_thread(replay)
        for table in ("ratings", "rated_games", "rating_changes"):
            await store.db.execute(f"DELETE FROM {table}")
        await _write(store, games)
    return len(games)


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
    favourite: str | None = None  # the opponent met most often (a name)

    @property
    def is_ai(self) -> bool:
        return self.player.startswith(ratings.AI)

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
    return found


async def board(store: Store, game: str, place: str | None = None) -> list[Standing]:
    """The game's rated players, best first (`place`: only those who played a rated game there)."""
    links = await identities(store)
    rated = await _read(store, "SELECT player, mu, sigma FROM ratings WHERE game=? AND player NOT LIKE 'role:%'",
                        game)  # fmt: skip
    rows = await _read(store, "SELECT user_id, session_id, name, result, score FROM results WHERE game=?"
                              " ORDER BY at, session_id, seat", game)  # fmt: skip
    records = _tally(rows, links)
    players = {r["player"]: Skill(r["mu"], r["sigma"]).ordinal for r in rated}
    if place is not None:
        here = await _read(store, "SELECT DISTINCT r.user_id FROM results r JOIN rated_games g ON"
                                  " g.session_id=r.session_id WHERE g.place=? AND g.game=?", place, game)  # fmt: skip
        members = {links.get(r["user_id"], r["user_id"]) for r in here}
        players = {p: v for p, v in players.items() if p in members}
    standings = []
    for player, rating in players.items():
        s = records.get(player) or Standing(player, player, rating)
        s.rating = rating
        standings.append(s)
    standings.sort(key=lambda s: (-s.rating, -s.games, s.name))
    return standings


async def profile(store: Store, identity: str) -> list[tuple[str, Standing]]:
    """Per game the identity played: its standing, rating history and favourite opponent."""
    links = await identities(store)
    accounts = [u for u, i in links.items() if i == identity] or [identity]
    marks = ", ".join("?" for _ in accounts)
    sql = ("SELECT r.*, o.user_id AS other, o.name AS other_name FROM results r LEFT JOIN results o"
           f" ON o.session_id=r.session_id AND o.seat<>r.seat WHERE r.user_id IN ({marks})"
           " ORDER BY r.at, r.session_id, r.seat")  # fmt: skip
    rows = await _read(store, sql, *accounts)
    games: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
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
        skill = await _read(store, "SELECT mu, sigma FROM ratings WHERE game=? AND player=?", game, identity)
        s.rating = Skill(skill[0]["mu"], skill[0]["sigma"]).ordinal if skill else 0.0
        changes = await _read(store, "SELECT rating_to FROM rating_changes WHERE game=? AND player=?"
                                     " ORDER BY at DESC, session_id DESC LIMIT ?", game, identity, HISTORY)  # fmt: skip
        s.history = [r["rating_to"] for r in reversed(changes)]
        found.append((game, s))
    return found
