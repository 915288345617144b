"""Telegram's limits, kept by the adapter: the stand-in refuses a text over 4,096 characters, a
caption over 1,024, HTML it cannot parse, callback data over 64 bytes and keyboards over 100
buttons, as Telegram does, so a reply that broke one would be lost and these tests would fail."""

from __future__ import annotations

from bot.model import EVERYONE, Button, Reply, User
from tests.support.pictures import png
from tests.support.setups import long_nim
from tests.telegram.conftest import CHANNEL, GROUP, World, session, two_player_nim
from tests.telegram.refusals import CAPTION_MAX, TEXT_MAX, parse_html

# A long line of what HTML must escape, so a careless cut lands inside an entity.
LINE = "Alice & Bob <3 heaps: " + "&<>" * 40


async def test_a_text_over_4096_characters_arrives_in_messages_telegram_takes(world: World) -> None:
    api = world.api
    text = "\n".join(f"{i:03} {LINE}" for i in range(60)) + "\n" + "x" * 5000  # and one line longer than a message
    mention = "telegram:101"
    await world.tg.deliver(CHANNEL, [Reply(text, mentions=(mention,), names={mention: "Alice"}, audience=EVERYONE)])
    sent = await api.wait(lambda: [c for c in api.to_chat(GROUP) if "tg://user?id=101" in c.text]
                          and api.to_chat(GROUP))
    assert len(sent) >= 4 and not [c for c in api.calls if c.status != 200 and c.method == "sendMessage"]
    shown = [parse_html(c.text) for c in sent]
    assert all(len(piece) <= TEXT_MAX for piece in shown)
    assert "".join(shown).replace("\n", "").startswith(text.replace("\n", ""))  # nothing lost or garbled
    assert '<a href="tg://user?id=101">Alice</a>' in sent[-1].text  # the mention whole, in the last piece


async def test_a_board_caption_over_1024_characters_is_cut_where_telegram_can_still_parse_it(world: World) -> None:
    api = world.api
    await two_player_nim(world, "3 4")
    session_id = (await session(world)).id
    # 744 characters, 992 as HTML (each & is &amp;): the mention's link after them crosses 1,024,
    # and a cut inside the link is HTML that Telegram cannot parse.
    text = "Bob & Alice " * 62
    board = Reply(text, image=png(400, 300), board=True, session=session_id, mentions=("telegram:102",),
                  names={"telegram:102": "Bob"}, buttons=(Button("Resign", "x:resign", "/resign"),),
                  audience=EVERYONE)
    edits = len(api.of("editMessageMedia"))
    await world.tg.deliver(CHANNEL, [board])
    [edit] = await api.wait(lambda: api.of("editMessageMedia")[edits:])
    caption = parse_html(edit.text)
    assert len(edit.text) <= CAPTION_MAX and caption.endswith("…") and caption.startswith(text.strip())
    assert "&amp" not in caption and "&am…" not in caption
    assert [b["text"] for b in edit.buttons] == ["Resign"]
    assert not [c for c in api.calls if c.status != 200 and c.method in ("editMessageMedia", "sendPhoto")]


async def test_a_caption_too_long_for_a_photo_follows_it_as_a_message(world: World) -> None:
    api = world.api
    text = "\n".join(f"{i} {LINE}" for i in range(5))
    joining = Reply(text, image=png(400, 300), buttons=(Button("Join", "x:join", "/join"),), audience=EVERYONE)
    await world.tg.deliver(CHANNEL, [joining])
    photo, message = await api.wait(lambda: api.to_chat(GROUP)[1:] and api.to_chat(GROUP)[:2])
    assert photo.method == "sendPhoto" and not photo.text and message.method == "sendMessage"
    assert parse_html(message.text) == text and [b["text"] for b in message.buttons] == ["Join"]


async def test_keyboards_keep_to_telegrams_limits(world: World) -> None:
    api = world.api
    buttons = [Button(f"{i}", f"b:{i}", f"/move {i}") for i in range(120)]
    buttons.insert(3, Button("far too long", "x" * 65, "/nothing"))  # 65 bytes of callback data
    await world.tg.deliver(CHANNEL, [Reply("Pick one", buttons=tuple(buttons), audience=EVERYONE)])
    [sent] = await api.wait(lambda: api.to_chat(GROUP))
    keys = sent.buttons
    assert len(keys) == 100 and all(1 <= len(k["callback_data"].encode()) <= 64 for k in keys)
    assert [k["text"] for k in keys[:4]] == ["0", "1", "2", "3"]


async def test_a_long_record_is_a_file_and_a_short_one_a_message(world: World) -> None:
    api = world.api
    alice, bob = User("telegram:101", "Alice"), User("telegram:102", "Bob")
    await long_nim(world.table.host, CHANNEL, alice, bob, 400)  # the whole game: a record of 4,300 characters
    before = len(api.to_chat(GROUP))
    await api.say(world.carol, GROUP, "/record")
    [sent] = await api.wait(lambda: api.to_chat(GROUP)[before:])
    assert sent.method == "sendDocument" and sent.text == "Nim: Alice vs Bob (400 moves)"
    assert sent.params["caption"] == sent.text and sent.params.get("reply_markup") is None
    record = sent.document.decode()
    assert len(record) > TEXT_MAX and record.startswith("Nim: Alice vs Bob (400 moves)\n1. 1 1 · 2. 1 1")
    assert record.endswith("400. 4 1")
    # A game whose record fits one message: a message, as before.
    await two_player_nim(world, "2 2")
    await api.say(world.alice, GROUP, "/take 1 1")
    before = len(api.to_chat(GROUP))
    await api.say(world.carol, GROUP, "/record")
    [short] = await api.wait(lambda: [c for c in api.to_chat(GROUP)[before:] if c.method == "sendMessage"
                                      and c.text.startswith("Nim: Alice vs Bob (")] or None)
    assert short.text == "Nim: Alice vs Bob (1 move)\n1. 1 1"
