"""Gomoku and Chinese Checkers through the real python-telegram-bot client: an offer answered on its
keyboard, and a question about the board answered on the table's photo."""

from __future__ import annotations

import engines
from tests.telegram.conftest import GROUP, World, button, last_message_id, session


async def test_gomoku_between_two_people_with_an_undo_by_consent(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/gomoku challenge @bob renju")
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    await api.press(world.bob, GROUP, last_message_id(world), button(lobby, "Accept"))
    await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    await api.say(world.alice, GROUP, "/move h8")
    await api.wait(lambda: api.of("editMessageMedia", chat_id=GROUP))
    await api.say(world.bob, GROUP, "/move j10")
    await api.wait(lambda: len(api.of("editMessageMedia", chat_id=GROUP)) == 2)

    await api.say(world.bob, GROUP, "/undo")
    [offer] = await api.wait(lambda: [c for c in api.to_chat(GROUP) if "Bob asks to take back" in c.text])
    assert [b["text"] for b in offer.buttons] == ["Agree", "Refuse"]
    offer_id = last_message_id(world)
    own = await api.press(world.bob, GROUP, offer_id, button(offer, "Agree"))
    assert (await api.wait(lambda: api.answer(own))).params["text"] == "You cannot answer your own request."
    await api.press(world.alice, GROUP, offer_id, button(offer, "Agree"))
    edits = await api.wait(lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP) if "took back" in e.text])
    assert "Bob took back a move." in edits[-1].text and edits[-1].photo[:4] == b"\x89PNG"
    game = await session(world)
    assert game.state["moves"] == ["h8"] and game.options["rule"] == "renju"

    await api.say(world.bob, GROUP, "/resign")
    await api.wait(lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP) if "🏆 Alice wins" in e.text])


async def test_chinese_checkers_against_bots_and_where_a_piece_can_go(world: World) -> None:
    api = world.api
    await api.say(world.alice, GROUP, "/checkers solo 3 easy")
    [start] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "Alice, your move." in start.text
    checkers = engines.get("checkers")
    state = checkers.from_json((await session(world)).state)
    move = checkers.move_text(state, checkers.legal_moves(state, 0)[0])
    piece = move.split("-")[0]

    await api.say(world.carol, GROUP, f"/moves {piece}")  # anyone may ask: the table shows the holes
    [asked] = await api.wait(lambda: [c for c in api.of("editMessageMedia", chat_id=GROUP) if "can move to" in c.text])
    assert asked.photo[:4] == b"\x89PNG" and asked.photo != start.photo and asked.text.startswith(piece)

    await api.say(world.alice, GROUP, f"/move {move}")
    [after] = await api.wait(lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP)
                                      if "Bot (easy)" in e.text and "Alice, your move." in e.text])
    assert len({e.params["message_id"] for e in api.of("editMessageMedia", chat_id=GROUP)}) == 1  # one table
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1 and after.photo[:4] == b"\x89PNG"
    game = await session(world)
    assert len(game.seats) == 3 and game.state["turn"] == 0


async def test_gomoku_swap2_opening_by_commands_and_buttons(world: World) -> None:
    """Alice places the three opening stones, Bob asks for two more on the table's button, places them,
    Alice picks white by command, and Bob, with black, resigns: Alice is credited."""
    api = world.api
    assert world.api.menus["en"]["swap"] == "Gomoku: /swap (a move)"  # the command menu lists /swap

    def table_saying(text: str):
        return lambda: [e for e in api.of("editMessageMedia", chat_id=GROUP) if text in e.text]

    await api.say(world.alice, GROUP, "/gomoku challenge @bob swap2")
    [lobby] = await api.wait(lambda: api.to_chat(GROUP))
    await api.press(world.bob, GROUP, last_message_id(world), button(lobby, "Accept"))
    [start] = await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
    assert "Alice, swap2 opening: place stone 1 of 3 (black), e.g. /move h8." in start.text
    table = last_message_id(world)
    for i, point in enumerate(("h8", "h9", "j10")):
        await api.say(world.alice, GROUP, f"/move {point}")
        await api.wait(lambda i=i: len(api.of("editMessageMedia", chat_id=GROUP)) == i + 1)
    [choose] = await api.wait(table_saying("Bob, choose: /swap black"))
    assert [b["text"] for b in choose.buttons][:3] == ["Play black", "Play white", "Two more stones"]
    await api.say(world.alice, GROUP, "/swap black")  # not hers to choose
    await api.wait(lambda: [c for c in api.to_chat(GROUP) if "It is Bob's turn." in c.text])

    await api.press(world.bob, GROUP, table, button(choose, "Two more stones"))
    await api.wait(table_saying("Bob will place two more stones, then the other player picks a colour."))
    await api.say(world.bob, GROUP, "/move k11")
    await api.wait(table_saying("Bob, place extra stone 2 of 2 (black)"))
    await api.say(world.bob, GROUP, "/move g7")
    await api.wait(table_saying("Alice, pick your colour: /swap black"))
    await api.say(world.alice, GROUP, "/swap white")
    [picked] = await api.wait(table_saying("Alice picks white."))
    assert "Alice, your move (white)." in picked.text and picked.photo[:4] == b"\x89PNG"
    game = await session(world)
    assert game.state["opening"] == "swap2" and game.state["choices"] == ["more", "white"]

    await api.say(world.bob, GROUP, "/resign")
    await api.wait(table_saying("🏆 Alice wins"))
