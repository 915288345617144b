"""Gomoku and Chinese Checkers through the real discord.py client: offers answered by buttons, and a
question about the board answered with a picture."""

from __future__ import annotations

from tests.discord.conftest import Bot, board_saying, boards, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord, Message


async def bob_accepts_gomoku(fake: FakeDiscord, channel: int, **options: str) -> None:
    """Alice challenges Bob to Gomoku with `options`; Bob clicks Accept."""
    await run(fake, ALICE, "gomoku challenge", channel, user=BOB, **options)
    lobby = fake.last(channel, "Alice challenges Bob to Gomoku")
    assert lobby is not None
    await fake.click(BOB, lobby, "Accept")


async def test_gomoku_between_two_people_with_an_undo_by_consent(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await bob_accepts_gomoku(fake, channel, rule="renju")
    await board_saying(fake, channel, "Alice, your move.")
    await run(fake, ALICE, "move", channel, move="h8")
    await board_saying(fake, channel, "Bob, your move.")
    await run(fake, BOB, "move", channel, move="j10")

    await run(fake, BOB, "undo", channel)
    offer = await fake.wait(lambda: fake.last(channel, "Bob asks to take back their last move."))
    assert [b["label"] for b in offer.buttons] == ["Agree", "Refuse"]
    own = await fake.click(BOB, offer, "Agree")
    assert (await said_to(fake, own, "You cannot answer your own request.")).ephemeral
    await fake.click(ALICE, offer, "Agree")
    board = await board_saying(fake, channel, "Bob took back a move.")
    assert board.content.startswith(f"<@{BOB.id}>")  # Bob to move again, pinged
    session = await bot.host.store.active(f"discord:{channel}")
    assert session is not None and session.state["moves"] == ["h8"] and session.options["rule"] == "renju"

    taken = await run(fake, BOB, "move", channel, move="h8")
    assert [m.content for m in taken.said] == ["h8 is taken."]
    await run(fake, BOB, "resign", channel)
    await board_saying(fake, channel, "Alice wins")


async def test_chinese_checkers_against_bots_and_where_a_piece_can_go(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "checkers solo", channel, players=3, level="easy")
    await board_saying(fake, channel, "Alice, your move.")
    suggested = await fake.autocomplete(ALICE, "move", "move", channel, move="")
    move = suggested.choices[0]["value"]
    piece = move.replace("-", " ").split()[0]

    await run(fake, CAROL, "moves", channel, args=piece)  # anyone may ask; the answer is a picture
    shown = await board_saying(fake, channel, f"{piece} can move to")
    assert shown.png is not None

    await run(fake, ALICE, "move", channel, move=move)
    board = await board_saying(fake, channel, "Alice, your move.")
    assert "Bot (easy)" in board.content  # both bots answered
    session = await bot.host.store.active(f"discord:{channel}")
    assert session is not None and len(session.seats) == 3 and session.state["turn"] == 0


async def test_dou_dizhu_against_two_bots_from_the_bid_buttons_to_the_settlement(fake: FakeDiscord, bot: Bot) -> None:
    """Alice bids on the buttons, plays what autocomplete offers (or presses Pass), to the end."""
    channel = first_channel(fake)
    await run(fake, ALICE, "doudizhu solo", channel, level="easy")
    acted_on, bids = 0, 0

    def alices_turn_or_the_end() -> Message | None:
        shown = boards(fake, channel)  # a replaced board loses its picture: the last one is the table
        board = shown[-1] if shown else None
        if board is None or board.id == acted_on:
            return None
        return board if board.content.startswith(f"<@{ALICE.id}>") or "🏆" in board.content else None

    while "🏆" not in (board := await fake.wait(alices_turn_or_the_end)).content:
        acted_on = board.id
        if "Bid 3" in [b["label"] for b in board.buttons]:
            await fake.click(ALICE, board, "Bid 3")
            bids += 1
            continue
        offered = await fake.autocomplete(ALICE, "move", "move", channel, move="")
        plays = [c["value"] for c in offered.choices if c["value"] != "pass"]
        if plays:
            await run(fake, ALICE, "move", channel, move=plays[0])
        else:
            await fake.click(ALICE, board, "Pass")
    game = await bot.host.store.latest(f"discord:{channel}")
    assert game is not None and game.status == "finished"
    assert bids == (game.state["landlord"] == 0) <= 1  # a bid of 3 ends the bidding (unless a bot bid 3 first)
    assert [b["label"] for b in board.buttons] == ["Rematch", "Review"]
    await run(fake, ALICE, "stats", channel)
    card = fake.channel(channel)[-1]
    assert card.content == "Results of Alice:" and card.files[0][0] == "stats.png"


async def test_gomoku_swap2_opening_by_slash_commands_and_buttons(fake: FakeDiscord, bot: Bot) -> None:
    """Alice challenges with the swap2 opening, places three stones; Bob takes black on the table's button;
    Alice (now white) moves, then resigns: Bob is credited with the win."""
    channel = first_channel(fake)
    await bob_accepts_gomoku(fake, channel, opening="swap2")
    await board_saying(fake, channel, "Alice, swap2 opening: place stone 1 of 3 (black), e.g. /move h8.")
    for point, then in (("h8", "stone 2 of 3 (white)"), ("h9", "stone 3 of 3 (black)"), ("j10", "Bob, choose")):
        await run(fake, ALICE, "move", channel, move=point)
        await board_saying(fake, channel, then)
    early = await run(fake, ALICE, "swap", channel, args="black")
    assert [m.content for m in early.said] == ["It is Bob's turn."]
    wrong = await run(fake, BOB, "swap", channel, args="purple")
    assert [m.content for m in wrong.said] == ["Use /swap black, /swap white or /swap more."]

    board = await board_saying(fake, channel, "Bob, choose: /swap black")
    offered = await fake.autocomplete(BOB, "swap", "args", channel, args="")
    assert [c["value"] for c in offered.choices] == ["black", "white", "more"]
    assert board.content.startswith(f"<@{BOB.id}>") and board.png is not None  # Bob to choose, pinged
    assert [b["label"] for b in board.buttons][:3] == ["Play black", "Play white", "Two more stones"]
    await fake.click(BOB, board, "Play black")
    taken = await board_saying(fake, channel, "Bob takes black: the other player plays white and moves now.")
    assert "Alice, your move (white)." in taken.content
    await run(fake, ALICE, "move", channel, move="g7")
    await board_saying(fake, channel, "Bob, your move (black).")
    session = await bot.host.store.active(f"discord:{channel}")
    assert session is not None and session.options["opening"] == "swap2" and session.state["choices"] == ["black"]

    await run(fake, ALICE, "resign", channel)
    await board_saying(fake, channel, "Bob wins")
