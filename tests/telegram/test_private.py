"""Private replies (hidden hands) never reach the group: the player's private chat, or a
button that opens it; the deep link shows the hand there; inline mode without a game."""

from __future__ import annotations

from bot.model import Reply
from tests.pictures import png
from tests.telegram.conftest import GROUP, World, two_player_nim

PNG = png()  # a real one: Telegram refuses a photo it cannot decode
LINK = f"https://t.me/gamehost_bot?start=hand_{GROUP}"


async def test_a_private_reply_goes_to_the_private_chat_or_becomes_a_button_that_opens_it(world: World) -> None:
    api = world.api
    api.opened.add(101)  # Alice has talked to the bot before; Bob never has
    await two_player_nim(world, "3 4")
    session = (await world.table.store.latest(f"telegram:{GROUP}")).id
    before = len(api.to_chat(GROUP))
    secret_a = Reply("Your hand, Alice: 3 4 5", image=PNG, image_name="hand.png", to="telegram:101", session=session)
    secret_b = Reply("Your hand, Bob: 7 7 2", image=PNG, image_name="hand.png", to="telegram:102", session=session)
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
