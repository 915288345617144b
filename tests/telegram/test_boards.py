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
                                      if "Bot (easy)" in e.text and "Alice, your move." in e.text])  # fmt: skip
    assert len({e.params["message_id"] for e in api.of("editMessageMedia", chat_id=GROUP)}) == 1  # one table
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 1 and after.photo[:4] == b"\x89PNG"
    game = await session(world)
    assert len(game.seats) == 3 and game.state["turn"] == 0
