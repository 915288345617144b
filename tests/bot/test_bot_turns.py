"""A bot's move is played only on the game it was thought for: if the game changed while the
bot thought (an undo, a resignation), its move is dropped and the bot looks again."""

from __future__ import annotations

from tests.bot.test_supervision import gated, said
from tests.conftest import ALICE, Table, until


async def test_a_move_thought_for_a_game_that_was_undone_meanwhile_is_dropped(table: Table) -> None:
    ai = gated(table)
    await table.say(ALICE, "/nim solo 3 4 5")
    ai.gate.clear()
    await table.say(ALICE, "/take 1 1")
    await until(lambda: ai.asked == 1)  # the bot is thinking about heaps 2 4 5
    assert "took back" in await table.text(ALICE, "/undo")  # against the bot: at once; Alice to move again
    ai.gate.set()
    await table.host.idle()
    session = await table.session()
    assert session.ply == 0 and session.state["heaps"] == [3, 4, 5], session.state
    assert not said(table, "Bot (hard) took") and ai.asked == 1  # its move was dropped, no new one asked


async def test_a_move_thought_for_a_game_that_ended_meanwhile_is_dropped(table: Table) -> None:
    ai = gated(table)
    await table.say(ALICE, "/nim solo 3 4 5")
    ai.gate.clear()
    await table.say(ALICE, "/take 1 1")
    await until(lambda: ai.asked == 1)
    await table.say(ALICE, "/resign")
    ai.gate.set()
    await table.host.idle()
    session = await table.session()
    assert session.status == "finished" and session.ply == 1 and not said(table, "Bot (hard) took")
