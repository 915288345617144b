"""The storage contract, method by method, on both databases with the same expectations: what
one backend answers, the other answers the same (stats, leaderboards, their order), and
background work is held by one owner at a time until it lets go or its lease runs out."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from dataclasses import replace

import pytest

from bot.session import Change, ChannelBusy, Conflict, MoveRow, Result, Seat, Session, SessionStatus
from bot.storage import Storage, StorageUnavailable, Throttle, grouped
from bot.storage.contract import Storage as Contract
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage
from tests.conftest import BOTH
from tests.support.postgres import database_clock, scalar
from tests.support.stores import opened_store  # noqa: F401  (the fixture `store`)

BACKENDS = BOTH
NOW = 1_700_000_000.0


def a_session(channel: str, status: SessionStatus = SessionStatus.LOBBY, deadline: float | None = None,
              bot_turn: bool = False, players: tuple[str, ...] = ("alice", "bob")) -> Session:
    seats = [Seat(n, f"u:{name}", name.title()) for n, name in enumerate(players)]
    return Session(channel=channel, game="nim", status=status, options={"heaps": [3, 4]}, seed=2**61 + 5,
                   seats=seats, starter="u:alice", turn_seconds=300, created_at=NOW, updated_at=NOW,
                   state={"heaps": [3, 4]}, deadline=deadline, bot_turn=bot_turn)


def test_both_backends_implement_every_method_of_the_contract() -> None:
    assert not SQLiteStorage.__abstractmethods__ and not PostgresStorage.__abstractmethods__
    assert issubclass(SQLiteStorage, Contract) and issubclass(PostgresStorage, Contract)


async def test_a_session_reads_back_as_it_was_written(store: Storage) -> None:
    created = await store.create(a_session("c:1", SessionStatus.PLAYING, deadline=NOW + 1.5, bot_turn=True))
    read = await store.get(created.id or 0)
    assert read == created and read.seed == 2**61 + 5 and read.bot_turn
    assert [s.name for s in read.seats] == ["Alice", "Bob"]
    assert await store.active("c:1") == created and await store.latest("c:1") == created
    assert [s.id for s in await store.active_sessions()] == [created.id]
    assert await store.next_deadline() == NOW + 1.5


async def test_active_sessions_are_counted_by_status_and_game(store: Storage) -> None:
    assert await store.active_counts() == {}
    await store.create(a_session("c:1", SessionStatus.PLAYING))
    await store.create(a_session("c:2", SessionStatus.PLAYING))
    await store.create(a_session("c:3"))
    done = await store.create(a_session("c:4", SessionStatus.PLAYING))
    done.status = SessionStatus.FINISHED
    await store.save(done)
    assert await store.active_counts() == {("playing", "nim"): 2, ("lobby", "nim"): 1}


async def test_one_active_session_per_channel_and_stale_saves(store: Storage) -> None:
    first = await store.create(a_session("c:1"))
    with pytest.raises(ChannelBusy):
        await store.create(a_session("c:1"))
    stale = await store.get(first.id or 0)
    first.seats[1].away = True
    await store.save(first)
    stale.state = {"heaps": [0, 0]}
    with pytest.raises(Conflict):
        await store.save(stale, Change(results=[Result(0, "u:alice", "Alice", 1, "win")]))
    stored = await store.get(first.id or 0)
    assert stored.state == {"heaps": [3, 4]} and stored.seats[1].away and stored.version == 1
    assert await store.game_results("nim") == []  # the stale save's results were not written either


async def test_a_command_reads_its_session_and_the_channels_settings_at_once(store: Storage) -> None:
    assert await store.enter("c:1") == (None, {})
    await store.set_setting("c:1", "language", "zh")
    await store.set_setting("c:1", "telegram.board", "7")
    await store.set_setting("c:2", "language", "en")
    assert await store.enter("c:1") == (None, {"language": "zh", "telegram.board": "7"})
    created = await store.create(a_session("c:1", SessionStatus.PLAYING))
    await store.create(a_session("c:2"))
    assert await store.enter("c:1") == (created, {"language": "zh", "telegram.board": "7"})
    created.status = SessionStatus.FINISHED
    await store.save(created)
    assert await store.enter("c:1") == (None, {"language": "zh", "telegram.board": "7"})  # only an active one
    assert (await store.enter("c:2"))[1] == {"language": "en"}


async def test_saves_of_many_channels_at_once_each_commit_or_conflict_alone(store: Storage) -> None:
    sessions = [await store.create(a_session(f"c:{n}", SessionStatus.PLAYING)) for n in range(30)]
    stale = [await store.get(s.id or 0) for s in sessions[::3]]
    for n, session in enumerate(sessions):
        session.state, session.ply = {"heaps": [n, 1]}, 1
    moves = [Change(move=MoveRow(0, 0, f"1 {n}", False, {"heaps": [3, 4]}, NOW)) for n in range(30)]
    await asyncio.gather(*(store.save(s, m) for s, m in zip(sessions, moves, strict=True)))
    for s in stale:  # each of these, saved together with fresh saves, finds its version stale
        s.state = {"heaps": [0, 0]}
    fresh = [await store.get(s.id or 0) for s in sessions[1::3]]
    for s in fresh:
        s.seats[0].away = True
    outcomes = await asyncio.gather(*(store.save(s, Change(move=MoveRow(1, 1, "2 1", False, {}, NOW)))
                                      for s in [*stale, *fresh]), return_exceptions=True)
    assert all(isinstance(o, Conflict) for o in outcomes[:len(stale)]) and outcomes[len(stale):] == [None] * 10
    for n, session in enumerate(sessions):
        stored = await store.get(session.id or 0)
        moved_again = n % 3 == 1
        assert stored.state == {"heaps": [n, 1]} and stored.version == 1 + moved_again
        assert stored.seats[0].away == moved_again
        assert [m.move for m in await store.moves(session.id or 0)] == [f"1 {n}", *(["2 1"] if moved_again else [])]


async def test_settings_and_a_chat_that_changed_its_id(store: Storage) -> None:
    assert await store.setting("c:old", "lang") is None
    await store.set_setting("c:old", "lang", "zh")
    await store.set_setting("c:old", "lang", "en")
    await store.set_setting("c:old", "telegram.board", "7")
    await store.set_setting("c:new", "lang", "zh")  # the new id already had a setting: the old one wins
    session = await store.create(a_session("c:old"))
    await store.move_channel("c:old", "c:new")
    assert (await store.active("c:new")).id == session.id and await store.active("c:old") is None
    assert await store.setting("c:new", "lang") == "en" and await store.setting("c:new", "telegram.board") == "7"
    assert await store.setting("c:old", "lang") is None


async def test_work_is_held_by_one_owner_until_released(store: Storage) -> None:
    lobby = await store.create(a_session("c:lobby", deadline=NOW - 1))  # its wait is over
    later = await store.create(a_session("c:later", deadline=NOW + 60))  # not yet
    bot = await store.create(a_session("c:bot", SessionStatus.PLAYING, bot_turn=True))  # a bot to move
    over = await store.create(a_session("c:over", SessionStatus.PLAYING, deadline=NOW - 2))
    claimed = await store.claim(NOW, "A", 60)
    assert [s.id for s in claimed] == [over.id, lobby.id, bot.id]  # deadlines first, the soonest first
    assert claimed[0].seats == over.seats and claimed[2].bot_turn
    assert await store.claim(NOW, "B", 60) == []  # A holds them all
    assert [s.id for s in await store.claim(NOW, "A", 60)] == [over.id, lobby.id, bot.id]  # A again: its own
    assert not await store.claim_session(bot.id or 0, "B", 60)
    await store.release("A", [bot.id or 0])
    assert await store.claim_session(bot.id or 0, "B", 60)
    assert [s.id for s in await store.claim(NOW + 61, "B", 60)] == [later.id, bot.id]  # later's wait is over too
    await store.release("A")
    assert [s.id for s in await store.claim(NOW, "B", 60)] == [over.id, lobby.id, bot.id]


async def past_the_lease_of(store: Storage, *sessions: Session) -> None:
    """Wait until the database's clock is past the leases `sessions` have now."""
    until = max([await scalar(store, "SELECT lease_until FROM sessions WHERE id=?", s.id) for s in sessions])
    async with asyncio.timeout(30):  # only turns a hang into a failure
        while await database_clock(store) <= until:
            await asyncio.sleep(0.05)


async def test_a_lease_runs_out_unless_claimed_again(store: Storage) -> None:
    kept = await store.create(a_session("c:kept", SessionStatus.PLAYING, bot_turn=True))
    lost = await store.create(a_session("c:lost", SessionStatus.PLAYING, bot_turn=True))
    assert await store.claim_session(kept.id or 0, "A", 0.5)
    assert await store.claim_session(lost.id or 0, "A", 0.5)
    await past_the_lease_of(store, lost)
    assert await store.claim_session(kept.id or 0, "A", 60)  # A still works on `kept`: its lease renewed
    assert [s.id for s in await store.claim(NOW, "B", 60)] == [lost.id]  # `lost` ran out: B takes it
    assert not await store.claim_session(lost.id or 0, "A", 60)  # too late for A


async def test_each_pass_of_claims_renews_what_the_process_holds(store: Storage) -> None:
    bot = await store.create(a_session("c:bot", SessionStatus.PLAYING, bot_turn=True))
    assert await store.claim_session(bot.id or 0, "A", 0.5)  # A's bot starts thinking
    first = await scalar(store, "SELECT lease_until FROM sessions WHERE id=?", bot.id)
    assert [s.id for s in await store.claim(NOW, "A", 60)] == [bot.id]  # A's next pass
    async with asyncio.timeout(30):
        while await database_clock(store) <= first:
            await asyncio.sleep(0.05)
    assert await store.claim(NOW, "B", 60) == []  # past the first lease, A holds it all the same


async def test_a_process_claims_work_only_in_channels_of_its_platforms(store: Storage) -> None:
    on_discord = await store.create(a_session("discord:1", deadline=NOW - 1))
    on_telegram = await store.create(a_session("telegram:-5", SessionStatus.PLAYING, bot_turn=True))
    assert await store.claim(NOW, "console only", 60, ["console"]) == []
    assert [s.id for s in await store.claim(NOW, "discord", 60, ["discord"])] == [on_discord.id]
    assert [s.id for s in await store.claim(NOW, "both", 60, ["discord", "telegram"])] == [on_telegram.id]


@pytest.mark.backends("sqlite")
async def test_sqlite_commits_the_saves_that_arrive_together_in_one_transaction(store: SQLiteStorage) -> None:
    sessions = [await store.create(a_session(f"c:{n}", SessionStatus.PLAYING)) for n in range(20)]
    batches: list[int] = []
    hop = store._group._hop

    async def counted(fn, batch):  # type: ignore[no-untyped-def]
        batches.append(len(batch))
        return await hop(fn, batch)

    store._group._hop = counted
    await asyncio.gather(*(store.save(s, Change(move=MoveRow(0, 0, "1 1", False, {}, NOW))) for s in sessions))
    assert sum(batches) == 20 and len(batches) < 20, batches  # the first alone, the rest queued behind it
    assert [(await store.get(s.id or 0)).version for s in sessions] == [1] * 20


@pytest.mark.backends("postgres")
async def test_a_command_that_waited_for_the_channel_reads_what_the_one_before_it_wrote(store: Storage) -> None:
    """The lock and the read are one round trip: the read must still come after the lock is
    granted (a read in the same statement would see the database as it was before the wait)."""
    created = await store.create(a_session("c:1", SessionStatus.PLAYING))
    second_read = None

    async def second() -> None:
        nonlocal second_read
        async with store.exclusive("c:1"):
            second_read, _ = await store.enter("c:1")

    async with store.exclusive("c:1"):
        session, _ = await store.enter("c:1")
        waiting = asyncio.ensure_future(second())
        while not await scalar(store, "SELECT COUNT(*) FROM pg_locks WHERE locktype='advisory' AND NOT granted"):
            await asyncio.sleep(0.01)  # until the second command waits for the lock, inside its read
        session.state = {"heaps": [1, 1]}
        await store.save(session, Change(move=MoveRow(0, 0, "1 2", False, {"heaps": [3, 4]}, NOW)))
    await waiting
    assert second_read is not None and second_read.version == 1 == created.version + 1
    assert second_read.state == {"heaps": [1, 1]}


async def test_a_save_that_fails_on_its_own_fails_alone(store: Storage) -> None:
    """Saved together (on SQLite in one transaction), a save whose move row is refused (its ply
    is taken) writes nothing and says so; the others are committed."""
    sessions = [await store.create(a_session(f"c:{n}", SessionStatus.PLAYING)) for n in range(8)]
    for s in sessions:
        await store.save(s, Change(move=MoveRow(0, 0, "1 1", False, {}, NOW)))
    for n, s in enumerate(sessions):
        s.state = {"heaps": [n, n]}
    ply = {n: 0 if n == 5 else 1 for n in range(8)}  # the sixth repeats ply 0
    outcomes = await asyncio.gather(*(store.save(s, Change(move=MoveRow(ply[n], 1, "2 1", False, {}, NOW)))
                                      for n, s in enumerate(sessions)), return_exceptions=True)
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 5 + ["StorageUnavailable"] + ["NoneType"] * 2
    for n, s in enumerate(sessions):
        stored = await store.get(s.id or 0)
        assert (stored.version, stored.state) == ((1, {"heaps": [3, 4]}) if n == 5 else (2, {"heaps": [n, n]}))
        assert len(await store.moves(s.id or 0)) == (1 if n == 5 else 2)


async def _saved_together(store: Storage, count: int, bad: int, spoil) -> tuple[list[Session], list[object]]:  # type: ignore[no-untyped-def]
    """`count` sessions saved at once (on SQLite the `bad`-th, spoilt by `spoil`, in one
    transaction with others: checked); each save's outcome (None, or what it raised)."""
    sessions = [await store.create(a_session(f"c:{n}", SessionStatus.PLAYING)) for n in range(count)]
    for n, s in enumerate(sessions):
        s.state = {"heaps": [n, n]}
    spoil(sessions[bad])
    batches: list[int] = []
    if isinstance(store, SQLiteStorage):
        hop = store._group._hop

        async def counted(fn, batch):  # type: ignore[no-untyped-def]
            batches.append(len(batch))
            return await hop(fn, batch)

        store._group._hop = counted
    outcomes = await asyncio.gather(*(store.save(s, Change(move=MoveRow(0, 0, "1 1", False, {}, NOW)))
                                      for s in sessions), return_exceptions=True)
    if isinstance(store, SQLiteStorage):
        ends = [sum(batches[: n + 1]) for n in range(len(batches))]  # the saves in order, batch by batch
        shared = next(size for size, end in zip(batches, ends, strict=True) if bad < end)
        assert sum(batches) == count and shared > 1, batches  # the bad one shared a transaction
    return sessions, list(outcomes)


async def _committed_but(store: Storage, sessions: list[Session], bad: int) -> None:
    for n, s in enumerate(sessions):
        stored = await store.get(s.id or 0)
        assert (stored.version, stored.state) == ((0, {"heaps": [3, 4]}) if n == bad else (1, {"heaps": [n, n]}))
        assert len(await store.moves(s.id or 0)) == (0 if n == bad else 1)


async def test_a_save_that_raises_any_error_fails_alone(store: Storage) -> None:
    """A save the driver cannot even bind (a name with a lone surrogate, which UTF-8 cannot
    encode: not a database error) gets its own error and writes nothing; the saves that shared
    its transaction are committed and say so."""

    def unencodable(session: Session) -> None:
        session.seats[1] = replace(session.seats[1], name="b\udfffb")

    sessions, outcomes = await _saved_together(store, 8, 7, unencodable)
    assert outcomes[:7] == [None] * 7
    assert isinstance(outcomes[7], Exception) and "surrogates not allowed" in str(outcomes[7])  # its own error
    await _committed_but(store, sessions, 7)


@pytest.mark.backends("sqlite")
async def test_a_save_whose_error_undoes_the_whole_transaction_fails_alone(
        store: SQLiteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite rolls a whole transaction back on some errors of one statement (a full disk, an I/O
    error), savepoints and all: the saves that shared it are written again, each in a transaction
    of its own, and only the one at fault fails."""
    real, spoilt = grouped.write, set()

    def rolls_all_back(conn: sqlite3.Connection, rows: grouped.Rows) -> bool:
        written = real(conn, rows)
        if rows[0][-2] in spoilt:  # the UPDATE's parameters end with the session's id and version
            conn.execute("ROLLBACK")  # as SQLite does by itself on SQLITE_FULL or SQLITE_IOERR
            raise sqlite3.OperationalError("database or disk is full")
        return written

    monkeypatch.setattr(grouped, "write", rolls_all_back)
    sessions, outcomes = await _saved_together(store, 8, 4, lambda session: spoilt.add(session.id))
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 4 + ["StorageUnavailable"] + ["NoneType"] * 3
    await _committed_but(store, sessions, 4)


@pytest.mark.backends("sqlite")
async def test_calls_racing_with_close_are_told_the_storage_is_unavailable(store: SQLiteStorage) -> None:
    """A process stopping closes its store while commands and background work may still be on their
    way: each of them gets `StorageUnavailable` (the host answers "try again"), never aiosqlite's
    ValueError for a closed connection, which escaped as a crash."""
    sessions = [await store.create(a_session(f"c:{n}", SessionStatus.PLAYING)) for n in range(10)]
    done = 0

    async def busy(s: Session) -> None:
        nonlocal done
        for ply in range(1000):
            await store.save(s, Change(move=MoveRow(ply, ply % 2, "1 1", False, {}, NOW)))
            await store.enter(s.channel)
            await store.next_deadline()
            await store.skills("nim")
            done += 1

    tasks = [asyncio.ensure_future(busy(s)) for s in sessions]
    async with asyncio.timeout(60):
        while done < 30:
            await asyncio.sleep(0.001)
    await store.close()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert {type(o).__name__ for o in outcomes} == {"StorageUnavailable"}, outcomes
    with pytest.raises(StorageUnavailable, match="closed"):
        await store.get(sessions[0].id or 0)


@pytest.mark.backends("sqlite")
async def test_a_transaction_whose_task_is_cancelled_leaves_the_connection_out_of_it(store: SQLiteStorage) -> None:
    """A task cancelled while it waits for a trip of its transaction (the host stopping its
    background work, say): the trip runs in the database's thread all the same, and the rollback
    comes after it, so the next transaction begins (was: 'cannot start a transaction within a
    transaction' for every write after it, and the one-trip writes left uncommitted)."""
    for turn in range(20):
        task = asyncio.ensure_future(store.issue_code("u:a", f"CODE{turn:02d}", NOW, NOW + 600))
        for _ in range(turn % 4):  # cancelled at its BEGIN, its DELETE, its INSERT, its COMMIT
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.issue_code("u:b", f"NEXT{turn:02d}", NOW, NOW + 600)
        assert not store.db.in_transaction
    assert (await store.redeem_code("u:c", "NEXT19", NOW, Throttle(900.0, 5, 50))).owner == "u:b"
