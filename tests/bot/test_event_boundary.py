"""Every field of an `Event` is cleaned where it enters the host (`bot.clean.event`), so no field
of what a platform sends can make a save fail: a lone surrogate or a NUL in a handle, an id, a
mention, a locale, a place or a button is stored (in a form every database takes) or dropped,
never raised out of `Host.handle`. On both databases (PostgreSQL refuses NUL in text too)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot import clean
from bot.model import Event, User
from tests.conftest import BOTH, Table
from tests.support import hostile

BACKENDS = BOTH
BAD = "b\udfffb\x00\n\u202e"  # a lone surrogate, NUL, a line break, a bidi override


def stored(value: object) -> None:
    """`value` (and whatever it holds) is text that every database and platform takes."""
    if isinstance(value, str):
        value.encode("utf-8")
        assert not clean.BREAKING.search(value), repr(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            stored(key)
            stored(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            stored(item)


def replies_ok(replies) -> None:
    assert replies
    for reply in replies:
        reply.text.encode("utf-8")


ALICE = User("console:alice", "Alice", "alice")


@pytest.mark.parametrize("where", ["handle", "id", "name"])
async def test_a_user_field_no_database_stores_is_cleaned_before_the_seat_is_written(table: Table,
                                                                                   where: str) -> None:
    eve = replace(User("console:eve", "Eve", "eve"), **{where: "eve" + BAD})
    replies_ok(await table.host.handle(Event(table.channel, eve, "/nim start 3 4")))
    session = await table.session()
    assert session is not None
    seat = session.seats[0]
    stored([seat.user_id, seat.name, seat.handle])
    # The same person is the same account each time: the cleaned id is stable.
    replies_ok(await table.host.handle(Event(table.channel, eve, "/cancel")))
    assert (await table.session()).status.value == "cancelled"


async def test_a_mentioned_user_no_database_stores_is_cleaned_before_the_seat_is_written(table: Table) -> None:
    bob = User("console:bob" + BAD, "Bob" + BAD, "bob" + BAD)
    said = await table.host.handle(Event(table.channel, ALICE, "/nim challenge @bob", mentions={"@bob": bob}))
    replies_ok(said)
    session = await table.session()
    assert session is not None
    stored([[s.user_id, s.name, s.handle] for s in session.seats])
    assert session.seats[1].user_id == clean.ident(bob.id)
    replies_ok(await table.host.handle(Event(table.channel, bob, "/accept")))
    assert (await table.session()).status.value == "playing"


async def test_a_channel_a_place_a_locale_and_a_button_no_database_stores_are_cleaned(table: Table) -> None:
    channel = "console:room" + BAD
    replies_ok(await table.host.handle(Event(channel, ALICE, "/nim start 3 4", locale="zh" + BAD,
                                             place="console:guild" + BAD)))
    session = await table.store.active(clean.ident(channel))
    assert session is not None
    stored([session.channel, await table.store.setting(session.channel, "place")])
    replies_ok(await table.host.handle(Event(channel, ALICE, button=f"{session.id}.*.board" + BAD)))
    replies_ok(await table.host.handle(Event(channel, ALICE, "/leaderboard here", place="console:guild" + BAD)))


async def test_no_field_of_any_event_escapes_the_host(table: Table) -> None:
    """Events whose every field is hostile text (the fuzzer's alphabet), each a command that
    writes: every one is answered or ignored, none raises."""
    rng = random.Random(34)
    commands = ["/nim start 3 4", "/join", "/take 1 1", "/nim challenge @x", "/accept", "/cancel", "/stats",
                "/lang en", "/link", "/leaderboard here"]
    for n in range(60):
        who = User(f"console:{hostile.text(rng, 6)}", hostile.name(rng), hostile.text(rng, 6) or None)
        other = User(hostile.text(rng, 6), hostile.name(rng), hostile.text(rng, 6) or None)
        event = Event(f"console:{n % 3}{hostile.text(rng, 4)}", who, f"{rng.choice(commands)} @x{hostile.text(rng, 4)}",
                      mentions={"@x": other}, locale=hostile.text(rng, 4) or None,
                      place=hostile.text(rng, 6) or None)
        for reply in await table.host.handle(event):
            reply.text.encode("utf-8")
    await table.host.handle(Event("console:x", ALICE, button=hostile.text(rng, 20)))
