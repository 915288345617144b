"""The outbox: what a channel must see after a commit reaches it, at least once and once on screen.

A commit in a channel of a platform that publishes through the outbox (Discord, Telegram)
writes an outbox row in the commit's own transaction (`Notice`), held by this process. The
host then builds its replies and hands the public ones (the board, the result, the ping to
move: what everyone in the channel sees) to `settle`, which sends them at once and deletes the
row; or, when the platform refuses them (a 429 that is not waited out, a 5xx, a dropped
connection), keeps them in the row with what the platform already took (per reply, the ids of
the messages it made), for the deliverer. The person who moved is never told "something went
wrong" about a move that was applied: the move stands, and its board follows.

The deliverer (`_loop`, supervised: a failing pass is logged and tried again after a back-off)
claims the rows that are due with a lease (`Storage.outbox_claim`: on PostgreSQL `FOR UPDATE
SKIP LOCKED`, so processes claiming at once take different rows; on SQLite one process) and
sends them in the order of their channel's commits, skipping what was already sent, then
deletes them. A row that fails again waits longer (doubling, on the host's clock, up to
`bot.supervised.MOST_BACKOFF`, or as long as the platform said to wait); a refusal that will not change
(`Undeliverable`: the channel is gone, the bot may not post there) or a row older than
`GIVE_UP` is dropped with an error in the log. A row whose replies were never written (its
process died between the commit and the sending, or the command failed after committing) is
sent as the session's board as it is now. The leases are renewed by each claim; a process
that dies stops renewing, and another takes its rows over once they run out. The console
prints what it is given and cannot fail: it has no publisher,
and its commits write no row.

`backlog()` is how many rows are not delivered yet (for a metric).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import enum
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import fields
from datetime import timedelta
from typing import Any

from bot.core import Owed
from bot.model import EVERYONE, Button, Everyone, Reply
from bot.session import Notice, Outgoing
from bot.storage import Storage
from bot.supervised import Wake, backoff, supervise

log = logging.getLogger(__name__)

# publish(channel, reply, ids, key): show `reply` to everyone in `channel`. `ids` holds the
# platform's ids of the messages of this reply it already made (a retry skips as many pieces); the
# publisher appends each id as the platform answers. `key` names this reply of this row, the same
# on every try: a platform that can (Discord's message nonce) uses it so that a message it made
# whose answer was lost is not made again. Raises when the platform refused.
Publish = Callable[[str, Reply, list[str], str], Awaitable[None]]
Regenerate = Callable[[Outgoing], Awaitable[list[Reply]]]
Lock = Callable[[str], contextlib.AbstractAsyncContextManager[Any]]

GIVE_UP = 24 * 3600.0  # seconds after its commit a row still refused is dropped (logged)
IDLE_WAIT = 60.0  # seconds the deliverer sleeps with nothing due that it knows of (one process)
STOP_WAIT = 10.0  # seconds a stopping deliverer may take to finish what it is sending

_collected: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("outbox_keys", default=None)


class Settled(enum.Enum):
    """What `settle` did with a command's public replies."""

    NOTHING = "nothing was committed: the caller sends them itself, as any answer"
    SENT = "sent, or kept for the deliverer"
    REFUSED = "refused for good (the bot may not post there): dropped"


class Undeliverable(Exception):
    """The platform refused a reply for good (the channel is gone, the bot may not post there)."""


def waiting(attempts: int, error: BaseException) -> float:
    """Seconds before trying again: the back-off, or longer if the platform said how long to wait
    (Telegram's RetryAfter carries `retry_after`, in seconds or as a timedelta)."""
    told = getattr(error, "retry_after", None)
    told = told.total_seconds() if isinstance(told, timedelta) else told
    return max(backoff(attempts), float(told) if isinstance(told, int | float) else 0.0)


def public(reply: Reply) -> bool:
    """Whether `reply` is for everyone in the channel (what the outbox carries)."""
    return isinstance(reply.audience, Everyone)


class Outbox(Owed):
    def __init__(self, store: Storage, clock: Callable[[], float], owner: str, lease: float, regenerate: Regenerate,
                 lock: Lock) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner  # whose leases (the host's autoplay's: one owner per process)
        self.lease = lease
        self.regenerate = regenerate  # a row without replies: what the channel is shown instead
        self.lock = lock  # a channel's lock in this process: a row is sent between its commands
        self.publishers: dict[str, Publish] = {}  # platform -> how it shows a public reply
        self.busy: set[str] = set()  # rows this process is building or sending
        self.poll = lease / 3 if store.shared else IDLE_WAIT
        self._soonest: float | None = None  # the next due time this process knows of
        self._wake = Wake()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # --- what a commit owes (`Core` calls these) -------------------------------------------------
    def notice(self, channel: str) -> Notice | None:
        """The outbox row a commit in `channel` writes, if the channel's platform publishes through
        the outbox and someone collects (`collect`) what is owed."""
        if _collected.get() is None or channel.partition(":")[0] not in self.publishers:
            return None
        return Notice(secrets.token_hex(12), channel, self.owner, self.lease, self.clock())

    def committed(self, notice: Notice) -> None:
        keys = _collected.get()
        if keys is not None:
            keys.append(notice.key)
            self.busy.add(notice.key)

    @contextlib.asynccontextmanager
    async def collect(self) -> AsyncIterator[None]:
        """Around one command (or one bot's turns, one timer): the rows its commits write, until
        `settle` takes them. Rows left unsettled (it failed after committing) go to the deliverer,
        which shows the board as it is."""
        keys: list[str] = []
        token = _collected.set(keys)
        try:
            yield
        finally:
            _collected.reset(token)
            if keys:
                self.busy.difference_update(keys)
                log.warning("%d outbox rows left without replies; the deliverer sends the board instead", len(keys))
                self.wake()

    def owing(self) -> bool:
        """Whether the work being collected committed something that owes its channel a message."""
        return bool(_collected.get())

    # --- sending ----------------------------------------------------------------------------------
    async def settle(self, channel: str, replies: list[Reply]) -> Settled:
        """The public `replies` of the commits collected so far in `channel`: sent now (unless an
        older row of the channel still waits: then after it), else kept for the deliverer; dropped
        when the platform refuses them for good (the caller may tell the person who acted)."""
        keys = _collected.get()
        if not keys:
            return Settled.NOTHING
        mine = list(keys)
        keys.clear()
        try:
            return await self._settle(channel, mine, replies)
        except Exception:  # the replies are in the row or the row shows the board: never the command's failure
            log.exception("settling the outbox of %s failed; the deliverer takes it from here", channel)
            self.wake()
            return Settled.SENT
        finally:
            self.busy.difference_update(mine)

    async def _settle(self, channel: str, keys: list[str], replies: list[Reply]) -> Settled:
        if not replies:
            await self.store.outbox_done(keys)
            return Settled.SENT
        last, dropped, now = keys[-1], keys[:-1], self.clock()
        if await self.store.outbox_ahead(channel, keys[0]):
            await self.store.outbox_hold(last, encode(replies), [], 0, now, dropped)
            self._due(now)
            return Settled.SENT
        sent: list[dict[str, Any]] = []
        settled = Settled.SENT
        try:
            await self._publish(channel, replies, sent, last)
        except Undeliverable as error:
            log.error("%s refused the replies for good (%s); dropped", channel, error)
            settled = Settled.REFUSED
        except Exception as error:
            wait = waiting(1, error)
            log.warning("%s refused the replies (%s); trying again in %g s", channel, _said(error), wait)
            await self.store.outbox_hold(last, encode(replies), sent, 1, now + wait, dropped)
            self._due(now + wait)
            return Settled.SENT
        await self.store.outbox_done(keys)
        return settled

    async def _publish(self, channel: str, replies: list[Reply], sent: list[dict[str, Any]], key: str,
                       progress: bool = False) -> None:
        """Each reply not sent yet; `sent` keeps, per reply, the message ids and whether it is done
        (recorded in the row `key` after each reply when `progress`: the row holds the replies)."""
        publish = self.publishers.get(channel.partition(":")[0])
        if publish is None:
            raise Undeliverable(f"no publisher for {channel} in this process")
        for i, reply in enumerate(replies):
            if i == len(sent):
                sent.append({"ids": [], "done": False})
            if sent[i]["done"]:
                continue
            await publish(channel, reply, sent[i]["ids"], f"{key}/{i}")
            sent[i]["done"] = True
            if progress and i < len(replies) - 1:
                await self.store.outbox_progress(key, sent)

    # --- the deliverer ----------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        """Let the deliverer finish what it is sending (cancelled only if that takes `STOP_WAIT`:
        cancelling it inside a transaction could leave the transaction open), then give up the leases."""
        if self._task is not None:
            self._stopping = True
            self.wake()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._task), STOP_WAIT)
            if not self._task.done():
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._task
            self._task = None
        try:
            await self.store.outbox_release(self.owner)  # another process may take the rows over at once
        except Exception as error:
            log.warning("could not give up this process's outbox leases (%s); they run out in %g s", _said(error),
                        self.lease)

    def wake(self) -> None:
        self._wake.set()

    @property
    def next_due(self) -> float | None:
        """When this process will try its next refused row (the host's clock), as far as it knows."""
        return self._soonest

    def _due(self, when: float) -> None:
        self._soonest = when if self._soonest is None else min(self._soonest, when)
        self.wake()

    async def backlog(self) -> int:
        """How many rows are not delivered yet."""
        return await self.store.outbox_backlog()

    async def _loop(self) -> None:
        await supervise(self._pass, self._wake, self.clock, self.poll, _deliverer_failed, lambda: self._stopping)

    async def _pass(self) -> float | None:
        """Deliver what is due; when this process's next refused row is due (None: none known)."""
        await self.deliver_due()
        # what waits, in this process or not; a row due but not taken (a dead process's lease, which
        # runs out on the database's clock) is looked at again in a third of a lease, not IDLE_WAIT
        now = self.clock()
        soonest = await self.store.outbox_next(now, now + self.lease / 3)
        if soonest is not None:
            self._due(soonest)
        return self._soonest

    async def deliver_due(self) -> int:
        """Claim the rows that are due and send them, each channel's in order; how many were sent.
        A channel whose row fails waits (its later rows with it) for the next try."""
        now = self.clock()
        if self._soonest is not None and self._soonest <= now:
            self._soonest = None  # (a row still refused sets it again)
        claimed = await self.store.outbox_claim(now, self.owner, self.lease, sorted(self.publishers))
        blocked: set[str] = set()
        delivered = 0
        for n, row in enumerate(claimed):
            if row.channel in blocked or row.key in self.busy:
                blocked.add(row.channel)
                continue
            self.busy.add(row.key)
            try:
                async with self.lock(row.channel):
                    sent = await self._deliver_now(row.key, claimed[n + 1 :], now)
            finally:
                self.busy.discard(row.key)
            delivered += sent
            if not sent:
                blocked.add(row.channel)
        return delivered

    async def _deliver_now(self, key: str, later: list[Outgoing], now: float) -> bool:
        """Send `key`'s row as it is now, between its channel's commands (the command that committed it
        may have settled it since the claim: sent it, or kept it with its replies); False if refused."""
        row = await self.store.outbox_retake(key, self.owner, self.lease)
        if row is None:
            return False  # sent meanwhile, or another process's now: the channel's later rows wait their turn
        if row.replies is None and any(o.channel == row.channel and o.replies is None for o in later):
            await self.store.outbox_done([row.key])  # one board of the channel as it is now is enough
            return True
        return await self._deliver(row, now)

    async def _deliver(self, row: Outgoing, now: float) -> bool:
        """Send one row; False if the platform refused it (kept, to try again)."""
        if row.replies is None:
            replies = [r for r in await self.regenerate(row) if public(r)]
            log.info("outbox row %s of %s had no replies; sending the board as it is", row.key, row.channel)
        else:
            replies = decode(row.replies)
        sent: list[dict[str, Any]] = row.sent
        try:
            await self._publish(row.channel, replies, sent, row.key, progress=True)
        except Undeliverable as error:
            log.error("%s refused outbox row %s for good (%s); dropped", row.channel, row.key, error)
        except Exception as error:
            attempts = row.attempts + 1
            if now - row.created_at > GIVE_UP:
                log.error("%s refused outbox row %s for %g s (%s); dropped", row.channel, row.key, GIVE_UP,
                          _said(error))
            else:
                log.warning("%s refused outbox row %s again (%d tries: %s); trying again in %g s", row.channel,
                            row.key, attempts, _said(error), waiting(attempts, error))
                await self.store.outbox_hold(row.key, encode(replies), sent, attempts,
                                             now + waiting(attempts, error))
                self._due(now + waiting(attempts, error))
                return False
        await self.store.outbox_done([row.key])
        return True


def _deliverer_failed(failures: int, error: Exception) -> None:
    log.error("the outbox's deliverer failed (%d in a row); trying again in %g s", failures, backoff(failures),
              exc_info=error)


def _said(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]


# --- replies as JSON (pictures in base64); every one is for everyone (`public`) ---------------------
def encode(replies: Iterable[Reply]) -> str:
    out = []
    for reply in replies:
        if not public(reply):
            raise TypeError("only a reply for everyone goes in the outbox")
        data: dict[str, Any] = {}
        for f in fields(reply):
            if f.name == "audience":
                continue
            value = getattr(reply, f.name)
            if f.name == "image":
                value = None if value is None else base64.b64encode(value).decode()
            elif f.name == "buttons":
                value = [[b.label, b.id, b.command] for b in value]
            elif f.name == "mentions":
                value = list(value)
            elif f.name == "names":
                value = dict(value)
            data[f.name] = value
        out.append(data)
    return json.dumps(out)


def decode(text: str) -> list[Reply]:
    replies = []
    for data in json.loads(text):
        known = {f.name for f in fields(Reply)}
        data = {k: v for k, v in data.items() if k in known}
        if data.get("image") is not None:
            data["image"] = base64.b64decode(data["image"])
        data["buttons"] = tuple(Button(*b) for b in data.get("buttons", ()))
        data["mentions"] = tuple(data.get("mentions", ()))
        replies.append(Reply(**data, audience=EVERYONE))
    return replies
