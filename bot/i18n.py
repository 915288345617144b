"""The one translation layer: every sentence a user reads is looked up here.

Catalogs are TOML files `bot/locales/<language>/<namespace>.toml`; a key `k` in
`nim.toml` is the message `nim.k`. A value is a `str.format` template, or a
table of plural forms chosen by the `count` parameter (`one`, `other`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import Msg

LOCALES = Path(__file__).parent / "locales"
DEFAULT_LANGUAGE = "en"


@cache
def catalog(language: str) -> Mapping[str, Any]:
    entries: dict[str, Any] = {}
    for path in sorted((LOCALES / language).glob("*.toml")):
        with path.open("rb") as f:
            for key, value in tomllib.load(f).items():
                entries[f"{path.stem}.{key}"] = value
    return entries


class Translator:
    """Turns `Msg` values into sentences of one language (English when a key is missing)."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language

    def __call__(self, message: Msg | str) -> str:
        if isinstance(message, str):
            return message
        template = catalog(self.language).get(message.key)
        if template is None:
            template = catalog(DEFAULT_LANGUAGE).get(message.key)
        if template is None:
            raise KeyError(f"no translation for {message.key!r}")
        params = {name: self(value) if isinstance(value, Msg) else value for name, value in message.params.items()}
        if isinstance(template, dict):
            template = template["one"] if params.get("count") == 1 else template["other"]
        return template.format(**params)


def t(key: str, **params: Any) -> Msg:
    """Shorthand for a message the host says."""
    return Msg(key, params)
