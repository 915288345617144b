"""A tournament in a Telegram group: in a forum (a supergroup with topics) each game of a round in a
topic of its own, all at once, played there with the ordinary commands and replies; in a group
without topics, or where the bot may not make them, the round's games one after another in the
group, with one line saying so; the standings and the podium as photos with their text."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.tournament.model import EventStatus
from tests.conftest import Clock
from tests.telegram.conftest import CHANNEL, GROUP, World
from tests.telegram.test_restart_buttons import restart

FORUM = -1009876
FORUM_CHANNEL = f"telegram:{FORUM}"
NOT_HERE = "No thread or topic of its own can be opened here"


def thread_of(place: str) -> int:
    return int(place.rsplit(":", 1)[1])


async def open_swiss(world: World, chat: int, options: str = "2") -> None:
    """Alice opens a Swiss of Nim (`options`: the heaps, the rounds) with Bob and two bots, and starts it."""
    api = world.api
    await api.say(world.alice, chat, f"/nim tournament swiss {options}")
    await api.wait(lambda: [m for m in api.to_chat(chat) if "opened a Nim Swiss" in m.text])
    await api.say(world.bob, chat, "/join")
    await api.say(world.alice, chat, "/join bot easy")
    await api.say(world.bob, chat, "/join bot easy")
    await api.wait(lambda: [m for m in api.to_chat(chat) if "(4 entrants)" in m.text])
    await api.say(world.alice, chat, "/go")


async def move_someone(world: World, chat: int, place: str) -> bool:
    """Whoever of Alice and Bob is to move in `place` types their first legal move there (in its topic
    when it is one); whether someone did."""
    api, host = world.api, world.table.host
    thread = thread_of(place) if place.count(":") == 2 else None
    for person in (world.alice, world.bob):
        moves = await host.legal_moves(place, f"telegram:{person['id']}")
        if moves:
            sent = len(api.to_chat(chat))
            await api.say(person, chat, f"/move {moves[0]}", thread=thread)
            await api.wait(lambda n=sent: len(api.to_chat(chat)) > n)
            return True
    return False


async def placed(world: World, channel: str) -> list[str]:
    """The places of the current round's games, once each has one."""
    async with asyncio.timeout(60):
        while True:
            event = await world.table.store.event_latest(channel)
            places = sorted(g.place or "" for g in event.current())
            if places and all(places):
                return places
            await asyncio.sleep(0.05)


async def play_out(world: World, chat: int, channel: str, rounds: set[int] | None = None) -> Any:
    """The people play their games wherever they are until the event ends (or leaves `rounds`)."""
    async with asyncio.timeout(120):
        while (event := await world.table.store.event_latest(channel)).status.active:
            if rounds is not None and event.round not in rounds:
                return event
            places = {g.place for g in event.current() if not g.over and g.place}
            moved = [await move_someone(world, chat, p) for p in sorted(places)]
            if not any(moved):
                await asyncio.sleep(0.05)
    return event


async def first_round_in_topics(world: World) -> list[str]:
    """The forum's round 1: two games begun at once, each in a topic of its own with its board there."""
    api = world.api
    topics = await api.wait(lambda: (found := api.of("createForumTopic", chat_id=FORUM)) and len(found) == 2
                            and found)
    assert all(t.params["name"].startswith("Round 1 · table ") for t in topics)
    places = await placed(world, FORUM_CHANNEL)
    assert len(set(places)) == 2 and all(p.startswith(f"{FORUM_CHANNEL}:") for p in places)
    for place in places:
        await api.wait(lambda p=place: [c for c in api.to_topic(FORUM, thread_of(p)) if c.method == "sendPhoto"])
    return places


async def test_a_swiss_in_a_forum_plays_each_game_in_a_topic_of_its_own_at_once(world: World) -> None:
    api = world.api
    api.group(FORUM, "Club", forum=True)
    await open_swiss(world, FORUM)
    places = await first_round_in_topics(world)
    # A command typed in a topic is answered in that topic, as a reply, never in the group's general chat.
    await api.wait(lambda: len([c for c in api.to_topic(FORUM, None) if "place of its own" in c.text]) == 2)
    general = len(api.to_topic(FORUM, None))
    typed = await api.say(world.bob, FORUM, "/move 99 99", thread=thread_of(places[0]))
    await api.wait(lambda: [c for c in api.to_topic(FORUM, thread_of(places[0])) if c.method == "sendMessage"
                            and (c.params.get("reply_parameters") or {}).get("message_id") == typed["message_id"]])
    assert len(api.to_topic(FORUM, None)) == general
    event = await play_out(world, FORUM, FORUM_CHANNEL)
    assert event.status == EventStatus.FINISHED
    assert len(api.of("createForumTopic", chat_id=FORUM)) == 4  # two games a round, two rounds
    assert {g.place for g in event.games} == {f"{FORUM_CHANNEL}:{t}" for c, t in api.topics if c == FORUM}
    await api.wait(lambda: [c for c in api.to_topic(FORUM, None) if "podium" in c.text])
    photos = [c for c in api.to_topic(FORUM, None) if c.method == "sendPhoto"]
    assert photos and all(any(w in c.text for w in ("after round", "standings", "podium"))
                          for c in photos)  # no board outside a topic
    assert any("podium" in c.text for c in photos) and any("final standings" in c.text for c in photos)
    for game in event.games:  # each game ended in its topic
        await api.wait(lambda g=game: [c for c in api.to_topic(FORUM, thread_of(g.place)) if " wins" in c.text])
    assert not any(NOT_HERE in c.text for c in api.to_chat(FORUM))


async def test_a_group_without_topics_plays_the_games_in_turn(world: World) -> None:
    api, host = world.api, world.table.host
    await api.say(world.alice, GROUP, "/nim tournament roundrobin 2 2")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "opened a Nim round robin" in m.text])
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.alice, GROUP, "/join bot easy")
    await api.wait(lambda: [m for m in api.to_chat(GROUP) if "(3 entrants)" in m.text])
    await api.say(world.alice, GROUP, "/go")
    event = await play_out(world, GROUP, CHANNEL)
    assert event.status == EventStatus.FINISHED and event.round == 3
    assert {g.place for g in event.games if not g.bye} == {CHANNEL}  # all in the group, one after another
    podium = await api.wait(lambda: [m for m in api.of("sendPhoto", chat_id=GROUP) if "podium" in m.text])
    assert podium and any("final standings" in m.text for m in api.of("sendPhoto", chat_id=GROUP))
    refused = [c for c in api.calls if c.method == "createForumTopic"]
    assert [(c.status, c.description) for c in refused] == [(400, "Bad Request: the chat is not a forum")]
    assert len([c for c in api.to_chat(GROUP) if NOT_HERE in c.text]) == 1  # said once, not each game
    assert not await host.legal_moves(CHANNEL, "telegram:101")


async def test_a_forum_where_the_bot_may_not_make_topics_plays_the_games_in_turn(world: World) -> None:
    api = world.api
    api.group(FORUM, "Club", forum=True, rights=False)
    await open_swiss(world, FORUM, "rounds=1 2")
    await api.wait(lambda: [c for c in api.to_chat(FORUM) if NOT_HERE in c.text])
    event = await play_out(world, FORUM, FORUM_CHANNEL)
    assert event.status == EventStatus.FINISHED
    assert {g.place for g in event.games} == {FORUM_CHANNEL} and api.topics == {}
    refused = [c for c in api.calls if c.method == "createForumTopic"]
    assert [(c.status, c.description) for c in refused] == [(400, "Bad Request: not enough rights to create a topic")]
    assert not [c for c in api.to_chat(FORUM) if c.params.get("message_thread_id")]


async def test_a_restart_in_the_middle_of_a_round_goes_on_in_the_topics(world: World, clock: Clock) -> None:
    api = world.api
    api.group(FORUM, "Club", forum=True)
    await open_swiss(world, FORUM, "rounds=2 4 5 6 7")  # (a game that lasts)
    await api.wait(lambda: len(api.of("createForumTopic", chat_id=FORUM)) == 2)
    places = await placed(world, FORUM_CHANNEL)
    for place in places:
        await api.wait(lambda p=place: [c for c in api.to_topic(FORUM, thread_of(p)) if c.method == "sendPhoto"])
    # A person moves in their game's topic; the process ends and another starts on the same database.
    async with asyncio.timeout(60):
        while not any([await move_someone(world, FORUM, p) for p in places]):
            await asyncio.sleep(0.05)
    people = [p for p in places if await world.table.store.active(p) is not None and any(
        s.user_id for s in (await world.table.store.active(p)).seats)]
    assert people
    board = await world.table.host.notes("telegram").get(people[0], "board")
    assert board is not None
    await restart(world, clock)
    # A reply the old process was sending as it stopped failed there, and is tried again a second later.
    clock.advance(2)
    after = len(api.calls)
    async with asyncio.timeout(60):
        while not await move_someone(world, FORUM, people[0]):
            await asyncio.sleep(0.05)
    # The next move's board is in its topic: the same message edited (the note is kept per topic), or posted
    # anew there when the old process stopped before Telegram's answer to its last board or ping came.
    await api.wait(lambda: [c for c in api.to_topic(FORUM, thread_of(people[0])) if c.photo is not None
                            and any(c is n for n in api.calls[after:])], timeout=30)
    assert api.messages[(FORUM, board["message_id"])]["message_thread_id"] == thread_of(people[0])
    # A button on the topic's board, pressed after the restart, is answered for that topic's game; a typed /hint
    # goes to the person's private chat only.
    async with asyncio.timeout(60):
        while not (to_move := [p for p in (world.alice, world.bob)
                               if await world.table.host.legal_moves(people[0], f"telegram:{p['id']}")]):
            await asyncio.sleep(0.05)
    to_move = to_move[0]
    await world.table.host.idle()
    board = await world.table.host.notes("telegram").get(people[0], "board")
    assert board is not None
    hint = next(b["callback_data"] for b in api.messages[(FORUM, board["message_id"])]["reply_markup"][
        "inline_keyboard"][0] if b["text"] == "Hint")
    query = await api.press(to_move, FORUM, board["message_id"], hint)
    alert = await api.wait(lambda: api.answer(query))
    assert alert.params["text"].startswith("Hint: ") and alert.params["show_alert"] is True
    api.opened.add(to_move["id"])
    await api.say(to_move, FORUM, "/hint", thread=thread_of(people[0]))
    private = await api.wait(lambda: [c for c in api.to_chat(to_move["id"]) if c.text.startswith("Hint: ")])
    assert "message_thread_id" not in private[0].params
    assert not [c for c in api.to_chat(FORUM) if c.text.startswith("Hint: ")]
    event = await play_out(world, FORUM, FORUM_CHANNEL, rounds={1})
    assert {g.place for g in event.games if g.round == 1} == set(places)  # no game of round 1 made again
    event = await play_out(world, FORUM, FORUM_CHANNEL)
    assert event.status == EventStatus.FINISHED and len(api.of("createForumTopic", chat_id=FORUM)) == 4
    assert not [c for c in api.calls if c.status == 400 and "thread" in c.description]
