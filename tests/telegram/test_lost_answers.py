"""A message Telegram made whose answer never reached the bot (`LOST`: done, then the connection
dropped) leaves nothing stale at the bottom of the chat: a ping of the player to move whose answer
was lost is followed by the board posted anew (its caption pings) and is deleted; a /board photo
the bot does not know is never left below an older board that moves then edit."""

from __future__ import annotations

from typing import Any

from tests.telegram.conftest import GROUP, World, two_player_nim
from tests.telegram.standin import LOST, failing


def bottom_board(world: World) -> dict[str, Any]:
    """The board people see at the bottom of the chat: the newest photo in it."""
    return [m for m in world.api.bot_messages(GROUP) if "photo" in m][-1]


def pings(world: World) -> list[dict[str, Any]]:
    """The "X, your move." messages in the chat now."""
    return [m for m in world.api.bot_messages(GROUP) if "your move" in m.get("text", "")]


async def test_a_ping_whose_answer_was_lost_is_deleted_and_the_board_posted_below_it(world: World) -> None:
    api = world.api
    first = await two_player_nim(world, "3 4 5")
    await api.say(world.alice, GROUP, "/take 1 1")  # edited in place, Bob pinged
    [ping] = await api.wait(lambda: pings(world))
    await api.say(world.carol, GROUP, "nice")  # people talk meanwhile (the bot does not see it)
    api.faults.append(failing({"sendMessage"}, 1, LOST))
    await api.say(world.bob, GROUP, "/take 2 1")  # the ping "Alice, your move." is made, its answer lost
    lost = await api.wait(lambda: [c for c in api.calls if c.description == "done, answer lost"])
    board = await api.wait(lambda: [c for c in api.of("sendPhoto", chat_id=GROUP) if "Bob took 1" in c.text])
    assert "Alice, your move." in board[0].text  # posted anew: its caption pings Alice
    await api.wait(lambda: not pings(world))  # the lost ping, found and deleted; Bob's old one too
    assert lost[0].params["text"].endswith("your move.") and bottom_board(world)["message_id"] > first
    assert api.messages[(GROUP, first)]["photo"]  # the old board stays, above: a line of history

    await api.say(world.alice, GROUP, "/take 3 1")  # the next move edits the board at the bottom
    edit = await api.wait(lambda: [c for c in api.of("editMessageMedia", chat_id=GROUP) if "from heap 3" in c.text])
    assert edit[0].params["message_id"] == bottom_board(world)["message_id"]
    [again] = await api.wait(lambda: pings(world))  # Bob's turn: one ping, under the board at the bottom
    assert again["text"] == ping["text"] and again["message_id"] > bottom_board(world)["message_id"]
    assert not [c for c in api.calls if c.method == "editMessageText" and c.status == 200]  # nothing changed


async def test_a_board_photo_whose_answer_was_lost_is_never_left_below_an_edited_older_board(world: World) -> None:
    api = world.api
    first = await two_player_nim(world, "3 4 5")
    api.faults.append(failing({"sendPhoto"}, 1, LOST))
    await api.say(world.alice, GROUP, "/board")  # posted at the bottom, its answer lost: the bot knows it not
    await api.wait(lambda: [c for c in api.calls if c.description == "done, answer lost"])
    unknown = bottom_board(world)["message_id"]
    assert unknown > first
    await api.say(world.alice, GROUP, "/take 1 2")
    await api.wait(lambda: "Alice took 2" in bottom_board(world).get("caption", ""))  # was: the older board edited
    assert bottom_board(world)["message_id"] > unknown
    assert "Bob, your move." in bottom_board(world)["caption"]
    await api.say(world.bob, GROUP, "/take 2 1")
    await api.wait(lambda: "Bob took 1" in bottom_board(world).get("caption", ""))  # edited in place from there
    assert len(api.of("sendPhoto", chat_id=GROUP)) == 3  # the first, the lost /board, the one posted anew
