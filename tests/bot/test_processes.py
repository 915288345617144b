"""Several gamehost processes on one PostgreSQL database: one truth.

Per-channel order holds across processes (an advisory lock per channel, not a "try again"),
a process busy with one session does not hold up the others' claims (SKIP LOCKED), and two
real host processes (tests/support/hostproc.py), one of them killed with SIGKILL mid-run, apply every
accepted move exactly once, lose none, and fire each timer once; the dead one's bot turn is
played by the survivor once its lease has run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import signal
import sys
from pathlib import Path
from typing import Any

import asyncpg

from bot.ai import AIRunner
from bot.host import Host
from bot.model import Event
from bot.session import SessionStatus
from bot.storage import Storage, open_storage
from bot.storage.postgres import PostgresStorage
from tests.bot.test_storage_contract import NOW, a_session
from tests.conftest import ALICE, BOB, Clock, close_table, open_table, until

BACKENDS = ("postgres",)
ROOT = Path(__file__).parents[2]
TRY_AGAIN = "The game changed at the same moment; please try again."


async def test_two_processes_keep_a_channels_moves_in_order(database: str) -> None:
    """Both players fire their moves at two hosts with stores of their own at once: each move is
    taken in turn or refused as out of turn, never lost to a collision ("try again")."""
    table = await open_table(database, Clock())
    other_store = await open_storage(database)
    other = Host(other_store, AIRunner(0), clock=table.clock)
    try:
        await table.say(ALICE, "/nim start 40 40")
        await table.say(BOB, "/join")
        hosts = (table.host, other)
        for _ in range(6):
            said = await asyncio.gather(*(host.handle(Event(table.channel, user, "/take 1 1"))
                                          for host in hosts for user in [ALICE, BOB] * 3))
            texts = [r.text for replies in said for r in replies]
            assert TRY_AGAIN not in texts, texts
        moves = await table.store.moves((await table.session()).id)
        assert [m.seat for m in moves] == [i % 2 for i in range(len(moves))] and len(moves) >= 6
    finally:
        await other.stop()
        other.ai.close()
        await other_store.close()
        await close_table(table)


async def test_a_claim_skips_a_session_another_process_is_writing(database: str) -> None:
    store = await PostgresStorage.open(database, lock_timeout_ms=300)
    writer = await asyncpg.connect(database)
    try:
        busy = await store.create(a_session("c:busy", deadline=NOW - 2))
        free = await store.create(a_session("c:free", deadline=NOW - 1))
        async with writer.transaction():  # another process in the middle of saving `busy`
            await writer.execute("SELECT * FROM sessions WHERE id=$1 FOR UPDATE", busy.id)
            assert [s.id for s in await store.claim(NOW, "A", 60)] == [free.id]  # no wait for the lock
        assert [s.id for s in await store.claim(NOW, "B", 60)] == [busy.id]
    finally:
        await writer.close()
        await store.close()


# --- two real processes, one killed --------------------------------------------------------------
class Dead(Exception):
    """The process died before it answered."""


class HostProcess:
    """A tests/support/hostproc.py process and the conversation with it."""

    ids = itertools.count(1)

    def __init__(self, name: str, process: asyncio.subprocess.Process) -> None:
        self.name, self.process = name, process
        self.pending: dict[int, asyncio.Future[list[dict[str, Any]]]] = {}
        self.delivered: list[tuple[str, list[str]]] = []
        self.published: list[tuple[str, str]] = []  # (channel, text) of what its outbox showed
        self.ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.killed_at = 0.0
        self.reading = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, name: str, url: str, log: Path, *flags: str) -> HostProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.hostproc", url, *flags, cwd=ROOT, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=log.open("w"), limit=2**20,
        )
        started = cls(name, process)
        async with asyncio.timeout(120):
            await started.ready
        return started

    @property
    def alive(self) -> bool:
        return self.process.returncode is None and not self.reading.done()

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            if "ready" in message:
                self.ready.set_result(message["ready"])
            elif "delivered" in message:
                self.delivered.append((message["delivered"], message["texts"]))
            elif "published" in message:
                self.published.append((message["published"], message["text"]))
            elif "id" in message:
                self.pending.pop(message["id"]).set_result(message["replies"])
        for future in [self.ready, *self.pending.values()]:
            if not future.done():
                future.set_exception(Dead(self.name))

    async def send(self, channel: str, user: str, text: str = "", button: str | None = None) -> list[dict[str, Any]]:
        number = next(self.ids)
        answer = self.pending[number] = asyncio.get_running_loop().create_future()
        self._write({"id": number, "channel": channel, "user": user, "text": text, "button": button})
        return await answer

    async def advance(self, seconds: float) -> None:
        self._write({"advance": seconds})

    def _write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())

    def said(self, channel: str, words: str) -> int:
        """How many times this process told `channel` something with `words`, unasked."""
        return sum(words in text for where, texts in self.delivered if where == channel for text in texts)

    async def kill(self) -> None:
        self.killed_at = asyncio.get_running_loop().time()
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self.reading

    async def stop(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        with contextlib.suppress(Exception):
            await self.reading


def first_text(replies: list[dict[str, Any]] | BaseException) -> str:
    return replies[0]["text"] if isinstance(replies, list) and replies else ""


LEASE = 10.0  # seconds: how long the dead process's bot turn stays held (A renews it every third of
# that while alive; at 4 s a loaded machine once starved A past it and B rightly took the turn early)
GAMES = [f"console:game-{n}" for n in range(4)]
SOLOS = [f"console:solo-{n}" for n in range(2)]
LOBBIES = [f"console:lobby-{n}" for n in range(2)]
MOVES = 16  # per game; the i-th is "heap i % 8 + 1, i // 8 + 1 stones": no two alike in a game
KILL_AT = len(GAMES) * MOVES // 2  # moves accepted in all before the kill


async def test_two_host_processes_one_killed_mid_run(database: str, tmp_path: Path) -> None:
    a = await HostProcess.start("A", database, tmp_path / "a.log", "--lease", str(LEASE), "--stuck-ai")
    b = await HostProcess.start("B", database, tmp_path / "b.log", "--lease", str(LEASE))
    store = await open_storage(database)  # the test's own view of the truth
    try:
        await both_alive_fire_each_lobby_timer_once(a, b)
        await a_holds_a_bot_turn(a)
        sent: dict[str, list[str]] = {}
        done = itertools.count(1)
        await asyncio.gather(*(play(game, a, b, store, sent, done) for game in GAMES))
        assert not a.alive and a.process.returncode == -signal.SIGKILL
        for game in GAMES:  # every move sent was applied once, in order; none lost, none twice
            session = await store.latest(game)
            assert [m.move for m in await store.moves(session.id)] == sent[game] and session.ply == MOVES
        # The dead process's bot turns: played by the survivor, once, when its lease ran out.
        await until(lambda: all(b.said(solo, "Carol, your move.") for solo in SOLOS), timeout=60)
        handover = asyncio.get_running_loop().time() - a.killed_at
        assert handover < 30, f"the survivor took {handover:.1f} s to take the dead one's work over"
        print(f"handed over {handover:.1f} s after the kill (lease {LEASE:g} s)")
        for solo in SOLOS:
            moves = await store.moves((await store.latest(solo)).id)
            assert [m.by_ai for m in moves] == [False, True], moves
        # Every game's timer fires once, from the survivor.
        await b.advance(400)
        channels = [*GAMES, *SOLOS]
        await until(lambda: all(b.said(c, "ran out of time") for c in channels), timeout=60)
        for channel in channels:
            session = await store.latest(channel)
            assert session.status == SessionStatus.FINISHED and session.deadline is None
            assert b.said(channel, "ran out of time") + a.said(channel, "ran out of time") == 1
        assert await store.active_sessions() == []
    except BaseException:
        for name in ("a", "b"):
            print(f"--- process {name.upper()}'s log:\n" + (tmp_path / f"{name}.log").read_text()[-3000:])
        raise
    finally:
        await a.stop()
        await b.stop()
        await store.close()


async def both_alive_fire_each_lobby_timer_once(a: HostProcess, b: HostProcess) -> None:
    """Tables nobody joins; both processes' clocks pass their wait at once: each closes once."""
    for n, lobby in enumerate(LOBBIES):
        assert "opened a table" in first_text(await (a, b)[n % 2].send(lobby, "dave", "/nim start 3 4"))
    await asyncio.gather(a.advance(901), b.advance(901))
    await until(lambda: all(a.said(lobby, "Nobody came") + b.said(lobby, "Nobody came") for lobby in LOBBIES))
    for lobby in LOBBIES:
        assert a.said(lobby, "Nobody came") + b.said(lobby, "Nobody came") == 1


async def a_holds_a_bot_turn(a: HostProcess) -> None:
    """Carol plays the bot through A, whose bots never find a move: A holds their turns."""
    for solo in SOLOS:
        assert "Nim begins" in first_text(await a.send(solo, "carol", "/nim solo hard 30 30 30 30"))
        assert "Carol took 1 stone" in first_text(await a.send(solo, "carol", "/take 1 1"))


async def play(game: str, a: HostProcess, b: HostProcess, store: Storage, sent: dict[str, list[str]],
               done: itertools.count[int]) -> None:
    """A game between Alice and Bob whose every click and move reaches both processes at once
    (a retried webhook, a double click); A is killed after KILL_AT accepted moves in all."""
    opened = await a.send(game, "alice", "/nim start 30 30 30 30 30 30 30 30")
    join = next(button["id"] for button in opened[0]["buttons"] if button["command"] == "/join")
    answers = await asyncio.gather(a.send(game, "bob", button=join), b.send(game, "bob", button=join))
    assert sum("Nim begins" in first_text(r) for r in answers) == 1, answers
    sent[game] = []
    for i in range(MOVES):
        player = ("alice", "bob")[i % 2]
        move = f"{i % 8 + 1} {i // 8 + 1}"
        sent[game].append(move)
        asked = [asyncio.ensure_future(p.send(game, player, f"/take {move}")) for p in (a, b) if p.alive]
        if next(done) == KILL_AT:
            await kill_with_work_in_flight(a, store)
        answers = await asyncio.gather(*asked, return_exceptions=True)
        assert all(isinstance(r, list | Dead) for r in answers), answers
        took = [r for r in answers if first_text(r).startswith(f"{player.title()} took")]
        assert len(took) <= 1 and not [r for r in answers if first_text(r) == TRY_AGAIN], answers
        while not took and (await store.latest(game)).ply == i:  # asked only the dead one: ask the survivor
            took = [r for r in [await b.send(game, player, f"/take {move}")] if "took" in first_text(r)]


async def kill_with_work_in_flight(a: HostProcess, store: Storage) -> None:
    for solo in SOLOS:  # A held the bots' turns all along: they have not moved
        assert (await store.latest(solo)).ply == 1
    await asyncio.sleep(0)  # the moves just asked are on their way to A
    await a.kill()


async def test_a_message_owed_by_a_killed_process_is_sent_once_by_another(database: str, tmp_path: Path) -> None:
    """A commits a new table, then its platform hangs: the lobby message is owed (an outbox row A
    holds, renewing its lease). A is killed with SIGKILL: B takes the row over once the lease has
    run out and shows the table once."""
    lease = "6"  # A renews its claim every 2 s: long enough that a busy machine does not starve it past
    a = await HostProcess.start("A", database, tmp_path / "a.log", "--lease", lease, "--publish", "stuck")
    b = await HostProcess.start("B", database, tmp_path / "b.log", "--lease", lease, "--publish", "ok")
    store = await open_storage(database)
    try:
        asked = asyncio.ensure_future(a.send("shown:t1", "alice", "/nim start 3 4"))
        async with asyncio.timeout(60):
            while not await store.outbox_backlog():  # committed, with its row
                await asyncio.sleep(0.05)
        assert b.published == []  # A holds it (B looks every lease / 3 and leaves it)
        await a.kill()
        with contextlib.suppress(Dead):
            await asyncio.wait_for(asked, 10)
        await until(lambda: b.published)
        async with asyncio.timeout(60):
            while await store.outbox_backlog():
                await asyncio.sleep(0.05)
        assert [text.splitlines()[0] for _, text in b.published] == ["Alice opened a table for Nim."]
        assert {channel for channel, _ in b.published} == {"shown:t1"}
    finally:
        await a.stop()
        await b.stop()
        await store.close()

