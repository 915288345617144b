"""The storage contract: what the host asks of a database, whichever it is.

`Storage` lists every method; `bot.storage.sqlite.SQLiteStorage` (the embedded
default) and `bot.storage.postgres.PostgresStorage` (several processes, one
database) implement all of them with the same guarantees:

- every write is one transaction: all of it is committed, or nothing, before the call returns
  (on SQLite the saves of several channels that arrive together share one transaction and
  its commit, each on a savepoint of its own: each is still all or nothing, and alone);
- a command's first read (`enter`) brings the channel's session and settings in one trip;
- a session row carries a version that every save increments; a save that does not
  find the version it read changes nothing and raises `Conflict`;
- one active session per channel, enforced by the database (`ChannelBusy`);
- whatever goes wrong with the database itself (locked, read-only, full, damaged,
  the server refusing or dropping the connection) is `StorageUnavailable` with a
  one-line reason: the host answers "try again" and stays up;
- `open` checks the schema, refuses one newer than the code (one line), and applies
  the missing migrations (`bot.storage.migrations`) under a lock, so processes
  starting together migrate once.

Several processes: `exclusive(channel)` runs one command of a channel at a time
across every process sharing the database, and background work (a passed deadline,
a bot to move) is claimed with a lease on the session row (`claim`, `claim_session`,
`release`): one live process holds it; claiming it again renews the lease, so a process
that dies stops renewing and another takes the work over when the lease runs out. Leases run on the database's
clock; deadlines on the host's (tests move it).

Adding a table: a migration appended to `MIGRATIONS` (SQL for each database), the
methods here as abstract methods, and each backend's implementation (the ABC refuses
to build a backend that misses one); `tests/bot/test_storage_contract.py` runs the
contract against both. Where the SQL can be the same in both dialects, one implementation
serves both over the backends' `Tx` (as the ratings' does: `bot.storage.rated`). Rows
that must be written with a move (results; replies to deliver) go in `Change`, which
`save` writes in the move's transaction; the ratings a game's results change are written
in that transaction too, by `save` itself (it reads the ratings they start from there).
Rows that one live process must take on (replies to deliver) get the same two columns
as sessions, `lease_owner` and `lease_until`, and a claim like `claim`: an UPDATE of the
rows `SELECT ... FOR UPDATE SKIP LOCKED` picked among those free, theirs, or whose lease
ran out (the database's clock: `NOW` in each backend).
"""

from __future__ import annotations

import contextlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.rating_model import Skill
from bot.session import (
    Aid,
    Change,
    ChannelBusy,
    Conflict,
    MoveRow,
    Notice,
    Offer,
    Outgoing,
    Seat,
    Session,
    SessionStatus,
)
from bot.storage.puzzle_contract import PuzzleStore
from bot.tournament.model import Tournament
from engines.base import Outcome

__all__ = ["PLACE", "ChannelBusy", "Conflict", "Redeemed", "Storage", "StorageUnavailable", "Throttle"]

PLACE = "place"  # channel setting: the Discord server or Telegram group a channel belongs to


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, asyncpg.Record, a dict)."""

    def __getitem__(self, key: str, /) -> Any: ...


class StorageUnavailable(Exception):
    """The database cannot be used now, or (at open) by this version at all; the message
    says why in one line ("database is locked", "connection refused")."""


# --- ratings and linked accounts: what `bot.rating_store` and `bot.links` keep ---------------------------
@dataclass(frozen=True)
class Throttle:
    """Wrong link codes allowed within `window` seconds: from one account, from everyone."""

    window: float
    per_user: int
    everyone: int


@dataclass(frozen=True)
class Redeemed:
    """What typing a link code came to: the code's owner (the code used up; the typist's own
    id for their own code, which is kept), or None; `wait`: seconds before the typist may try
    again (nothing was looked at)."""

    owner: str | None
    wait: float = 0.0


class Ratings(ABC):
    """Ratings (openskill skills per game and player, each rated game, each player's change),
    and accounts linked into one identity. One process at a time changes them (rating a game
    in `save`, `rate_unrated`, a step of `rerate`, linking), across every process sharing the
    database, so each game is rated exactly once and in the order games finished. Rating a
    game's whole history again (linking changes who played it) is background work in small
    steps (`rerate`), claimed with a lease; meanwhile the ratings read are those from before."""

    @abstractmethod
    async def rate_unrated(self) -> int:
        """Rate the finished games that are not rated yet, oldest first; how many."""

    @abstractmethod
    async def rebuild_ratings(self) -> int:
        """Every game's ratings again from the results and the linked accounts (`rerate` until
        done, waiting for any part another process holds); how many games are rated."""

    @abstractmethod
    async def rerate(self, owner: str, lease: float) -> bool:
        """One step of the re-rating that was asked for (a chunk of games, making the result
        current, deleting the old), claimed by `owner` for `lease` seconds; False when there is
        nothing this process may do now (nothing asked, or another live process holds it)."""

    @abstractmethod
    async def rerating(self) -> set[str]:
        """The games (nim, gomoku, ...) whose ratings are being rated again."""

    @abstractmethod
    async def rated_counts(self) -> dict[str, int]:
        """Per game, how many rated games."""

    @abstractmethod
    async def skills(self, game: str, players: Sequence[str] | None = None) -> dict[str, Skill]:
        """The skills in `game` of `players` (None: every player, the roles left out)."""

    @abstractmethod
    async def rating_history(self, game: str, player: str, limit: int) -> list[float]:
        """`player`'s rating after each of their last `limit` rated games of `game`, oldest first."""

    @abstractmethod
    async def game_results(self, game: str) -> list[dict[str, Any]]:
        """Every result of `game`, oldest first: user_id, session_id, name, result, score."""

    @abstractmethod
    async def players_at(self, place: str, game: str) -> set[str]:
        """The accounts that played a rated game of `game` at `place` (a server or group)."""

    @abstractmethod
    async def results_with_opponents(self, accounts: Sequence[str]) -> list[dict[str, Any]]:
        """Every result of `accounts`, oldest first, once per other seat of its game (`other`,
        `other_name`; None in a game of one seat)."""

    @abstractmethod
    async def user_by_handle(self, handle: str) -> str | None:
        """The account that last sat down with `handle` (any case)."""

    @abstractmethod
    async def identities(self) -> dict[str, str]:
        """Every linked account -> the identity it shares with its other accounts."""

    @abstractmethod
    async def issue_code(self, user_id: str, code: str, now: float, expires: float) -> None:
        """Keep `code` for `user_id` until `expires`, in place of any earlier code of theirs."""

    @abstractmethod
    async def redeem_code(self, user_id: str, code: str | None, now: float, throttle: Throttle) -> Redeemed:
        """`user_id` types `code`: unless they must wait (`throttle`), the code's owner with the
        code used up (single use, across processes), or None with the wrong guess counted."""

    @abstractmethod
    async def link_accounts(self, owner: str, joiner: str, new_identity: str) -> bool:
        """`joiner` joins `owner`'s identity (`new_identity` if `owner` has none yet), and the
        games the identity's accounts played are asked to be rated again (`rerate`), in one
        transaction; False if `joiner` shares another identity."""

    @abstractmethod
    async def unlink_account(self, user_id: str) -> bool:
        """`user_id` leaves its identity (one of one account is dissolved), and the games its
        accounts played are asked to be rated again, in one transaction; False if it was not linked."""


class Events(ABC):
    """Tournaments (`bot.tournament.model`): an event, its entries and its games, as rows. Each
    write of an event checks and increments its version (`Conflict` otherwise), so a pairing or a
    round change is written once; the background work of running events (placing games, the next
    round) is claimed with a lease on the event row, like a session's."""

    @abstractmethod
    async def event_create(self, event: Tournament) -> Tournament:
        """Insert a new event and its entries (its id set); `ChannelBusy` if the channel has an
        open or running event."""

    @abstractmethod
    async def event_save(self, event: Tournament) -> None:
        """Write the event (version + 1), every entry and every game, in one transaction;
        `Conflict` (and nothing written) if its version is not the stored one."""

    @abstractmethod
    async def event_active(self, channel: str) -> Tournament | None:
        """The channel's open or running event, with its entries and games."""

    @abstractmethod
    async def event_latest(self, channel: str) -> Tournament | None:
        """The channel's most recent event, whatever its status."""

    @abstractmethod
    async def event_get(self, event_id: int) -> Tournament | None: ...

    @abstractmethod
    async def event_of_session(self, session_id: int) -> Tournament | None:
        """The event whose game is played in that session, if any."""

    @abstractmethod
    async def events_claim(self, owner: str, lease: float) -> list[Tournament]:
        """The running events no other live process holds, each now held by `owner` for `lease`
        seconds (renewed for those it held)."""

    @abstractmethod
    async def events_release(self, owner: str) -> None:
        """Give up `owner`'s leases on events."""

    @abstractmethod
    async def events_of(self, entrant: str, limit: int = 5) -> list[Tournament]:
        """The events `entrant` entered, newest first."""


class Storage(Ratings, Events, PuzzleStore):
    #: True when other processes may share the database (they do not tell this one of
    #: their commits, so background work is looked for every `lease / 3` seconds).
    shared: bool = False

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    # --- sessions -----------------------------------------------------------------
    @abstractmethod
    async def create(self, session: Session, notice: Notice | None = None) -> Session:
        """Insert a new session (its id set), and `notice`'s outbox row; `ChannelBusy` if the
        channel has an active one."""

    @abstractmethod
    async def save(self, session: Session, change: Change | None = None) -> None:
        """Write the session (version + 1), its seats if they changed, and `change`, in one
        transaction; `Conflict` (and nothing written) if its version is not the stored one.
        The game whose results `change` carries is rated in that transaction, after every game
        rated before it in any process (a failure of the rating itself, not of the database,
        is logged and leaves the game unrated: `rate_unrated` rates it later)."""

    @abstractmethod
    async def move_channel(self, old: str, new: str) -> None:
        """Give `old`'s sessions and settings to `new` (a chat whose id changed), in one transaction."""

    @abstractmethod
    async def active(self, channel: str) -> Session | None: ...

    @abstractmethod
    async def enter(self, channel: str) -> tuple[Session | None, dict[str, str]]:
        """What a command in `channel` starts from, in one read: its active session (as `active`)
        and its settings (key -> value, as `setting`)."""

    @abstractmethod
    async def latest(self, channel: str) -> Session | None:
        """The channel's active session, or else its most recent one."""

    @abstractmethod
    async def get(self, session_id: int) -> Session | None: ...

    @abstractmethod
    async def active_sessions(self) -> list[Session]: ...

    @abstractmethod
    async def active_counts(self) -> dict[tuple[str, str], int]:
        """How many active sessions there are, by (status, game): a count, no session read."""

    @abstractmethod
    async def next_deadline(self) -> float | None:
        """The soonest deadline of an active session."""

    # --- one command of a channel at a time, across processes ---------------------
    @abstractmethod
    def exclusive(self, channel: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Held while one command of `channel` runs: no other process runs one of the same
        channel meanwhile (within a process, the host's own lock already orders them)."""

    # --- background work, claimed by one live process --------------------------------
    @abstractmethod
    async def claim(self, now: float, owner: str, lease: float,
                    platforms: Sequence[str] | None = None) -> list[Session]:
        """Sessions with work to do (a deadline passed by `now`, a bot to move) that no other
        live process holds, in channels of `platforms` ("discord", ...; None: all): each now
        held by `owner` for `lease` seconds from now (for those it held already: renewed), the
        passed deadlines first."""

    @abstractmethod
    async def claim_session(self, session_id: int, owner: str, lease: float) -> bool:
        """Hold `session_id` for `lease` seconds from now (renewed if `owner` held it), unless
        another live process holds it."""

    @abstractmethod
    async def release(self, owner: str, session_ids: Sequence[int] | None = None) -> None:
        """Give up `owner`'s leases on `session_ids` (None: all of them)."""

    # --- the outbox: what channels are owed after a commit (`bot.outbox`) ----------------
    # A row is written by `save`/`create` with a `Notice` (held by its committer), then either
    # deleted once sent (`outbox_done`) or kept with its replies for a deliverer (`outbox_hold`).
    @abstractmethod
    async def outbox_claim(self, now: float, owner: str, lease: float, platforms: Sequence[str] | None = None,
                           most: int = 100) -> list[Outgoing]:
        """Rows due by `now` (the host's clock) that no other live process holds and that are first
        in their channel (no older row of it waits or is held by another), in channels of
        `platforms` (None: all): each now held by `owner` for `lease` seconds, oldest first."""

    @abstractmethod
    async def outbox_retake(self, key: str, owner: str, lease: float) -> Outgoing | None:
        """`key`'s row as it is now, held by `owner` for `lease` seconds again (None: it is gone, or
        another live process holds it)."""

    @abstractmethod
    async def outbox_ahead(self, channel: str, key: str) -> bool:
        """Whether an older row of `channel` than `key`'s is still waiting."""

    @abstractmethod
    async def outbox_done(self, keys: Sequence[str]) -> None:
        """Delete these rows: sent, or owed nothing after all."""

    @abstractmethod
    async def outbox_hold(self, key: str, replies: str, sent: list[dict[str, Any]], attempts: int, due: float,
                          dropped: Sequence[str] = ()) -> None:
        """Keep `key`'s row for a deliverer with its `replies` (JSON), what of them was `sent`, its
        failed `attempts`, not before `due`, its lease given up; delete the `dropped` rows (of the
        same commands, which `replies` covers), in one transaction."""

    @abstractmethod
    async def outbox_progress(self, key: str, sent: list[dict[str, Any]]) -> None:
        """Record what of `key`'s replies the platform took (per reply, its message ids)."""

    @abstractmethod
    async def outbox_next(self, now: float, again: float) -> float | None:
        """When the soonest row not due by `now` will be, a row due already (still leased by a process
        that died, or being sent) counting as due at `again` (None: no row waits)."""

    @abstractmethod
    async def outbox_backlog(self) -> int:
        """How many rows are not delivered yet (a metric reads this)."""

    @abstractmethod
    async def outbox_release(self, owner: str) -> None:
        """Give up `owner`'s leases on outbox rows."""

    # --- moves, results, settings ---------------------------------------------------
    @abstractmethod
    async def moves(self, session_id: int) -> list[MoveRow]: ...

    # A finished game's review (`bot.review`): made once, kept as JSON, served again.
    @abstractmethod
    async def finished(self, channel: str, limit: int = 100) -> list[int]:
        """The ids of the channel's finished games, the latest first (at most `limit`)."""

    @abstractmethod
    async def review(self, session_id: int) -> str | None:
        """The stored review of a finished game, or None."""

    @abstractmethod
    async def save_review(self, session_id: int, review: str, at: float) -> None:
        """Keep a game's review; a review kept already stays as it is."""

    @abstractmethod
    async def setting(self, channel: str, key: str) -> str | None: ...

    @abstractmethod
    async def set_setting(self, channel: str, key: str, value: str) -> None: ...

    # --- the web site (`bot.web`): what it may show, and its unguessable ids ----------------
    @abstractmethod
    async def channel_values(self, key: str) -> dict[str, str]:
        """Every channel's value of the setting `key` (channels without one left out)."""

    @abstractmethod
    async def published(self, key: str, default_on: Sequence[str], game: str | None = None,
                        players: Sequence[str] | None = None, limit: int = 20,
                        offset: int = 0) -> list[Session]:
        """Finished sessions, the most recently finished first, of the channels whose setting `key`
        is "on" (or unset, where the channel's id starts with one of `default_on`); of `game`
        only, and only those in which one of `players` (user ids) sat, when given."""

    @abstractmethod
    async def events_published(self, key: str, default_on: Sequence[str], limit: int = 10) -> list[Tournament]:
        """The tournaments that have begun (round 1 or later), the most recently changed first, of the
        channels that show their games as in `published`."""

    @abstractmethod
    async def web_ids(self, kind: str, targets: Sequence[str], new: Callable[[], str]) -> dict[str, str]:
        """Each of `targets` of `kind` (a game, a player, a place) -> its id on the web: the one it
        has, else a `new()` one kept from now on (in one transaction; processes agree on it)."""

    @abstractmethod
    async def web_target(self, token: str) -> tuple[str, str] | None:
        """What the web id `token` stands for: (kind, target), or None."""


# --- what both backends share: rows in, sessions out ---------------------------------------
def dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def offer_outcome(session: Session) -> tuple[str | None, str | None]:
    offer, outcome = session.offer, session.outcome
    return dump(offer.to_json() if offer else None), dump(outcome.to_json() if outcome else None)


def aided_dump(session: Session) -> str | None:
    """The session's helped seats as stored: a JSON object (seat -> how), or NULL for none."""
    return json.dumps({str(seat): str(aid) for seat, aid in sorted(session.aided.items())}) if session.aided else None


def aided_of(text: str | None) -> dict[int, Aid]:
    return {int(seat): Aid(aid) for seat, aid in (load(text) or {}).items()}


def session_of(row: Row, seat_rows: list[list[Any]]) -> Session:
    """A session from its row and its seats' rows ([seat, user_id, name, handle, ai_level, away, accepted])."""
    seats = [Seat(n, user, name, handle, level, bool(away), bool(accepted))
             for n, user, name, handle, level, away, accepted in sorted(seat_rows)]
    session = Session(
        id=row["id"], channel=row["channel"], game=row["game"], status=SessionStatus(row["status"]),
        options=json.loads(row["options"]), seed=row["seed"], seats=seats, starter=row["starter"],
        turn_seconds=row["turn_seconds"], created_at=row["created_at"], updated_at=row["updated_at"],
        state=load(row["state"]), version=row["version"], deadline=row["deadline"],
        offer=Offer.from_json(load(row["offer"])), outcome=Outcome.from_json(load(row["outcome"])), ply=row["ply"],
        bot_turn=bool(row["bot_turn"]), aided=aided_of(row["aided"]),
    )
    session.saved_seats = [replace(seat) for seat in seats]
    return session


def move_of(row: Row) -> MoveRow:
    return MoveRow(row["ply"], row["seat"], row["move"], bool(row["by_ai"]), json.loads(row["state_before"]), row["at"])
