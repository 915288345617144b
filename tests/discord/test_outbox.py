"""What the channel must see after a move reaches it when Discord refuses it at first: a 429
without `Via` (discord.py takes it for a Cloudflare ban and does not retry), a 503 (a 5xx it
does not retry), a connection dropped before any answer, or after Discord made the message (its
answer lost: each try carries the same nonce, so Discord answers the next one with the message it
made instead of making another). The move stands, its mover is not told "something went wrong",
and the board is posted exactly once: later by the outbox's deliverer (on the host's clock, which
the test moves), or by the next process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.conftest import BOTH, Clock
from tests.discord.conftest import Bot, board_saying, boards, first_channel, run, said_to, start_bot
from tests.discord.fake import ALICE, BOB, DROP, LOST, FakeDiscord, Message

BACKENDS = BOTH
POST = r"channels/\d+/messages"  # creating a message in a channel


@pytest.fixture
async def ticking(fake: FakeDiscord, database: Path | str, clock: Clock):
    running = await start_bot(fake, database, clock=clock)
    yield running
    await running.stop()


async def nim(fake: FakeDiscord, channel: int) -> None:
    await run(fake, ALICE, "nim start", channel, heaps="3 4 5")
    await run(fake, BOB, "join", channel)
    await board_saying(fake, channel, "Alice, your move.")


def showing(fake: FakeDiscord, channel: int, text: str) -> list[Message]:
    return [m for m in boards(fake, channel) if text in m.content]


async def emptied(bot: Bot) -> None:
    """Wait until the outbox has nothing left (its row is deleted just after the board is posted)."""
    async with asyncio.timeout(20):
        while await bot.host.outbox.backlog():
            await asyncio.sleep(0.01)


async def delivered(bot: Bot, clock: Clock, fake: FakeDiscord, channel: int, text: str) -> Message:
    """Move the host's clock past each back-off and let the deliverer try, until the board is there
    and the outbox knows it (a board made whose answer was lost is there before the outbox knows)."""
    async with asyncio.timeout(60):  # only turns a hang into a failure
        while not showing(fake, channel, text) or await bot.host.outbox.backlog():
            due = bot.host.outbox.next_due
            if due is not None and due > clock():
                clock.now = due  # the host's clock at the next try, not past it (nor the turn's time)
            await bot.host.outbox.deliver_due()
            await asyncio.sleep(0.01)  # (its own deliverer may be trying meanwhile)
    return await board_saying(fake, channel, text)


@pytest.mark.parametrize("status", [429, 503, DROP, LOST], ids=["429-without-via", "503", "dropped", "made-unanswered"])
@pytest.mark.parametrize("times", [1, 3])
async def test_a_board_discord_refused_reaches_the_channel_once(fake: FakeDiscord, ticking: Bot, clock: Clock,
                                                                status: int, times: int) -> None:
    channel = first_channel(fake)
    await nim(fake, channel)
    fake.fail("POST", POST, times, status)
    move = await run(fake, ALICE, "take", channel, args="1 2")
    assert fake.failed  # Discord refused the board
    assert not any("went wrong" in m.content for m in move.said), "the mover was told the applied move failed"
    session = await ticking.host.store.active(f"discord:{channel}")
    assert session is not None and session.state["heaps"] == [1, 4, 5]  # the move stands
    assert await ticking.host.outbox.backlog() == 1

    board = await delivered(ticking, clock, fake, channel, "Bob, your move.")
    assert "Alice took 2" in board.content and board.png is not None
    assert len(showing(fake, channel, "Alice took 2")) == 1  # exactly once on screen
    assert len(fake.failed) == times
    await emptied(ticking)
    # The game goes on from there, and its next board comes at once; the older boards lost their pictures.
    await run(fake, BOB, "take", channel, args="2 1")
    await board_saying(fake, channel, "Alice, your move.")
    await fake.wait(lambda: len(boards(fake, channel)) == 1)


async def test_a_board_still_owed_when_the_bot_stops_is_posted_by_the_next_one(
    fake: FakeDiscord, database: Path | str, clock: Clock
) -> None:
    bot = await start_bot(fake, database, clock=clock)
    channel = first_channel(fake)
    try:
        await nim(fake, channel)
        fault = fake.fail("POST", POST, 1000, 503)
        await run(fake, ALICE, "take", channel, args="1 2")
        assert await bot.host.outbox.backlog() == 1
        await bot.stop()
        fault.count = 0  # Discord is back
        clock.advance(61)
        bot = await start_bot(fake, database, clock=clock)  # its deliverer looks at once
        board = await board_saying(fake, channel, "Bob, your move.")
        assert "Alice took 2" in board.content
        assert len(showing(fake, channel, "Alice took 2")) == 1
        await emptied(bot)
    finally:
        await bot.stop()


async def test_a_channel_the_bot_may_not_post_in_tells_the_mover_alone(fake: FakeDiscord, ticking: Bot) -> None:
    """A 403 is for good: the row is dropped (nothing to try again), the move stands, and the one who
    moved is told privately why nobody sees the board; /board shows it once the bot may post again."""
    channel = first_channel(fake)
    await nim(fake, channel)
    fake.fail("POST", POST, 1, 403)
    move = await run(fake, ALICE, "take", channel, args="1 2")
    told = await said_to(fake, move, "I may not post in this channel")
    assert told.ephemeral and told.visible_to == ALICE.id and "/board" in told.content
    session = await ticking.host.store.active(f"discord:{channel}")
    assert session is not None and session.state["heaps"] == [1, 4, 5]  # the move stands
    assert await ticking.host.outbox.backlog() == 0  # dropped: trying again would not change it
    assert not showing(fake, channel, "Alice took 2")
    await run(fake, BOB, "board", channel)
    await board_saying(fake, channel, "Bob, your move.")
