"""Every AI level of every game, through the entry the bot uses (`engines.think`: the level's
name and its own `Limit` handed to `Game.ai`), on small positions chosen so the checks are cheap:

- the levels are the README's (its table of games names them);
- each level spends no more work (`AIInfo.work`) than its limit, and a level that searches to
  its budget spends more than the level below it may (so its own limit was used: master more
  than hard's whole budget, hard more than medium's);
- a level's name reaches its own settings: with one small budget for all, each level plays as
  its settings do and unlike the others (a level that quietly played as another would match it);
- Nim's hard is perfect, as the README says, and its easy and medium are not.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engines
from engines.base import Game, Limit
from tests.support.running import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
TITLES = {"nim": "Nim", "gomoku": "Gomoku", "doudizhu": "Dou Dizhu", "checkers": "Chinese Checkers"}


def readme_levels(name: str) -> list[str]:
    """The bot levels the README's table of games gives for `name` (its last column)."""
    row = re.search(rf"^\| {TITLES[name]}\b.*\| ([^|]+) \|$", README, re.MULTILINE)
    assert row, f"README.md's table of games has no row for {TITLES[name]} ending with its bot levels"
    return [re.sub(r"\s*\(.*?\)", "", level).strip() for level in row[1].split(",")]


def played(game: Game, moves: list[str], seats: int = 2, seed: int = 1, options: dict[str, Any] | None = None) -> Any:
    state = game.new_state(options or {}, seats, seed)
    for text in moves:
        seat = game.to_move(state)
        state = game.apply(state, seat, game.parse_move(state, seat, text))
    return state


@pytest.fixture(autouse=True)
def _no_wall_clock_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each level's work as it is, its `Limit.seconds` lifted: that ceiling is only a safety net for a
    stalled host, and a loaded machine reaches it (at a load of 17 on two cores, Dou Dizhu normal
    stopped at 17,696 of its 30,000 units when its 2 s of wall time ran out)."""
    for name in TITLES:
        levels = engines.get(name).levels
        for level, limit in list(levels.items()):
            monkeypatch.setitem(levels, level, Limit(limit.work, 1e9))


def think(game: Game, state: Any, level: str, limit: Limit | None = None) -> dict[str, Any]:
    """The bot's move at `level` as the bot asks for it: its text and what the AI said."""
    text, info = engines.think(game.name, game.to_json(state), game.to_move(state), level, 7, limit)
    return {"move": text, **{k: v for k, v in info.items() if k not in ("seconds", "cpu", "pid")}}


@pytest.mark.parametrize("name", list(TITLES))
def test_the_levels_are_the_readmes(name: str) -> None:
    assert list(engines.get(name).levels) == readme_levels(name)


def test_gomoku_each_level_spends_its_own_work() -> None:
    """White to move after h8 h9 i8 g8 j9, a quiet position: hard and master search to their
    budgets (about 0.6 and 1.9 s of CPU here), master past all of hard's."""
    game = engines.get("gomoku")
    state = played(game, ["h8", "h9", "i8", "g8", "j9"])
    limits = {level: limit.work for level, limit in game.levels.items()}
    seen = {level: think(game, state, level) for level in game.levels}
    assert "depth" not in seen["easy"]  # one ply, no search
    assert seen["medium"]["work"] <= limits["medium"]
    assert limits["medium"] < seen["hard"]["work"] <= limits["hard"]
    assert limits["hard"] < seen["master"]["work"] <= limits["master"]


@pytest.mark.parametrize("name", ["gomoku", "checkers"])
def test_each_level_reaches_its_own_settings(name: str) -> None:
    """With one small budget for every level, no two levels play alike: each name reaches its own
    search (Gomoku's levels through `Gomoku.ai` as through `ai.choose` with their settings). Dou
    Dizhu's levels are told apart by their work (below); Nim's by how often they win (below)."""
    game = engines.get(name)
    state = played(game, ["h8", "h9", "i8", "g8", "j9"]) if name == "gomoku" else checkers_midgame(game)
    small = Limit(2_000, 1e9)
    seen = {level: think(game, state, level, small) for level in game.levels}
    for a in game.levels:
        for b in game.levels:
            assert a == b or seen[a] != seen[b], f"{name}: {a} plays as {b} does: {seen[a]}"
    if name == "gomoku":
        from engines.gomoku import ai

        for level in ("medium", "hard", "master"):
            chosen = ai.choose(state, game.to_move(state), ai.LEVELS[level], small, random.Random(7))
            searched = (game.move_text(state, chosen.move), chosen.info["work"])
            assert (seen[level]["move"], seen[level]["work"]) == searched, level


# A Dou Dizhu deal (seed 19) played to an endgame: the landlord (seat 0) to play, 6, 5 and 9 cards left.
DDZ_ENDGAME = ["pass", "bid 3", "3 3", "4 4", "pass", "7 7", "9 9", "pass", "Q Q", "pass", "K K", "A A", "pass",
               "8 8 8 8", "pass", "pass", "3 3", "J J", "pass", "pass", "6", "7", "pass", "9", "10", "pass", "Q",
               "K", "pass", "BJ", "RJ", "pass", "pass", "5 5 5", "pass", "pass", "10", "pass"]


def ddz_endgame(game: Game) -> Any:
    return played(game, DDZ_ENDGAME, seats=3, seed=19, options={"mode": "points"})


def test_dou_dizhu_each_level_spends_its_own_work() -> None:
    """Early in a deal (seed 13, the landlord's second play): normal plays its split without a
    search, hard simulates past all of normal's budget (33,000-59,000 units over ten seeds). In the
    endgame above: normal solves to its whole budget, and hard goes past it."""
    game = engines.get("doudizhu")
    limits = {level: limit.work for level, limit in game.levels.items()}
    opening = played(game, ["pass", "pass", "bid 3", "5", "6", "pass"], seats=3, seed=13, options={"mode": "points"})
    seen = {level: think(game, opening, level) for level in game.levels}
    assert seen["easy"]["work"] <= limits["easy"] and seen["normal"]["work"] <= limits["normal"]
    assert limits["normal"] < seen["hard"]["work"] <= limits["hard"]
    seen = {level: think(game, ddz_endgame(game), level) for level in game.levels}
    assert seen["easy"]["work"] <= limits["easy"]
    assert seen["normal"]["work"] == limits["normal"]
    assert limits["normal"] < seen["hard"]["work"] <= limits["hard"]


def checkers_midgame(game: Game) -> Any:
    """Twelve moves into a two-player game the easy level played, with random detours."""
    rng = random.Random(1)
    state = game.new_state({}, 2, 1)
    for _ in range(12):
        seat = game.to_move(state)
        if rng.random() < 0.3:
            move = rng.choice(game.legal_moves(state, seat))
        else:
            move = game.ai(state, seat, "easy", game.levels["easy"], rng).move
        state = game.apply(state, seat, move)
    return state


def test_checkers_each_level_spends_its_own_work() -> None:
    """Two players: normal's few plies stay far within its work; hard searches past all of normal's."""
    game = engines.get("checkers")
    state = checkers_midgame(game)
    limits = {level: limit.work for level, limit in game.levels.items()}
    seen = {level: think(game, state, level) for level in game.levels}
    assert seen["easy"]["work"] <= limits["easy"]
    assert seen["normal"]["work"] <= limits["normal"]
    assert limits["normal"] < seen["hard"]["work"] <= limits["hard"]
    assert seen["easy"]["depth"] < seen["normal"]["depth"] < seen["hard"]["depth"]


def test_nim_hard_is_perfect_and_the_others_are_not() -> None:
    """README's table of games: "easy, medium, hard (perfect...)". In 200 positions with a winning
    move, through the bot's entry: hard always plays one; medium less often, easy less often still."""
    assert re.search(r"^\| Nim\b.*\| easy, medium, hard \(perfect\b", README, re.MULTILINE)
    game = engines.get("nim")
    from engines.nim import mover_loses

    found = {level: 0 for level in game.levels}
    positions = 0
    rng = random.Random(5)
    while positions < 200:
        heaps = [str(rng.randint(1, 9)) for _ in range(rng.randint(2, 4))]
        state = game.new_state(game.parse_options(heaps).options, 2, positions)
        if mover_loses(state) or len([h for h in state.heaps if h]) < 2:
            continue
        positions += 1
        seat = game.to_move(state)
        for level in game.levels:
            text, _ = engines.think("nim", game.to_json(state), seat, level, positions)
            found[level] += mover_loses(game.apply(state, seat, game.parse_move(state, seat, text)))
    assert found["hard"] == positions
    assert found["easy"] < found["medium"] < positions
