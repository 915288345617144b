"""Dou Dizhu's hidden hands on Telegram, through the real engine: each player sees their own
hand in inline mode (and in their private chat), plays from it, and the group never sees it."""

from __future__ import annotations

from typing import Any

import pytest

import engines
from bot.i18n import Translator
from tests.support.setups import deal, to_move
from tests.telegram.conftest import GROUP, World, session

LINK = f"https://t.me/gamehost_bot?start=hand_{GROUP}"


@pytest.fixture(autouse=True)
def doudizhu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real Dou Dizhu (engine, picture, catalog); a no-op once the lead registers it."""
    monkeypatch.setitem(engines.REGISTRY, "doudizhu", engines.REGISTRY.get("doudizhu", "engines.doudizhu:DouDizhu"))


def link_posts(world: World) -> list[Any]:
    """The group posts with a button that opens the bot's private chat."""
    return [c for c in world.api.to_chat(GROUP) if c.buttons and c.buttons[0].get("url")]


def hand_line(world: World, game: Any, seat: int) -> str:
    game_ = world.table.host.games["doudizhu"]
    state = game_.from_json(game.state)
    return next(line for line in game_.private_lines(state, seat, Translator()) if line.startswith("hand:"))


async def choose(world: World, user: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """What Telegram does when someone picks an inline result: post its message, via the bot."""
    return await world.api.say(user, GROUP, result["input_message_content"]["message_text"], via_bot=True)


async def inline_results(world: World, user: dict[str, Any], query: str = "") -> list[dict[str, Any]]:
    asked = await world.api.inline(user, query)
    answer = await world.api.wait(lambda: world.api.inline_answer(asked))
    assert answer.params["is_personal"] is True and answer.params["cache_time"] == 0
    return answer.params["results"]


async def test_inline_mode_shows_each_player_their_own_hand_and_plays_from_it(world: World) -> None:
    api = world.api
    api.opened.add(101)  # Alice has a private chat with the bot; Bob and Carol do not
    people = [world.alice, world.bob, world.carol]
    await api.say(world.alice, GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.carol, GROUP, "/join")
    [board] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "begins" in board.text and board.photo[:4] == b"\x89PNG"
    game = await session(world)
    assert game.status == "playing"
    hands = [hand_line(world, game, seat) for seat in range(3)]
    assert len(set(hands)) == 3
    # Alice's hand went to her private chat; Bob and Carol got a button that opens theirs.
    [alices] = await api.wait(lambda: api.of("sendPhoto", chat_id=101))
    assert "Your hand, Alice" in alices.text
    nudges = await api.wait(lambda: len(link_posts(world)) == 2 and link_posts(world))
    assert sorted(n.text.split(">")[1].split("<")[0] for n in nudges) == ["Bob", "Carol"]
    assert all(n.buttons[0]["url"] == LINK for n in nudges)

    # Inline mode: everyone sees their own hand, nobody else's.
    for seat, person in enumerate(people):
        results = await inline_results(world, person)
        assert results[0]["input_message_content"]["message_text"] == "/hand"
        shown = " ".join(r.get("description", "") for r in results)
        assert hands[seat].removeprefix("hand: ") in shown
        assert not any(hands[other].removeprefix("hand: ") in shown for other in range(3) if other != seat)
    outsider = api.person(104, "Dave", "dave")
    assert await inline_results(world, outsider) == []

    # The player to bid picks "bid 3" from their inline results: it is played.
    bidder = (game_ := world.table.host.games["doudizhu"]).to_move(game_.from_json(game.state))
    results = await inline_results(world, people[bidder])
    titles = [r["title"] for r in results]
    assert "▶ bid 3" in titles and "▶ pass" in titles
    edits = len(api.of("editMessageMedia", chat_id=GROUP))
    await choose(world, people[bidder], results[titles.index("▶ bid 3")])
    await api.wait(lambda: len(api.of("editMessageMedia", chat_id=GROUP)) > edits)
    game = await session(world)
    assert game.ply == 1 and game_.from_json(game.state).landlord == bidder

    # The landlord leads: a play chosen inline leaves their hand.
    results = await inline_results(world, people[bidder])
    plays = [r for r in results if r["title"].startswith("▶ ")]
    assert plays and all(r["input_message_content"]["message_text"].startswith("/move ") for r in plays)
    before = len(game_.from_json(game.state).hands[bidder])
    await choose(world, people[bidder], plays[0])
    await api.wait(lambda: len(api.of("editMessageMedia", chat_id=GROUP)) > edits + 1)
    game = await session(world)
    assert game.ply == 2 and len(game_.from_json(game.state).hands[bidder]) < before

    # Carol presses "My hand" on the board: Telegram opens her private chat with the bot.
    board_buttons = api.messages[(GROUP, last_board(world))]["reply_markup"]["inline_keyboard"]
    mine = next(b for row in board_buttons for b in row if b["text"] == "My hand")
    press = await api.press(world.carol, GROUP, last_board(world), mine["callback_data"])
    assert (await api.wait(lambda: api.answer(press))).params["url"] == LINK
    api.opened.add(103)
    await api.say(world.carol, 103, f"/start hand_{GROUP}")
    [carols] = await api.wait(lambda: api.of("sendPhoto", chat_id=103))
    assert "Your hand, Carol" in carols.text

    # Nothing that reached the group holds a hand.
    group_text = " ".join(c.text for c in api.to_chat(GROUP))
    assert "Your hand" not in group_text
    assert not any(line.removeprefix("hand: ") in group_text for line in hands)
    private_images = {c.photo for c in api.calls if c.photo and c.chat_id in (101, 103)}
    assert not any(c.photo in private_images for c in api.to_chat(GROUP))


def last_board(world: World) -> int:
    return max(mid for (chat, mid), m in world.api.messages.items() if chat == GROUP and "photo" in m)


async def test_after_all_passed_every_player_gets_the_new_hand_at_once(world: World) -> None:
    api, people = world.api, [world.alice, world.bob, world.carol]
    api.opened.update({101, 102, 103})
    await api.say(world.alice, GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.carol, GROUP, "/join")
    await api.wait(lambda: all(api.of("sendPhoto", chat_id=p["id"]) for p in people))  # the first hands
    for passes in range(1, 4):
        before = {p["id"]: len(api.of("sendPhoto", chat_id=p["id"])) for p in people}
        game = await session(world)
        passer = people[to_move(game)]
        await api.say(passer, GROUP, "/move pass")
        await api.wait(lambda g=game: api.of("editMessageMedia", chat_id=GROUP)[g.ply:])
        now = await session(world)
        # The one who passed and the one to bid now get their hand; after the third pass (nobody bid:
        # the cards are dealt again) all three get their new one at once, nobody has to move first.
        told = people if passes == 3 else [passer, people[to_move(now)]]
        await api.wait(lambda b=before, t=told: all(len(api.of("sendPhoto", chat_id=p["id"])) > b[p["id"]] for p in t))
    assert deal(now) == 1
    for p in people:
        assert api.of("sendPhoto", chat_id=p["id"])[-1].text.startswith(f"Your hand, {p['first_name']}")


async def test_inline_plays_are_named_in_the_players_language(world: World) -> None:
    """A player whose Telegram speaks Chinese reads 叫3分 and 不叫 (was "bid 3" and "pass"), and
    choosing one posts what the bot reads back as that move."""
    api = world.api
    people = [api.person(101, "Alice", "alice", language_code="zh-hans"), world.bob, world.carol]
    await api.say(people[0], GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.carol, GROUP, "/join")
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    while (bidder := to_move(await session(world))) != 0:  # Bob and Carol pass until it is Alice's bid
        edits = len(api.of("editMessageMedia", chat_id=GROUP))
        await api.say(people[bidder], GROUP, "/move pass")
        await api.wait(lambda edits=edits: len(api.of("editMessageMedia", chat_id=GROUP)) > edits)
    titles = {r["title"]: r for r in await inline_results(world, people[0])}
    assert {"▶ 叫1分", "▶ 叫2分", "▶ 叫3分", "▶ 不叫"} <= set(titles) and "▶ bid 3" not in titles
    edits = len(api.of("editMessageMedia", chat_id=GROUP))
    await choose(world, people[0], titles["▶ 叫3分"])
    await api.wait(lambda: len(api.of("editMessageMedia", chat_id=GROUP)) > edits)
    state = world.table.host.games["doudizhu"].from_json((await session(world)).state)
    assert state.landlord == 0 and state.base == 3
