"""Playing through the real discord.py client: slash commands and buttons against the stand-in Discord."""

from __future__ import annotations

from bot.model import Private, Reply
from tests.discord.conftest import PNG, Bot, board_saying, boards, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, MOD, FakeDiscord
from tests.support.pictures import png


async def test_a_slash_command_starts_nim_and_the_board_is_a_png(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    opened = await run(fake, ALICE, "nim start", channel, heaps="3 4 5", max=4)
    assert opened.callback_after is not None and opened.callback_after < 3
    assert opened.said == []  # the ephemeral "thinking…" was removed: everything went to the channel
    lobby = fake.last(channel, "Alice opened a table for Nim")
    assert lobby is not None and [b["label"] for b in lobby.buttons] == ["Join"]

    await run(fake, BOB, "join", channel)
    board = await board_saying(fake, channel, "Nim begins: Alice vs Bob")
    assert board.png is not None and board.png.startswith(PNG)
    assert board.files[0][0] == "board.png"
    # The player to move is pinged, and nobody else can be.
    assert board.content.startswith(f"<@{ALICE.id}>")
    assert board.allowed_mentions == {"parse": [], "users": [ALICE.id]}
    session = await bot.host.store.active(f"discord:{channel}")
    assert session is not None and session.state["heaps"] == [3, 4, 5] and session.options["max"] == 4


async def test_a_whole_game_against_the_bot_through_commands_and_buttons(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim solo", channel, level="hard", heaps="1 2")
    board = await board_saying(fake, channel, "Alice, your move.")
    assert "Nim begins: Alice vs Bot (hard)" in board.content

    # The Hint button answers only Alice.
    hint = await fake.click(ALICE, board, "Hint")
    shown = await said_to(fake, hint, "Hint:")
    assert shown.ephemeral and hint.callback == {"type": 6}

    # A move by the game's own word: /take heap count. The bot answers on its own, off the loop.
    await run(fake, ALICE, "take", channel, args="2 1")
    board = await board_saying(fake, channel, "Alice, your move.")
    assert "Bot (hard) took 1 stone" in board.content

    # Autocomplete offers the legal moves of the player to move; the last stone wins.
    suggested = await fake.autocomplete(ALICE, "move", "move", channel, move="")
    moves = [c["value"] for c in suggested.choices]
    assert len(moves) == 1 and moves[0].endswith(" 1")
    await run(fake, ALICE, "move", channel, move=moves[0])
    final = await board_saying(fake, channel, "Alice wins")
    assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]

    await run(fake, ALICE, "replay", channel, move=1)
    replayed = fake.channel(channel)[-1]
    assert replayed.content.startswith("After move 1 of 3") and replayed.png is not None
    assert boards(fake, channel)[-2] is final and final.buttons  # a replay does not replace the board
    stats = await run(fake, ALICE, "stats", channel)
    assert "Results of Alice" in fake.channel(channel)[-1].content and stats.said == []
    assert fake.channel(channel)[-1].png is not None

    # The Rematch button of the finished board: the first move passes to the bot, which plays at once.
    await fake.click(ALICE, final, "Rematch")
    await fake.wait(lambda: fake.last(channel, "Rematch! Nim, first move to the next player."))
    board = await board_saying(fake, channel, "Alice, your move.")
    assert "Bot (hard) took" in board.content


async def test_a_challenge_is_accepted_by_the_one_challenged_only(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim challenge", channel, user=BOB, heaps="5 5")
    lobby = fake.last(channel, "Alice challenges Bob to Nim")
    assert lobby is not None and lobby.content.startswith(f"<@{BOB.id}>")
    assert [b["label"] for b in lobby.buttons] == ["Accept", "Decline"]

    carol = await fake.click(CAROL, lobby, "Accept")
    refusal = await said_to(fake, carol, "This invitation is not for you.")
    assert refusal.ephemeral and refusal.visible_to == CAROL.id
    assert boards(fake, channel) == []

    await fake.click(BOB, lobby, "Accept")
    board = await board_saying(fake, channel, "Bob joined.")
    assert board.content.startswith(f"<@{ALICE.id}>") and board.png is not None
    # The lobby's buttons went away once the game began.
    await fake.wait(lambda: lobby.buttons == [])


async def test_a_refusal_is_shown_only_to_whoever_asked(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    asked = await run(fake, BOB, "take", channel, args="1 1")
    assert [m.content for m in asked.said] == ["There is no game in this channel. Type /help to start one."]
    assert asked.said[0].ephemeral and asked.said[0].visible_to == BOB.id
    assert fake.channel(channel) == []


async def test_the_board_is_replaced_and_the_old_one_keeps_only_its_text(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim challenge", channel, user=BOB, heaps="4 4")
    await run(fake, BOB, "accept", channel)
    first = await board_saying(fake, channel, "Nim begins")
    await run(fake, ALICE, "take", channel, args="1 1")
    second = await board_saying(fake, channel, "Bob, your move.")
    assert second.content.startswith(f"<@{BOB.id}>") and "Alice took 1 stone from heap 1" in second.content
    # The old board lost its picture and its buttons, kept its text; only one picture is in the channel.
    assert first.files == [] and first.buttons == [] and "Nim begins" in first.content and not first.deleted
    assert boards(fake, channel) == [second]


async def test_moderators_may_cancel_any_game(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim challenge", channel, user=BOB)
    await run(fake, BOB, "accept", channel)
    await run(fake, ALICE, "take", channel, args="1 1")
    for person in (ALICE, CAROL):
        refused = await run(fake, person, "cancel", channel)
        assert refused.said and refused.said[0].ephemeral
    assert "cancelled" not in fake.channel(channel)[-1].content
    await run(fake, MOD, "cancel", channel)
    assert fake.channel(channel)[-1].content == "Mona cancelled the game of Nim."
    assert await bot.host.store.active(f"discord:{channel}") is None


async def test_options_become_the_command_the_host_reads(fake: FakeDiscord, bot: Bot) -> None:
    first, second = list(fake.channels)[:2]
    suggested = await fake.autocomplete(ALICE, "nim start", "timer", first, timer="5")
    assert [c["value"] for c in suggested.choices] == ["5m"]
    await run(fake, ALICE, "nim start", first, heaps="3 4 5", max=3, misere=True, timer="2m")
    nim = await bot.host.store.active(f"discord:{first}")
    assert nim is not None and nim.turn_seconds == 120
    assert nim.options == {"heaps": [3, 4, 5], "max": 3, "misere": True}

    await run(fake, ALICE, "gomoku challenge", second, user=BOB, size=19, rule="renju")
    gomoku = await bot.host.store.active(f"discord:{second}")
    assert gomoku is not None and gomoku.options == {"size": 19, "rule": "renju", "opening": "free"}
    assert [s.user_id for s in gomoku.seats] == [f"discord:{ALICE.id}", f"discord:{BOB.id}"]


async def test_a_private_reply_for_someone_else_never_reaches_the_channel(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    secret = Reply("Bob's cards: 3 3 K", image=png(), image_name="hand.png", audience=Private(f"discord:{BOB.id}"))
    await bot.discord.deliver(f"discord:{channel}", [secret])
    # Bob has not interacted here: nothing is sent anywhere (his "My hand" button shows it on request).
    assert not any("cards" in m.content for m in fake.messages.values())

    # Once he has, it reaches him alone, as an ephemeral follow-up to his own interaction.
    seen = await run(fake, BOB, "help", channel)
    await bot.discord.deliver(f"discord:{channel}", [secret])
    shown = await said_to(fake, seen, "Bob's cards")
    assert shown.ephemeral and shown.visible_to == BOB.id and shown.files[0][0] == "hand.png"
    assert not any("cards" in m.content for m in fake.channel(channel))

    # A private reply to someone else while Alice acts goes neither to Alice nor to the channel.
    alice = await run(fake, ALICE, "help", channel)
    await bot.discord.deliver(f"discord:{channel}", [Reply("Carol's cards", audience=Private(f"discord:{CAROL.id}"))])
    assert not any("Carol's cards" in m.content for m in fake.messages.values()) and alice.said == []
