"""Hidden cards never reach the channel in a picture, on Discord: every picture the stand-in
receives carries the view it was drawn from (tests/support/pictures.py), and as it arrives, the channel's
pictures show nothing hidden (checked against the game in the database with its hidden cards
dealt anew) and each ephemeral one is its viewer's own hand."""

from __future__ import annotations

import random
from pathlib import Path

import engines
from tests.bot.test_hidden_pictures import check_drawn, state_in
from tests.discord.conftest import first_channel, run, start_bot
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord, Message
from tests.support.pictures import drawn_with_its_view, view_of

PEOPLE = [ALICE, BOB, CAROL]  # in the order they sit


async def test_channel_pictures_show_no_hidden_card_and_private_ones_their_owners(fake: FakeDiscord,
                                                                                 tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    bot = await start_bot(fake, db, draw=drawn_with_its_view)
    channel = first_channel(fake)
    ddz, rng = engines.get("doudizhu"), random.Random(4)
    checked: list[int | None] = []
    leaks: list[str] = []

    def watch(message: Message) -> None:
        if message.png is None:
            return
        owner = None if message.visible_to is None else next(i for i, p in enumerate(PEOPLE)
                                                               if p.id == message.visible_to)
        try:
            check_drawn(view_of(message.png), state_in(db, f"discord:{channel}"), owner, rng)
        except AssertionError as e:
            leaks.append(f"{message.id} seen by {message.visible_to or 'everyone'}: {e}")
        checked.append(owner)

    fake.watchers.append(watch)
    try:
        await run(fake, ALICE, "doudizhu start", channel)
        await run(fake, BOB, "join", channel)
        await run(fake, CAROL, "join", channel)
        for turn in range(30):
            game = await bot.host.store.active(f"discord:{channel}")
            if game is None:
                break
            seat = ddz.to_move(ddz.from_json(game.state))
            moves = await bot.host.legal_moves(f"discord:{channel}", f"discord:{PEOPLE[seat].id}")
            if turn % 7 == 6:
                await run(fake, PEOPLE[seat], "hand", channel)
            else:
                await run(fake, PEOPLE[seat], "move", channel, move=rng.choice(moves))
        assert not leaks, leaks
        assert checked.count(None) >= 10 and len({o for o in checked if o is not None}) >= 2, checked
    finally:
        await bot.stop()
