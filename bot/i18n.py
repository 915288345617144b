"""The one translation layer: every sentence a user reads is looked up here.

Catalogs are TOML files `bot/locales/<language>/<namespace>.toml`; a key `k` in
`nim.toml` is the message `nim.k`. A value is a `str.format` template, or a
table of plural forms chosen by the `count` parameter (`one`, `other`). A parameter
may be a `Msg` (translated too) or a list (its items joined as the language lists
things: "alice, bob", "alice、bob"). Every
language has every key, with the same placeholders and plural forms
(`tests/bot/test_catalogs.py` checks); a key missing all the same is said in the
default language rather than failing the command.

Platforms name a reader's language by a locale (Discord "zh-CN", Telegram "zh-hans",
"en"); `language_of` reads one as a language the catalogs speak.
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
LIST_SEPARATOR = "host.list_separator"  # what joins a list parameter's items
# The languages there are catalogs for, the default first.
LANGUAGES: tuple[str, ...] = tuple(
    sorted((p.name for p in LOCALES.iterdir() if p.is_dir()), key=lambda name: (name != DEFAULT_LANGUAGE, name))
)


@cache
def catalog(language: str) -> Mapping[str, Any]:
    entries: dict[str, Any] = {}
    for path in sorted((LOCALES / language).glob("*.toml")):
        with path.open("rb") as f:
            for key, value in tomllib.load(f).items():
                entries[f"{path.stem}.{key}"] = value
    return entries


def language_of(locale: str | None) -> str | None:
    """The catalog language of a platform's locale ("zh-CN", "zh_TW", "zh-hans", "en-US"),
    or None when there is none for it. Chinese of any script reads the Simplified catalog."""
    if not locale:
        return None
    base = locale.replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else None


class Translator:
    """Turns `Msg` values into sentences of one language."""

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"no catalog for language {language!r}; there are {', '.join(LANGUAGES)}")
        self.language = language

    def __call__(self, message: Msg | str) -> str:
        if isinstance(message, str):
            return message
        template = catalog(self.language).get(message.key)
        if template is None:
            template = catalog(DEFAULT_LANGUAGE).get(message.key)
        if template is None:
            raise KeyError(f"no translation for {message.key!r} in {self.language!r}")
        params = {name: self._value(value) for name, value in message.params.items()}
        if isinstance(template, dict):
            template = template["one"] if params.get("count") == 1 else template["other"]
        return template.format(**params)

    def _value(self, value: Any) -> Any:
        """A parameter as it reads: a `Msg` translated, a list joined ("alice, bob", "alice、bob")."""
        if isinstance(value, Msg):
            return self(value)
        if isinstance(value, (list, tuple)):
            return self(Msg(LIST_SEPARATOR)).join(str(self._value(item)) for item in value)
        return value

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"


@cache
def translator(language: str) -> Translator:
    """The translator of `language` (one per language)."""
    return Translator(language)


