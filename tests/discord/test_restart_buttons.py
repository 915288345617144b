"""Buttons made before a restart work after it, on Discord: the next process (same SQLite file,
nothing in memory) answers Agree and Refuse, the Dou Dizhu bids, Pass, Hint and My hand clicked
on messages the previous one posted."""

from __future__ import annotations

from pathlib import Path

import engines
from tests.discord.conftest import Bot, board_saying, boards, first_channel, run, said_to, start_bot
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord, Interaction, Message, Person


def with_button(fake: FakeDiscord, channel: int, label: str) -> Message:
    """The newest message in the channel with a button `label`."""
    found = [m for m in fake.channel(channel) if any(b.get("label") == label for b in m.buttons)]
    assert found, f"no button {label!r} in the channel"
    return found[-1]


async def restarted(bot: Bot, fake: FakeDiscord, db: Path) -> Bot:
    await bot.stop()
    return await start_bot(fake, db)


async def click(fake: FakeDiscord, person: Person, channel: int, label: str) -> Interaction:
    clicked = await fake.click(person, with_button(fake, channel, label), label)
    await fake.wait(lambda: clicked.callback is not None)
    return clicked


async def nim_after_one_move(fake: FakeDiscord, channel: int) -> None:
    """Alice opens a Nim table of 3 4 5, Bob joins, Alice takes 1 from heap 1."""
    await run(fake, ALICE, "nim start", channel, heaps="3 4 5")
    await run(fake, BOB, "join", channel)
    await run(fake, ALICE, "take", channel, args="1 1")


async def test_agree_refuse_and_hint_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    bot = await start_bot(fake, db)
    channel = first_channel(fake)
    try:
        await nim_after_one_move(fake, channel)
        await run(fake, BOB, "take", channel, args="2 1")
        await run(fake, BOB, "undo", channel)
        bot = await restarted(bot, fake, db)
        await click(fake, ALICE, channel, "Refuse")
        await fake.wait(lambda: fake.last(channel, "Alice said no."))
        session = await bot.host.store.active(f"discord:{channel}")
        assert session.state["heaps"] == [2, 3, 5] and session.offer is None

        await run(fake, BOB, "undo", channel)
        bot = await restarted(bot, fake, db)
        await click(fake, ALICE, channel, "Agree")
        await board_saying(fake, channel, "Bob took back a move.")
        assert (await bot.host.store.active(f"discord:{channel}")).state["heaps"] == [2, 4, 5]
        # The board the previous process posted lost its picture to the new one (its id was kept).
        await fake.wait(lambda: len(boards(fake, channel)) == 1)

        bot = await restarted(bot, fake, db)
        hint = await click(fake, BOB, channel, "Hint")  # Bob is to move again
        shown = await said_to(fake, hint, "Hint")
        assert shown.ephemeral and shown.visible_to == BOB.id
        await run(fake, BOB, "take", channel, args="3 1")  # a board from this process replaces the last one's
        await board_saying(fake, channel, "Bob took 1 stone from heap 3.")
        await fake.wait(lambda: len(boards(fake, channel)) == 1)
    finally:
        await bot.stop()


async def test_the_last_board_before_a_restart_loses_its_picture_to_the_next(fake: FakeDiscord, tmp_path: Path) -> None:
    """The board's id is kept the moment the board is posted, not only with a later button message."""
    db = tmp_path / "games.db"
    bot = await start_bot(fake, db)
    channel = first_channel(fake)
    try:
        await nim_after_one_move(fake, channel)
        await board_saying(fake, channel, "Alice took 1 stone from heap 1.")
        bot = await restarted(bot, fake, db)
        await run(fake, BOB, "take", channel, args="2 1")
        await board_saying(fake, channel, "Bob took 1 stone from heap 2.")
        await fake.wait(lambda: len(boards(fake, channel)) == 1)
    finally:
        await bot.stop()


async def test_bids_pass_and_my_hand_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    bot = await start_bot(fake, db)
    channel = first_channel(fake)
    people = [ALICE, BOB, CAROL]
    ddz = engines.get("doudizhu")

    async def game():
        session = await bot.host.store.active(f"discord:{channel}")
        return session, ddz.from_json(session.state)

    try:
        await run(fake, ALICE, "doudizhu start", channel)
        await run(fake, BOB, "join", channel)
        await run(fake, CAROL, "join", channel)
        _, state = await game()
        bidder = ddz.to_move(state)
        bot = await restarted(bot, fake, db)
        await click(fake, people[bidder], channel, "Bid 3")
        await board_saying(fake, channel, f"{people[bidder].name} bid 3 and is the landlord.")
        session, state = await game()
        assert ddz.to_move(state) == bidder and session.ply == 1

        lead = next(m for m in ddz.legal_moves(state, bidder) if ddz.move_text(state, m) != "pass")
        await run(fake, people[bidder], "move", channel, move=ddz.move_text(state, lead))
        follower = (bidder + 1) % 3
        await board_saying(fake, channel, f"{people[follower].name}, your move.")
        bot = await restarted(bot, fake, db)
        await click(fake, people[follower], channel, "Pass")
        await board_saying(fake, channel, f"{people[follower].name} passed.")
        session, state = await game()
        assert session.ply == 3 and ddz.to_move(state) == (follower + 1) % 3

        bot = await restarted(bot, fake, db)
        mine = await click(fake, people[follower], channel, "My hand")
        hand = await said_to(fake, mine, "")
        assert hand.ephemeral and hand.visible_to == people[follower].id and hand.png is not None
    finally:
        await bot.stop()
