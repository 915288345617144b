"""Private replies (hidden hands) never reach the group: the player's private chat, or a
button that opens it; the deep link shows the hand there; inline mode without a game."""

from __future__ import annotations

import re
from typing import Any

from bot.model import Private, Reply
from tests.support.pictures import png
from tests.support.setups import Secret, secret_of
from tests.telegram.conftest import GROUP, World, button, session, two_player_nim

PNG = png()  # a real one: Telegram refuses a photo it cannot decode
LINK = f"https://t.me/gamehost_bot?start=hand_{GROUP}"


async def test_a_private_reply_goes_to_the_private_chat_or_becomes_a_button_that_opens_it(world: World) -> None:
    api = world.api
    api.opened.add(101)  # Alice has talked to the bot before; Bob never has
    await two_player_nim(world, "3 4")
    session = (await world.table.store.latest(f"telegram:{GROUP}")).id
    before = len(api.to_chat(GROUP))
    secret_a = Reply("Your hand, Alice: 3 4 5", image=PNG, image_name="hand.png", session=session,
                     audience=Private("telegram:101"))
    secret_b = Reply("Your hand, Bob: 7 7 2", image=PNG, image_name="hand.png", session=session,
                     audience=Private("telegram:102"))
    await world.tg.deliver(f"telegram:{GROUP}", [secret_a, secret_b])
    [to_alice] = api.of("sendPhoto", chat_id=101)
    assert to_alice.text == "Your hand, Alice: 3 4 5" and to_alice.photo == PNG
    [nudge] = api.to_chat(GROUP)[before:]
    assert nudge.method == "sendMessage" and "7 7 2" not in nudge.text and "Bob" in nudge.text
    assert nudge.text.startswith('<a href="tg://user?id=102">')
    assert [b.get("url") for b in nudge.buttons] == [LINK]
    assert all(c.photo != PNG for c in api.to_chat(GROUP))
    await world.tg.deliver(f"telegram:{GROUP}", [secret_b])  # the next move's hand: no second nudge
    assert len(api.to_chat(GROUP)) == before + 1 and len(api.of("sendPhoto", chat_id=101)) == 1


async def test_the_deep_link_answers_in_the_private_chat_never_the_group(world: World) -> None:
    api = world.api
    api.opened.add(102)  # pressing the link opens the chat: Telegram sends /start with the payload
    await api.say(world.bob, 102, f"/start hand_{GROUP}")
    [answer] = await api.wait(lambda: api.to_chat(102))
    assert answer.text == "There is no game in this channel. Type /help to start one."
    assert api.to_chat(GROUP) == []
    await api.say(world.bob, 102, "/start")  # a plain start: how to play
    await api.wait(lambda: api.to_chat(102)[1:])
    assert "Play a game in this channel" in api.to_chat(102)[1].text
    assert "/&lt;game&gt; start" in api.to_chat(102)[1].text  # escaped for parse_mode HTML


async def test_inline_mode_without_a_game_offers_to_open_the_bot(world: World) -> None:
    api = world.api
    query = await api.inline(world.carol, "")
    answer = await api.wait(lambda: api.inline_answer(query))
    assert answer.params["results"] == [] and answer.params["is_personal"] is True
    assert answer.params["cache_time"] == 0 and answer.params["button"]["start_parameter"] == "help"


# --- every private reply kind, typed in the group ----------------------------------------------
async def ddz_landlord(world: World) -> tuple[dict[str, Any], Secret]:
    """Alice, Bob and Carol play Dou Dizhu in the group; the first bidder bids 3 and leads. The
    landlord, and what only they may see."""
    api, people = world.api, [world.alice, world.bob, world.carol]
    await api.say(world.alice, GROUP, "/ddz start")
    await api.wait(lambda: api.to_chat(GROUP))
    await api.say(world.bob, GROUP, "/join")
    await api.say(world.carol, GROUP, "/join")
    # The board, then a note for each of them (none has opened a private chat with the bot).
    await api.wait(lambda: len([c for c in api.to_chat(GROUP) if "your cards are private" in c.text]) == 3)
    bidder = people[secret_of(await session(world)).seat]
    await api.say(bidder, GROUP, "/move 3")
    await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    secret = secret_of(await session(world))
    assert people[secret.seat] is bidder  # the landlord leads
    return bidder, secret


async def typed_and_answered(world: World, user: dict[str, Any], text: str, where: int) -> tuple[dict[str, Any], Any]:
    """`user` types `text` in the group; the bot's next message in chat `where`."""
    before = len(world.api.to_chat(where))
    typed = await world.api.say(user, GROUP, text)
    return typed, (await world.api.wait(lambda: world.api.to_chat(where)[before:]))[0]


async def test_a_hint_a_refusal_about_ones_cards_and_a_link_code_reach_only_the_private_chat(world: World) -> None:
    api = world.api
    landlord, secret = await ddz_landlord(world)
    me = landlord["id"]
    # Not opened yet: the group gets a note with nothing of the answer, replying to what they typed.
    for text in ("/hint", f"/move {secret.typed}", "/link"):
        typed, note = await typed_and_answered(world, landlord, text, GROUP)
        assert note.method == "sendMessage" and "my answer is for you alone" in note.text
        assert note.params["reply_parameters"]["message_id"] == typed["message_id"]
        assert [b.get("url") for b in note.buttons] == ["https://t.me/gamehost_bot?start=help"]
    # Opened: each answer is in the private chat, in full.
    api.opened.add(me)
    _, hint = await typed_and_answered(world, landlord, "/hint", me)
    assert hint.text.startswith("Hint: ")
    _, refusal = await typed_and_answered(world, landlord, f"/move {secret.typed}", me)
    assert refusal.text == secret.refusal and re.match(r"You have no (second |third |fourth )?\w+\.", refusal.text)
    _, code = await typed_and_answered(world, landlord, "/link", me)
    assert "code:" in code.text
    _, hand = await typed_and_answered(world, landlord, "/hand", me)
    assert hand.method == "sendPhoto" and hand.text.startswith(f"Your hand, {landlord['first_name']}")
    # The group saw none of it: no hint, no refusal, no code, no hand.
    group = " ".join(c.text for c in api.to_chat(GROUP))
    assert "Hint:" not in group and secret.refusal not in group and "code:" not in group
    assert "Your hand" not in group and secret.hand not in group


async def test_a_hint_pressed_is_the_presss_alert_which_only_the_presser_sees(world: World) -> None:
    api = world.api
    landlord, _ = await ddz_landlord(world)
    before = len(api.to_chat(GROUP))
    board = api.bot_messages(GROUP)[0]
    query = await api.press(landlord, GROUP, board["message_id"], button(api.of("sendPhoto", chat_id=GROUP)[0],
                                                                          "Hint"))
    alert = await api.wait(lambda: api.answer(query))
    assert alert.params["text"].startswith("Hint: ") and alert.params["show_alert"] is True
    assert api.to_chat(GROUP)[before:] == []


async def test_a_refusal_that_tells_no_cards_reaches_a_player_who_never_opened_the_private_chat(world: World) -> None:
    """Only what depends on a player's own cards is private: "It is Alice's turn" is said in the
    group (as a reply to the command); "You have no second 7" never is, even as a fallback."""
    api = world.api
    landlord, secret = await ddz_landlord(world)  # nobody has opened a private chat with the bot
    other = next(p for p in (world.alice, world.bob, world.carol) if p is not landlord)
    typed, answer = await typed_and_answered(world, other, "/move 3", GROUP)
    assert answer.text == f"It is {landlord['first_name']}'s turn." and not answer.buttons
    assert answer.params["reply_parameters"]["message_id"] == typed["message_id"]
    typed, answer = await typed_and_answered(world, landlord, "/bid 2", GROUP)  # the game's, about no card
    assert answer.text.startswith("The bidding is over") and not answer.buttons
    _, note = await typed_and_answered(world, landlord, f"/move {secret.typed}", GROUP)
    assert "my answer is for you alone" in note.text
    assert [c for c in api.to_chat(GROUP) if secret.refusal in c.text] == []
