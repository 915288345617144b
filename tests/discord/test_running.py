"""Running the bot: restarts, the AI off the event loop, sharding, global sync, `gamehost` itself."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import discord
import pytest

from bot import main, startup
from bot.adapters.discord import DiscordBot
from bot.ai import AIRunner
from bot.config import load
from bot.host import Host
from bot.storage.sqlite import SQLiteStorage as Store
from tests.discord.conftest import board_saying, boards, first_channel, run, said_to, start_bot
from tests.discord.fake import ALICE, BOB, TOKEN, FakeDiscord
from tests.support.heldai import HeldAI
from tests.telegram.test_running import free_port, gamehost


async def test_buttons_survive_a_restart_and_stale_ones_are_refused_privately(fake: FakeDiscord,
                                                                              tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = await start_bot(fake, db)
    channel = first_channel(fake)
    await run(fake, ALICE, "nim start", channel, heaps="2 2")
    old_lobby = fake.last(channel, "Alice opened a table")
    await run(fake, ALICE, "cancel", channel)
    await run(fake, ALICE, "nim challenge", channel, user=BOB, heaps="3 3")
    lobby = fake.last(channel, "Alice challenges Bob")
    assert old_lobby is not None and lobby is not None
    await first.stop()

    second = await start_bot(fake, db)  # a new process: same SQLite file, nothing in memory
    try:
        stale = await fake.click(BOB, old_lobby, "Join")
        refusal = await said_to(fake, stale, "That button is out of date")
        assert refusal.ephemeral and refusal.visible_to == BOB.id and stale.callback == {"type": 6}

        await fake.click(BOB, lobby, "Accept")  # made before the restart, still good
        board = await board_saying(fake, channel, "Bob joined.")
        assert board.png is not None
        # The lobby's buttons were tidied away by the new process too (it keeps their ids in the store).
        await fake.wait(lambda: lobby.buttons == [])
        await run(fake, ALICE, "take", channel, args="1 1")
        await board_saying(fake, channel, "Bob, your move.")
        assert board.files == [] and len(boards(fake, channel)) == 1
    finally:
        await second.stop()


async def test_heartbeats_are_answered_while_the_ai_thinks_in_its_process(tmp_path: Path) -> None:
    """While the bot's AI thinks, CPU-bound, in its worker process (until the test lets it go, so
    the think lasts as long as the test needs on any machine), the interaction is answered, another
    channel is served and the gateway's heartbeats are acknowledged. Nothing is timed: what must
    happen while the AI thinks is waited for, and the AI is held until it has."""
    fake = FakeDiscord(heartbeat_ms=100)
    await fake.start()
    ai = HeldAI(tmp_path)
    bot = await start_bot(fake, tmp_path / "games.db", ai=ai)
    try:
        game, other = list(fake.channels)[:2]
        await run(fake, ALICE, "gomoku solo", game, level="easy")
        moved = await run(fake, ALICE, "move", game, move="h8")  # answered while the AI is held
        await fake.wait(lambda: ai.thinking == 1)
        helped = await run(fake, BOB, "help", other)  # another channel is served meanwhile
        start = time.monotonic()
        await fake.wait(lambda: len([t for t, _ in fake.heartbeats if t >= start]) >= 5)  # and heartbeats
        acks = len(fake.acks)
        await fake.wait(lambda: len(fake.acks) > acks)  # acknowledged, as they come
        assert "Bot (easy) is thinking" in boards(fake, game)[-1].content  # and it still is
        assert moved.callback_after is not None and helped.settled
        ai.let_go()
        board = await board_saying(fake, game, "Alice, your move.")
        assert "Bot (easy) played" in board.content
        assert bot.discord.client.latency < float("inf")  # measured from the ACKs: they kept coming
    finally:
        ai.let_go()  # a worker still thinking would hold up the interpreter's exit
        await bot.stop()
        await fake.close()


@pytest.mark.parametrize(("count", "ids"), [(0, None), (2, [1])], ids=["as-recommended", "this-process-shard-1"])
async def test_sharded_with_commands_synced_globally(tmp_path: Path, count: int, ids: list[int] | None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    async def at_once(self: discord.AutoShardedClient, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s between shards, Discord's identify rate limit; the stand-in has none

    monkeypatch.setattr(discord.AutoShardedClient, "before_identify_hook", at_once)
    guilds = (8 << 22, 9 << 22)  # on shards 0 and 1 of 2
    fake = FakeDiscord(guilds=guilds, recommended_shards=2)
    await fake.start()
    bot = await start_bot(fake, tmp_path / "games.db", guilds=(), shard_count=count, shard_ids=ids)
    try:
        assert isinstance(bot.discord.client, discord.AutoShardedClient)
        assert sorted(fake.identified) == ([(0, 2), (1, 2)] if ids is None else [(1, 2)])
        assert set(fake.commands) == {"global"} and bot.discord.synced == ["global"]
        served = guilds if ids is None else guilds[1:]
        for guild in served:
            channel = next(c for c, g in fake.channels.items() if g == guild)
            await run(fake, ALICE, "nim solo", channel)
            board = await board_saying(fake, channel, "Nim begins")
            assert board.png is not None
    finally:
        await bot.stop()
        await fake.close()


async def test_gamehost_runs_discord_when_a_token_is_set(fake: FakeDiscord, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("GAMEHOST_TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("GAMEHOST_DISCORD_API_URL", fake.api.removesuffix("/api/v10"))
    monkeypatch.setenv("GAMEHOST_DISCORD_GATEWAY_URL", fake.gateway)
    monkeypatch.setenv("GAMEHOST_DISCORD_GUILDS", ",".join(map(str, fake.guild_ids)))
    settings = load(["--db", str(tmp_path / "games.db"), "--ai-workers", "0"])
    assert not settings.wants_console
    running = asyncio.create_task(main.run(settings))
    try:
        await fake.connected()
        assert set(fake.commands) == {str(g) for g in fake.guild_ids}  # synced to the guild, not globally
        channel = first_channel(fake)
        await run(fake, ALICE, "nim solo", channel, heaps="3")
        board = await board_saying(fake, channel, "Nim begins")
        assert board.png is not None
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    await fake.wait(lambda: not fake._sockets)  # gamehost closed its connection on the way out


# --- a start that fails ----------------------------------------------------------------------------
async def test_a_refused_token_is_one_line_and_a_non_zero_exit(fake: FakeDiscord, tmp_path: Path) -> None:
    code, out, err = await gamehost(tmp_path, DISCORD_TOKEN="wrong-token",
                                    GAMEHOST_DISCORD_API_URL=fake.api.removesuffix("/api/v10"))
    assert code == 1 and out == "" and err == "gamehost: Discord refused the token (DISCORD_TOKEN)\n"


async def test_no_discord_to_reach_is_one_line_after_the_last_try(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    code, out, err = await gamehost(tmp_path, DISCORD_TOKEN=TOKEN, GAMEHOST_DISCORD_API_URL=url,
                                    GAMEHOST_START_ATTEMPTS="1")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("gamehost: cannot reach Discord: "), err


async def test_a_transient_failure_at_start_is_tried_again_with_back_off(fake: FakeDiscord, tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "g.db"))
    host = Host(store, AIRunner(0))
    unreachable = f"http://127.0.0.1:{free_port()}"
    bot = DiscordBot(host, TOKEN, guilds=fake.guild_ids, api=unreachable, gateway=fake.gateway,
                     guild_ready_timeout=0.05)
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)
        if len(waited) == 2:
            bot.api = fake.api  # the network is back

    try:
        await startup.start(bot, attempts=5, sleep=sleep)
        await asyncio.wait_for(bot.ready.wait(), 60)
        assert waited == [1.0, 2.0]
        channel = first_channel(fake)
        await run(fake, ALICE, "nim solo", channel)
        assert (await board_saying(fake, channel, "Nim begins")).png is not None
    finally:
        await bot.stop()
        await host.stop()
        host.ai.close()
        await store.close()
