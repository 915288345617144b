"""The slash commands the bot declares: valid for Discord, and read by the games as meant."""

from __future__ import annotations

import re

import pytest
from discord import app_commands

import engines
from bot.adapters.discord.commands import Commands, game_options
from bot.command_table import HOST_COMMANDS
from bot.i18n import Translator
from engines.base import Game
from engines.checkers.game import Checkers
from engines.doudizhu.game import DouDizhu
from engines.gomoku import Gomoku
from engines.nim import Nim

ALL_GAMES: dict[str, Game] = {g.name: g for g in (Nim(), Gomoku(), DouDizhu(), Checkers())}
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


async def _nothing(*args: object) -> list[str]:
    return []


def tree_for(games: dict[str, Game]) -> app_commands.CommandTree:
    class Client:  # all CommandTree needs of a client to be built
        _connection = type("State", (), {"_command_tree": None})()
        http = None

    tree = app_commands.CommandTree(Client())  # type: ignore[arg-type]
    Commands(tree, games, Translator("en"), _nothing, _nothing).build()  # type: ignore[arg-type]
    return tree


@pytest.mark.parametrize("game", ALL_GAMES.values(), ids=list(ALL_GAMES))
def test_every_choice_offered_is_an_option_the_game_reads(game: Game) -> None:
    for option in game_options(game):
        values = [value for _, value in option.choices] or {"heaps": ["3 4 5"], "max": [3], "misere": [True, False],
                                                            "options": []}[option.name]
        for value in values:
            words = option.words(value).split()
            game.parse_options(words)  # raises Refusal if the game does not read it


def test_the_commands_fit_discords_limits() -> None:
    tree = tree_for(ALL_GAMES)
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    assert len(payload) <= 100

    def check(command: dict) -> None:
        assert NAME.match(command["name"]) and 1 <= len(command["description"]) <= 100, command["name"]
        options = command.get("options", [])
        assert len(options) <= 25
        for option in options:
            if option["type"] in (1, 2):
                check(option)
            else:
                assert NAME.match(option["name"]) and 1 <= len(option["description"]) <= 100, option["name"]
                assert len(option.get("choices", [])) <= 25

    for command in payload:
        check(command)
    names = {c["name"] for c in payload}
    assert {"nim", "gomoku", "doudizhu", "checkers", "move", "take", "bid", "pass", "hand", "cancel"} <= names


def test_one_group_per_game_with_its_levels_and_seats() -> None:
    tree = tree_for(ALL_GAMES)
    checkers = tree.get_command("checkers")
    assert isinstance(checkers, app_commands.Group)
    actions = {c.name: c for c in checkers.commands}
    assert set(actions) == {"start", "challenge", "solo", "watch", "rules", "leaderboard", "tournament"}
    challenge = {p.name: p for p in actions["challenge"].parameters}  # type: ignore[union-attr]
    assert [n for n in challenge if n.startswith("user")] == ["user", "user2", "user3", "user4", "user5"]
    assert challenge["user"].required and not challenge["user5"].required
    solo = {p.name: p for p in actions["solo"].parameters}  # type: ignore[union-attr]
    assert [c.value for c in solo["level"].choices] == list(Checkers.levels)
    assert [c.value for c in solo["players"].choices] == [2, 3, 4, 6]


def test_the_registered_games_all_get_a_group() -> None:
    tree = tree_for(engines.all_games())
    assert set(engines.REGISTRY) <= {c.name for c in tree.get_commands()}


def test_every_host_command_is_a_slash_command() -> None:
    names = {c.name for c in tree_for(ALL_GAMES).get_commands()}
    assert set(HOST_COMMANDS) <= names
