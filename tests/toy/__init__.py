"""Tic-tac-toe, the fifth game: written as a newcomer would add a game, and registered only in
the test run. It shows that a game needs its engine, its renderer, its catalogs and one registry
line, and nothing in the host or the adapters (tests/toy/test_toy.py plays it on every platform).

`install()` is what the registry line and the catalog files do for a game that ships with the bot.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import engines
import render
from bot.i18n import catalog

LOCALES = Path(__file__).parent / "locales"
NAME = "tictactoe"


def install() -> None:
    engines.REGISTRY[NAME] = "tests.toy.tictactoe:TicTacToe"
    render.MODULES[NAME] = "tests.toy.picture"
    for folder in LOCALES.iterdir():
        with (folder / f"{NAME}.toml").open("rb") as f:
            entries = catalog(folder.name)
            for key, value in tomllib.load(f).items():
                entries[f"{NAME}.{key}"] = value  # type: ignore[index]


def uninstall() -> None:
    engines.REGISTRY.pop(NAME, None)
    render.MODULES.pop(NAME, None)
