"""Dou Dizhu farmers together against the landlord's last card (through `Game.ai` at the bot's levels): a farmer
does not overtake its partner's play when taking the trick would make it lead into the landlord's last card."""

from __future__ import annotations

import math
import random

from engines.base import Limit
from engines.budget import Budget
from engines.doudizhu.cards import counts_of_cards, counts_of_ranks
from engines.doudizhu.rules import Play, classify
from engines.doudizhu.solver import Solver
from engines.doudizhu.state import trick
from tests.engines.test_doudizhu_ai import GAME, endgame_state, think


def test_the_farmer_lets_the_partners_pair_go_rather_than_lead_into_the_last_card() -> None:
    # The landlord (seat 0) holds a 9. Farmer 1 leads 4 4 and keeps an ace; farmer 2 could overtake with 6 6,
    # but then it would have to lead one of its singles, all under the 9. It lets the pair go: the ace goes out.
    state = endgame_state(("3 9", "4 4 A 2", "3 5 6 6 7 8"),
                          ((0, "3"), (1, "2"), (2, "pass"), (0, "pass"), (1, "4 4")))
    assert GAME.to_move(state) == 2
    hands = tuple(counts_of_cards(h) for h in state.hands)
    current = trick(state)
    assert current is not None
    solver = Solver(0, Budget(Limit(10**7, math.inf)))
    # the position as it lies: passing wins for the farmers, the 6 6 loses
    overtake = GAME.parse_move(state, 2, "6 6")
    assert not solver.landlord_wins((hands[0], hands[1], hands[2]), 0, (current[2], current[0]))
    assert overtake in GAME.legal_moves(state, 2)
    pair = counts_of_ranks(overtake.ranks)
    combo = classify(pair)
    assert combo is not None
    assert solver.after((hands[0], hands[1], hands[2]), 2, (current[2], current[0]), Play(combo, pair))
    for level in ("normal", "hard"):
        for seed in range(2):
            move = think(state, 2, level, 1.0, random.Random(seed))
            assert GAME.move_text(state, move) == "pass", level
