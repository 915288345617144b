"""Every move a player reads is in their language (`Game.move_name`): a hint, the record, a
replay's caption, the moves suggested to them. A game's notation reads the same in every language
(`h8`, `3 3 4`); words are translated (Dou Dizhu's `bid 1` is 叫1分, `pass` 过 or 不叫), and each
name reads back as its move."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engines
from bot.i18n import LANGUAGES, translator
from tests.conftest import ALICE, BOB, CAROL, Clock, close_table, open_table
from tests.support.setups import to_move


@pytest.mark.parametrize("name", sorted(engines.all_games()))
def test_every_move_name_reads_back_as_its_move_in_every_language(name: str) -> None:
    game = engines.get(name)
    rng = random.Random(7)
    options = {"opening": "swap2"} if name == "gomoku" else {}  # swap2's choices are words
    for seats in game.seat_counts[:2]:
        state = game.new_state(options, seats, rng.randrange(1 << 30))
        for _ in range(30):
            seat = game.to_move(state)
            if seat is None:
                break
            moves = game.legal_moves(state, seat)
            for move in rng.sample(moves, min(len(moves), 20)):
                for language in LANGUAGES:
                    said = translator(language)(game.move_name(state, move))
                    again = game.parse_move(state, seat, said)
                    assert game.move_text(state, again) == game.move_text(state, move), (language, said)
            state = game.apply(state, seat, rng.choice(moves))


async def test_a_hint_the_record_and_a_replay_name_moves_in_the_channels_language(tmp_path: Path,
                                                                                    clock: Clock) -> None:
    table = await open_table(tmp_path / "g.db", clock, language="zh")  # a channel speaking Chinese
    try:
        people = (ALICE, BOB, CAROL)
        await table.say(ALICE, "/ddz start")
        await table.say(BOB, "/join")
        await table.say(CAROL, "/join")
        bidder = people[to_move(await table.session())]
        [hint] = await table.say(bidder, "/hint")
        assert re.fullmatch(r"提示：(叫[123]分|不叫)(（[^）]*）)?", hint.text), hint.text
        await table.say(bidder, "/move 3")
        record = await table.text(ALICE, "/record")
        assert record.endswith("\n1. 叫3分"), record
        replayed = await table.text(ALICE, "/replay 1")
        assert "叫3分" in replayed and "bid" not in replayed
    finally:
        await close_table(table)
