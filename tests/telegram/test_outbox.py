"""What the group must see after a move reaches it when Telegram refuses it at first: a 500, or
a connection dropped before any answer, once or several times. The move stands and the table
message shows it exactly once: edited in place (with one ping of the player to move) or posted
once, later, by the outbox's deliverer (on the host's clock, which the test moves), or by the
next process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters.telegram import Telegram, TelegramOptions
from tests.conftest import BOTH, Clock, close_table, open_table, until
from tests.telegram.conftest import GROUP, World, make_world, session, two_player_nim
from tests.telegram.standin import DROP, TOKEN, Call, Fault, failing, retry_after

BACKENDS = BOTH


async def emptied(world: World) -> None:
    """Wait until the outbox has nothing left (its row is deleted just after the board is sent)."""
    async with asyncio.timeout(20):
        while await world.table.host.outbox.backlog():
            await asyncio.sleep(0.01)


async def delivered(world: World, found) -> list[Call]:  # type: ignore[no-untyped-def]
    """Move the host's clock past each back-off and let the deliverer try, until `found()`."""
    async with asyncio.timeout(60):  # only turns a hang into a failure
        while not found():
            due = world.table.host.outbox.next_due
            if due is not None and due > world.table.clock():
                world.table.clock.now = due  # the host's clock at the next try, not past it (nor the turn's time)
            await world.table.host.outbox.deliver_due()
            await asyncio.sleep(0.01)  # (its own deliverer may be trying meanwhile)
    return await world.api.wait(found)


def edits_saying(world: World, text: str) -> list[Call]:
    return [e for e in world.api.of("editMessageMedia", chat_id=GROUP) if text in e.text]


@pytest.mark.parametrize("status", [500, DROP], ids=["500", "dropped"])
@pytest.mark.parametrize("times", [1, 3])
async def test_a_move_telegram_refused_shows_on_the_table_once(world: World, status: int, times: int) -> None:
    api = world.api
    await two_player_nim(world, "3 4 5")
    api.faults.append(failing({"editMessageMedia"}, times, status))
    await api.say(world.alice, GROUP, "/take 1 2")
    await api.wait(lambda: [c for c in api.calls if c.method == "editMessageMedia" and c.status == status])
    assert (await session(world)).state["heaps"] == [1, 4, 5]  # the move stands
    assert await world.table.host.outbox.backlog() == 1

    [edit] = await delivered(world, lambda: edits_saying(world, "Alice took 2"))
    assert "Bob, your move." in edit.text and edit.photo[:4] == b"\x89PNG"
    pings = await api.wait(lambda: [m for m in api.of("sendMessage", chat_id=GROUP) if "102" in m.text])
    assert len(pings) == 1  # Bob is pinged once
    assert sum(c.method == "editMessageMedia" and c.status == status for c in api.calls) == times
    await emptied(world)
    assert len(edits_saying(world, "Alice took 2")) == 1 and len(api.of("sendPhoto", chat_id=GROUP)) == 1


@pytest.mark.parametrize("status", [500, DROP], ids=["500", "dropped"])
async def test_a_first_board_telegram_refused_is_posted_once(world: World, status: int) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/nim start 3 4")
    await api.wait(lambda: api.to_chat(GROUP))
    api.faults.append(failing({"sendPhoto"}, 2, status))
    await api.say(world.bob, GROUP, "/join")
    await api.wait(lambda: [c for c in api.calls if c.method == "sendPhoto" and c.status == status])
    assert (await session(world)).status == "playing"

    [board] = await delivered(world, lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "Nim begins: Alice vs Bob" in board.text and "Alice, your move." in board.text
    await emptied(world)
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1
    await api.say(world.alice, GROUP, "/take 1 1")  # the next move edits the board that was posted late
    [edit] = await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    assert "Alice took 1" in edit.text and len(api.of("sendPhoto", chat_id=GROUP)) == 1


async def test_a_429_past_the_limiters_retries_waits_as_telegram_said(tmp_path: Path, clock: Clock,
                                                                      database: Path | str) -> None:
    world = await make_world(tmp_path, clock, database, max_retries=0)  # the limiter passes a 429 on at once
    api = world.api
    try:
        await two_player_nim(world, "3 4 5")
        api.faults.append(retry_after({"editMessageMedia"}, count=1, seconds=7))
        await api.say(world.alice, GROUP, "/take 1 2")
        await api.wait(lambda: [c for c in api.calls if c.method == "editMessageMedia" and c.status == 429])
        outbox = world.table.host.outbox
        due = await until(lambda: outbox.next_due)  # once the refusal is kept
        assert due - clock() >= 7  # not the 1 s back-off
        api.flood.clear()  # (the stand-in's flood wait is on the machine's clock: it is over)
        [edit] = await delivered(world, lambda: edits_saying(world, "Alice took 2"))
        assert "Bob, your move." in edit.text and not api.early
        await emptied(world)
    finally:
        await world.stop()


async def test_a_board_still_owed_when_the_bot_stops_is_sent_by_the_next_one(tmp_path: Path, clock: Clock,
                                                                            database: Path | str) -> None:
    world = await make_world(tmp_path, clock, database)
    api = world.api
    try:
        await two_player_nim(world, "3 4 5")
        fault = failing({"editMessageMedia"}, 1000, 500)
        api.faults.append(fault)
        await api.say(world.alice, GROUP, "/take 1 2")
        await api.wait(lambda: [c for c in api.calls if c.method == "editMessageMedia" and c.status == 500])
        assert await world.table.host.outbox.backlog() == 1
        await world.tg.stop()  # the bot stops; Telegram stays
        await close_table(world.table)
        fault.count = 0  # and answers again
        clock.advance(61)
        world.table = await open_table(database, clock)  # the next process: its deliverer looks at once
        world.tg = Telegram(world.table.host, TelegramOptions(TOKEN, api_url=api.url, poll_timeout=5.0, group_rate=0))
        await world.tg.start()
        [edit] = await api.wait(lambda: edits_saying(world, "Alice took 2"))
        assert "Bob, your move." in edit.text
        await emptied(world)
        assert len(edits_saying(world, "Alice took 2")) == 1 and len(api.of("sendPhoto", chat_id=GROUP)) == 1
    finally:
        await world.stop()


async def test_a_group_the_bot_may_not_post_in_tells_the_mover_in_private(world: World) -> None:
    """A 403 is for good: the row is dropped, the move stands, and the one who moved is told in
    their private chat with the bot why the group sees nothing."""
    api = world.api
    api.opened.add(101)  # Alice has a private chat with the bot
    await two_player_nim(world, "3 4 5")
    api.faults.append(Fault({"editMessageMedia"}, 1, 403,
                            {"error_code": 403, "description": "Forbidden: bot is not a member of the group chat"}))
    await api.say(world.alice, GROUP, "/take 1 2")
    [told] = await api.wait(lambda: [m for m in api.of("sendMessage", chat_id=101) if "may not post" in m.text])
    assert "/board" in told.text
    assert (await session(world)).state["heaps"] == [1, 4, 5]  # the move stands
    assert await world.table.host.outbox.backlog() == 0  # dropped: trying again would not change it
    assert not edits_saying(world, "Alice took 2")
    assert not [m for m in api.of("sendMessage", chat_id=GROUP) if "may not post" in m.text]
