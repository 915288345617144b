"""Hidden cards never reach a public picture, checked on the view each picture is drawn from.

A key name is not enough (a public view that carried every hand under another name would pass
such a test). Instead: the view of every public picture must be exactly the public view of the
same game with the hidden cards dealt anew (the same number to each seat; the landlord keeps the
bottom cards everyone saw), so it can depend on nothing that is hidden. Each private picture is
its owner's view, with their own hand."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import engines
from bot.model import Reply
from render.base import RenderContext
from tests.conftest import ALICE, BOB, CAROL, Clock, close_table, open_table

PEOPLE = (ALICE, BOB, CAROL)


def draw_as_data(game: str, view: Any, ctx: RenderContext) -> bytes:
    """Instead of a picture, the data the picture would be drawn from."""
    return json.dumps({"view": view, "viewer": ctx.viewer}).encode()


def dealt_anew(state: Any, rng: random.Random) -> Any:
    """`state` with every card nobody has seen given out again at random, each seat keeping its
    number of cards (and the landlord the bottom cards still in hand, which everyone saw)."""
    known = [set(state.bottom) & set(hand) if state.landlord == seat else set()
             for seat, hand in enumerate(state.hands)]
    hidden = [card for seat, hand in enumerate(state.hands) for card in hand if card not in known[seat]]
    if state.landlord is None:
        hidden += state.bottom
    rng.shuffle(hidden)
    hands = []
    for seat, hand in enumerate(state.hands):
        take = len(hand) - len(known[seat])
        hands.append(tuple(sorted([*known[seat], *hidden[:take]])))
        hidden = hidden[take:]
    bottom = state.bottom if state.landlord is not None else tuple(sorted(hidden))
    return replace(state, hands=tuple(hands), bottom=bottom)


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_drawn(drawn: dict[str, Any], state: Any, owner: int | None, rng: random.Random) -> None:
    """`drawn` ({"view", "viewer"}) is what the public may see of `state` (owner None), or
    what seat `owner` may see, with its own hand."""
    game = engines.get("doudizhu")
    if owner is None:
        assert drawn["viewer"] is None
        shown = dict(drawn["view"])
        if shown.pop("hands", None) is not None:  # a finished game shows every hand: nothing is hidden then
            assert shown["phase"] == "over" and drawn["view"]["hands"] == [list(h) for h in state.hands]
        for _ in range(3):  # three other deals of what is hidden: the same picture
            again = as_json(game.view(dealt_anew(state, rng), None))
            again.pop("hands", None)
            assert shown == again
    else:
        assert drawn["viewer"] == owner and drawn["view"]["hand"] == list(state.hands[owner])


def moves_in(db: Path) -> int:
    """The moves another connection to the SQLite file sees (adapter tests run on SQLite)."""
    with sqlite3.connect(db) as other:
        return other.execute("SELECT COUNT(*) FROM moves").fetchone()[0]


def state_in(db: Path, channel: str) -> Any:
    """The Dou Dizhu state of the channel's latest session, read through another connection."""
    with sqlite3.connect(db) as other:
        (state,) = other.execute("SELECT state FROM sessions WHERE channel=? ORDER BY id DESC LIMIT 1",
                                 (channel,)).fetchone()
    return engines.get("doudizhu").from_json(json.loads(state))


async def test_public_pictures_show_nothing_hidden_and_private_ones_their_owners_hand(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "h.db", Clock(), draw=draw_as_data)
    game = engines.get("doudizhu")
    rng = random.Random(5)
    public = private = 0

    async def check(replies: list[Reply]) -> None:
        nonlocal public, private
        pictures = [r for r in replies if r.image is not None]
        if not pictures:
            return
        session = await table.store.latest(table.channel)
        state = game.from_json(session.state)
        for reply in pictures:
            owner = None if reply.reader is None else next(s.seat for s in session.seats if s.user_id == reply.reader)
            check_drawn(json.loads(reply.image), state, owner, rng)
            public, private = public + (owner is None), private + (owner is not None)

    try:
        for number in range(4):
            table.channel = f"console:ddz{number}"
            await check(await table.say(ALICE, "/ddz start"))
            await check(await table.say(BOB, "/join"))
            await check(await table.say(CAROL, "/join"))
            for _ in range(300):
                session = await table.store.active(table.channel)
                if session is None:
                    break
                person = PEOPLE[game.to_move(game.from_json(session.state))]
                moves = await table.host.legal_moves(table.channel, person.id)
                text = rng.choice(["/hand", "/board"]) if rng.random() < 0.1 else "/move " + rng.choice(moves)
                await check(await table.say(person, text))
            assert (await table.store.latest(table.channel)).status == "finished"
        assert public > 100 and private > 100, (public, private)
    finally:
        await close_table(table)
