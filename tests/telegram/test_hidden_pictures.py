"""Hidden cards never reach the group in a picture, on Telegram: every photo the Bot API receives
carries the view it was drawn from (tests/support/pictures.py), and as it arrives, the group's photos
show nothing hidden (checked against the game in the database with its hidden cards dealt anew)
and each private chat's photo is its owner's own hand."""

from __future__ import annotations

import random
from pathlib import Path

import engines
from tests.bot.test_hidden_pictures import check_drawn, state_in
from tests.conftest import Clock
from tests.support.pictures import drawn_with_its_view, view_of
from tests.telegram.conftest import CHANNEL, GROUP, make_world, session
from tests.telegram.standin import Call

SEATS = {101: 0, 102: 1, 103: 2}  # who joined in which order: Alice, Bob, Carol


async def test_group_photos_show_no_hidden_card_and_private_ones_their_owners(tmp_path: Path, clock: Clock) -> None:
    world = await make_world(tmp_path, clock, host_options={"draw": drawn_with_its_view})
    api, ddz, rng = world.api, engines.get("doudizhu"), random.Random(3)
    api.opened.update(SEATS)
    checked: list[int | None] = []
    leaks: list[str] = []

    def watch(call: Call) -> None:
        if call.photo is not None:
            owner = None if call.chat_id == GROUP else SEATS[call.chat_id]
            try:
                check_drawn(view_of(call.photo), state_in(world.table.db, CHANNEL), owner, rng)
            except AssertionError as e:
                leaks.append(f"{call.method} to {call.chat_id}: {e}")
            checked.append(owner)

    api.watchers.append(watch)
    people = [world.alice, world.bob, world.carol]
    try:
        await api.say(world.alice, GROUP, "/ddz start")
        await api.wait(lambda: api.to_chat(GROUP))
        await api.say(world.bob, GROUP, "/join")
        await api.say(world.carol, GROUP, "/join")
        await api.wait(lambda: len(checked) >= 4)  # the board and three hands
        for turn in range(30):
            game = await session(world)
            if game.status != "playing":
                break
            seat = ddz.to_move(ddz.from_json(game.state))
            moves = await world.table.host.legal_moves(CHANNEL, f"telegram:{people[seat]['id']}")
            before = len(checked)
            text = "/hand" if turn % 7 == 6 else f"/move {rng.choice(moves)}"
            await api.say(people[seat], GROUP, text)
            await api.wait(lambda before=before: len(checked) > before)
        assert not leaks, leaks
        assert checked.count(None) >= 10 and len({o for o in checked if o is not None}) == 3
    finally:
        await world.stop()
