"""/review through the real discord.py client: refused during a game (to the asker alone), then the
result's Review button and /review N answer everyone with the picture and its text."""

from __future__ import annotations

import pytest

from tests.console.test_review import BLUNDER
from tests.discord.conftest import Bot, board_saying, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord
from tests.discord.test_games import bob_accepts_gomoku
from tests.engines.test_review import DDZ_MOVES
from tests.support.pictures import picture


async def test_a_gomoku_blunder_reviewed_by_button_and_command(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await bob_accepts_gomoku(fake, channel)
    for i, point in enumerate(BLUNDER):
        if i == 3:
            early = await run(fake, CAROL, "review", channel)
            refused = await said_to(fake, early, "A review is only for a finished game")
            assert refused.ephemeral
        await run(fake, ALICE if i % 2 == 0 else BOB, "move", channel, move=point)
    result = await board_saying(fake, channel, "Alice wins")
    assert [b["label"] for b in result.buttons] == ["Rematch", "Review"]
    await fake.click(CAROL, result, "Review")
    shown = await fake.wait(lambda: fake.last(channel, "Move 6, a15 let black win at once ("))
    assert "held)." in shown.content and "Alice won from there." in shown.content and not shown.ephemeral
    picture(shown.png)
    await run(fake, BOB, "review", channel, back=1)
    again = await fake.wait(lambda: [m for m in fake.channel(channel) if m.content.startswith("Move 6, a15")][1:])
    assert again[0].png is not None


async def test_a_dou_dizhu_endgame_error_found_exactly(fake: FakeDiscord, bot: Bot,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.core.secrets.randbits", lambda bits: 0)  # the deal of tests.engines.test_review
    channel = first_channel(fake)
    await run(fake, ALICE, "doudizhu start", channel)
    await run(fake, BOB, "join", channel)
    await run(fake, CAROL, "join", channel)
    people = (ALICE, BOB, CAROL)
    for seat, move in DDZ_MOVES:
        await run(fake, people[seat], "move", channel, move=move)
    await board_saying(fake, channel, "Bob")
    await run(fake, ALICE, "review", channel)
    shown = await fake.wait(lambda: fake.last(channel, "Move 39, Alice passed and turned a won endgame"))
    assert "(2 kept the win: every hand known, solved exactly)" in shown.content and not shown.ephemeral
    picture(shown.png)
