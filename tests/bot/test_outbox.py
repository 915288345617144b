"""The outbox: what a commit owes its channel is written with it,
sent at least once and shown once, in the channel's order, by exactly one live process; on
both databases. The platform here is a publisher that refuses what the test tells it to (the
adapters' own tests refuse through the stand-in Discord and Telegram)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.model import EVERYONE, Reply
from bot.outbox import Settled, decode, encode, public
from bot.session import Change, Notice
from bot.storage import Storage, open_storage
from tests.bot.test_storage_contract import NOW, a_session
from tests.conftest import ALICE, BOB, BOTH, Clock, Table, close_table, open_table
from tests.support.postgres import database_clock, scalar

BACKENDS = BOTH


@pytest.fixture
async def store(database: Path | str):
    opened = await open_storage(str(database))
    yield opened
    await opened.close()


def notice(key: str, channel: str, owner: str = "A", lease: float = 60.0, due: float = NOW) -> Notice:
    return Notice(key, channel, owner, lease, due)


async def owed(store: Storage, key: str, channel: str, owner: str = "A", lease: float = 60.0) -> None:
    """A commit in `channel` that owes it a message (held by `owner`)."""
    session = await store.active(channel) or await store.create(a_session(channel))
    await store.save(session, Change(notice=notice(key, channel, owner, lease)))


async def past_the_lease_of(store: Storage, key: str) -> None:
    until = await scalar(store, "SELECT lease_until FROM outbox WHERE key=?", key)
    async with asyncio.timeout(30):  # only turns a hang into a failure
        while await database_clock(store) <= until:
            await asyncio.sleep(0.05)


# --- the storage ---------------------------------------------------------------------------
async def test_a_row_written_with_a_commit_is_held_by_its_committer_until_it_lets_go(store: Storage) -> None:
    await owed(store, "k1", "c:1")
    assert await store.outbox_backlog() == 1
    assert await store.outbox_claim(NOW, "B", 60) == []  # A is building and sending it
    [mine] = await store.outbox_claim(NOW, "A", 60)  # A's own: its lease renewed
    assert (mine.key, mine.channel, mine.replies, mine.sent, mine.attempts) == ("k1", "c:1", None, [], 0)
    board = Reply("board", audience=EVERYONE)
    await store.outbox_hold("k1", encode([board]), [{"ids": ["7"], "done": False}], 1, NOW + 10)
    assert await store.outbox_claim(NOW, "B", 60) == []  # refused: not again before it is due
    [held] = await store.outbox_claim(NOW + 10, "B", 60)  # let go by A: anyone's once due
    assert decode(held.replies or "") == [board] and held.sent == [{"ids": ["7"], "done": False}]
    assert held.attempts == 1 and held.lease_owner == "B"
    await store.outbox_done(["k1"])
    assert await store.outbox_backlog() == 0


async def test_a_commit_that_conflicts_writes_no_row(store: Storage) -> None:
    session = await store.create(a_session("c:1"))
    stale = await store.get(session.id or 0)
    await store.save(session)
    with pytest.raises(Exception):  # noqa: B017 (Conflict)
        await store.save(stale, Change(notice=notice("k1", "c:1")))  # type: ignore[arg-type]
    assert await store.outbox_backlog() == 0
    created = await store.create(a_session("c:2"), notice("k2", "c:2"))  # a new table owes its lobby
    assert created.id is not None and [o.key for o in await store.outbox_claim(NOW, "A", 60)] == ["k2"]


async def test_a_channels_rows_go_in_the_order_of_its_commits(store: Storage) -> None:
    await owed(store, "k1", "c:1")
    await owed(store, "k2", "c:1")
    await owed(store, "k3", "c:2")
    await store.outbox_hold("k1", encode([Reply("first", audience=EVERYONE)]), [], 1, NOW + 30)  # refused: waits 30 s
    await store.outbox_hold("k2", encode([Reply("second", audience=EVERYONE)]), [], 0, NOW)
    await store.outbox_hold("k3", encode([Reply("elsewhere", audience=EVERYONE)]), [], 0, NOW)
    assert [o.key for o in await store.outbox_claim(NOW, "B", 60)] == ["k3"]  # k2 waits behind k1
    assert [o.key for o in await store.outbox_claim(NOW + 30, "C", 60)] == ["k1", "k2"]  # (k3 is B's)
    assert await store.outbox_claim(NOW + 30, "D", 60) == []


async def test_a_lease_runs_out_and_another_process_takes_the_row(store: Storage) -> None:
    await owed(store, "k1", "c:1", owner="A", lease=0.5)  # A commits, then dies before sending
    assert await store.outbox_claim(NOW, "B", 60) == []
    await past_the_lease_of(store, "k1")
    [taken] = await store.outbox_claim(NOW, "B", 60)
    assert taken.key == "k1" and taken.replies is None  # B sends the board as it is
    assert await store.outbox_claim(NOW, "A", 60) == []  # too late for A


async def test_processes_claiming_at_once_each_take_other_rows(store: Storage, database: Path | str) -> None:
    for n in range(20):
        await owed(store, f"k{n}", f"c:{n}", owner="gone", lease=0.2)
    await past_the_lease_of(store, "k19")
    others = [await open_storage(str(database)) for _ in range(3)]
    try:
        claims = await asyncio.gather(*(o.outbox_claim(NOW, f"P{i}", 60) for i, o in enumerate([store, *others])))
    finally:
        for other in others:
            await other.close()
    keys = [o.key for claimed in claims for o in claimed]
    assert sorted(keys) == sorted(f"k{n}" for n in range(20))  # each row once: nobody took one twice


async def test_a_process_delivers_only_to_the_platforms_it_speaks_to(store: Storage) -> None:
    await owed(store, "d", "discord:1", owner="gone", lease=0.2)
    await owed(store, "t", "telegram:-5", owner="gone", lease=0.2)
    await past_the_lease_of(store, "t")
    assert await store.outbox_claim(NOW, "console", 60, ["console"]) == []
    assert [o.key for o in await store.outbox_claim(NOW, "discord", 60, ["discord"])] == ["d"]
    assert [o.key for o in await store.outbox_claim(NOW, "both", 60, ["discord", "telegram"])] == ["t"]  # d: held


# --- the host ----------------------------------------------------------------------------------
@dataclass
class Platform:
    """A platform that shows public replies, refusing the next `refusals` of them."""

    refusals: int = 0
    shown: list[Reply] = field(default_factory=list)
    tries: int = 0

    async def publish(self, channel: str, reply: Reply, ids: list[str], key: str) -> None:
        self.tries += 1
        if self.refusals > 0:
            self.refusals -= 1
            raise ConnectionResetError("the platform dropped the connection")
        self.shown.append(reply)
        ids.append(str(len(self.shown)))


async def a_table(database: Path | str, clock: Clock, platform: Platform, **options: object) -> Table:
    table = await open_table(database, clock, **options)

    async def deliver(channel: str, replies: list[Reply]) -> None:
        table.delivered.extend(replies)

    table.host.attach("console", deliver, platform.publish)
    return table


@pytest.fixture
def platform() -> Platform:
    return Platform()


@pytest.fixture
async def table(database: Path | str, clock: Clock, platform: Platform) -> AsyncIterator[Table]:
    """A console table whose public replies go through the outbox to `platform` (as Discord's and
    Telegram's do; the console's own path writes no row)."""
    table = await a_table(database, clock, platform)
    yield table
    await close_table(table)


async def emptied(table: Table) -> None:
    """Wait until the outbox has nothing left (a row is deleted just after it is shown)."""
    async with asyncio.timeout(20):
        while await table.host.outbox.backlog():
            await asyncio.sleep(0.01)


async def tried_until_shown(table: Table, platform: Platform, count: int) -> None:
    async with asyncio.timeout(60):  # only turns a hang into a failure
        while len(platform.shown) < count:
            due = table.host.outbox.next_due
            if due is not None and due > table.clock():
                table.clock.now = due  # the host's clock at the next try, not past it (nor the turn's time)
            await table.host.outbox.deliver_due()
            await asyncio.sleep(0.01)  # (its own deliverer may be trying meanwhile)


async def test_a_board_the_platform_refused_is_shown_once_later(platform: Platform, table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    assert [r.board for r in platform.shown] == [False, True]  # the lobby, then the board
    platform.refusals = 3
    answer = await table.say(ALICE, "/take 1 2")  # committed, then refused
    assert [r.text for r in answer if not public(r)] == []  # nobody is told it failed: it did not
    assert (await table.session()).state["heaps"] == [1, 4]
    assert await table.host.outbox.backlog() == 1 and len(platform.shown) == 2
    await tried_until_shown(table, platform, 3)
    assert platform.tries == 2 + 4 and "Alice took 2" in platform.shown[-1].text  # shown once, on the 4th try
    assert platform.shown[-1].image is not None and platform.shown[-1].board
    assert await table.host.outbox.backlog() == 0
    await table.say(BOB, "/take 2 1")  # the next move goes at once
    assert len(platform.shown) == 4 and await table.host.outbox.backlog() == 0


async def test_what_a_channel_is_owed_goes_after_what_it_still_waits_for(platform: Platform, table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    platform.refusals = 1
    await table.say(ALICE, "/take 1 2")  # refused: waits
    await table.say(BOB, "/take 2 1")  # not sent before Alice's move, though the platform takes it now
    assert len(platform.shown) == 2 and await table.host.outbox.backlog() == 2
    await tried_until_shown(table, platform, 4)
    assert ["Alice took 2" in platform.shown[2].text, "Bob took 1" in platform.shown[3].text] == [True, True]


async def test_a_row_claimed_while_its_command_settles_goes_with_its_replies(platform: Platform, table: Table,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The deliverer claims a channel's waiting row and the next one while the next one's command is still
    settling it (it finds the first waiting and keeps its replies for the deliverer): the deliverer sends
    what that command kept, not the board as it is (which would lose what the move said)."""
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    platform.refusals = 1
    await table.say(ALICE, "/take 1 2")  # refused: waits for its next try
    outbox, store = table.host.outbox, table.host.store
    claimed = asyncio.Event()
    claim = store.outbox_claim

    async def noted_claim(*args, **kwargs):
        rows = await claim(*args, **kwargs)
        if len(rows) == 2:
            claimed.set()
        return rows

    monkeypatch.setattr(store, "outbox_claim", noted_claim)
    session = await table.session()
    async with table.host.core.locks[session.channel], outbox.collect():  # Bob's command, under way
        await table.host.core.commit(session)
        table.clock.now = outbox.next_due or table.clock.now  # the refused row is due again
        delivering = asyncio.ensure_future(outbox.deliver_due())
        await asyncio.wait_for(claimed.wait(), 30)  # both rows claimed; the second without replies yet
        assert await outbox.settle(session.channel, [Reply("Bob said this", audience=EVERYONE)]) is Settled.SENT
    await asyncio.wait_for(delivering, 30)
    await tried_until_shown(table, platform, 4)
    assert "Alice took 2" in platform.shown[2].text and platform.shown[3].text == "Bob said this"
    await emptied(table)


async def test_a_retry_skips_the_replies_already_shown(platform: Platform, table: Table) -> None:
    outbox = table.host.outbox
    refused: list[Reply] = []

    keys: list[tuple[str, str]] = []

    async def refuse_the_second_once(channel: str, reply: Reply, ids: list[str], key: str) -> None:
        keys.append((reply.text, key))
        if reply.text == "two" and not refused:
            refused.append(reply)
            raise TimeoutError("no answer")
        await platform.publish(channel, reply, ids, key)

    outbox.publishers["console"] = refuse_the_second_once
    async with outbox.collect():
        await table.host.core.commit(await table.store.create(a_session("console:test")))
        both = [Reply("one", audience=EVERYONE), Reply("two", audience=EVERYONE)]
        assert await outbox.settle("console:test", both) is Settled.SENT
    assert [r.text for r in platform.shown] == ["one"] and refused
    await tried_until_shown(table, platform, 2)
    # Each reply has its own name, the same on every try (Discord's nonce: a lost answer is not made twice).
    (_, one), (_, two), (_, again) = keys
    assert [text for text, _ in keys] == ["one", "two", "two"] and two == again != one
    assert [r.text for r in platform.shown] == ["one", "two"]  # "one" not again


async def test_a_commit_whose_replies_were_never_built_shows_the_board(platform: Platform, table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    session = await table.session()
    with pytest.raises(RuntimeError):
        async with table.host.outbox.collect():
            await table.host.core.commit(session)
            raise RuntimeError("the replies could not be built")
    assert await table.host.outbox.backlog() == 1
    await tried_until_shown(table, platform, 3)  # (its deliverer was woken, and may be first)
    assert len(platform.shown) == 3 and platform.shown[-1].board and platform.shown[-1].image is not None
    assert "Alice, your move." in platform.shown[-1].text
    await emptied(table)


@pytest.mark.backends("postgres")  # a SQLite file is for one process
async def test_two_processes_show_a_waiting_row_once(database: Path | str, clock: Clock) -> None:
    platform = Platform()  # one platform both processes speak to
    first = await a_table(database, clock, platform)
    second = await a_table(database, clock, platform)
    try:
        platform.refusals = 1
        await first.say(ALICE, "/nim start 3 4")  # refused: the lobby waits in the outbox
        assert platform.shown == [] and await second.host.outbox.backlog() == 1
        clock.advance(61)
        async with asyncio.timeout(30):  # only turns a hang into a failure
            while not platform.shown:  # (each process's own deliverer may be sending it meanwhile)
                await asyncio.gather(first.host.outbox.deliver_due(), second.host.outbox.deliver_due())
        for _ in range(3):
            await asyncio.gather(first.host.outbox.deliver_due(), second.host.outbox.deliver_due())
        await emptied(first)
        assert [r.text.splitlines()[0] for r in platform.shown] == ["Alice opened a table for Nim."]
        assert await first.host.outbox.backlog() == 0
    finally:
        await close_table(first)
        await close_table(second)


async def test_a_row_of_a_process_that_died_is_sent_by_another(platform: Platform, table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    session = await table.session()
    # Another process committed in this channel and died before sending anything.
    await table.store.save(session, Change(notice=notice("dead", "console:test", owner="dead", lease=0.5)))
    assert await table.host.outbox.deliver_due() == 0  # its lease still runs
    await past_the_lease_of(table.store, "dead")
    await tried_until_shown(table, platform, 3)
    assert len(platform.shown) == 3 and platform.shown[-1].board
    await emptied(table)


async def test_the_running_deliverer_sends_a_dead_processs_row_once_its_lease_runs_out(platform: Platform,
                                                                                      table: Table) -> None:
    """No command, no call: the deliverer's own loop finds the row leased by a dead process, and looks
    again within a third of a lease, not after IDLE_WAIT (60 s) as before (it saw nothing due later)."""
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    await emptied(table)
    shown = len(platform.shown)
    session = await table.store.active("console:test")
    assert session is not None
    await table.store.save(session, Change(notice=notice("dead", "console:test", owner="dead", lease=1.0)))
    table.host.outbox.wake()  # it looks at once: the row is still leased
    async with asyncio.timeout(30):  # only turns a hang into a failure: IDLE_WAIT is 60 s
        while len(platform.shown) == shown:
            await asyncio.sleep(0.05)
    assert platform.shown[-1].board
    await emptied(table)


async def test_the_console_path_writes_no_row(database: Path | str, clock: Clock) -> None:
    console = await open_table(database, clock)
    try:
        await console.say(ALICE, "/nim start 3 4")
        replies = await console.say(BOB, "/join")
        assert any(r.board for r in replies) and await console.host.outbox.backlog() == 0
    finally:
        await close_table(console)
