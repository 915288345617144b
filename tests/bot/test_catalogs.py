"""The catalogs: every language has every key, with the same placeholders and plural forms;
every key the code names exists; every template can be filled in."""

from __future__ import annotations

import ast
import re
import string
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LANGUAGES, LOCALES, catalog

ROOT = Path(__file__).resolve().parents[2]
NAMESPACES = sorted({p.stem for p in LOCALES.glob("*/*.toml")})
KEY = re.compile(rf"(?:{'|'.join(NAMESPACES)})\.[a-z0-9_]+")


def shape(value: Any) -> Any:
    """What must agree between languages: the placeholders of a template, or of each plural form."""
    if isinstance(value, dict):
        return {form: shape(text) for form, text in value.items()}
    return sorted({name for _, name, _, _ in string.Formatter().parse(value) if name is not None})


def test_there_are_english_and_chinese_catalogs_with_the_same_files() -> None:
    assert set(LANGUAGES) >= {"en", "zh"} and LANGUAGES[0] == "en"
    for language in LANGUAGES:
        assert {p.stem for p in (LOCALES / language).glob("*.toml")} == set(NAMESPACES), language


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_key_with_the_same_placeholders_and_plural_forms(language: str) -> None:
    english, other = catalog("en"), catalog(language)
    assert sorted(set(english) - set(other)) == [], f"missing in {language}"
    assert sorted(set(other) - set(english)) == [], "missing in en"
    differ = {key: (shape(english[key]), shape(other[key])) for key in english
              if shape(english[key]) != shape(other[key])}
    assert differ == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_fills_in(language: str) -> None:
    for key, value in catalog(language).items():
        for text in value.values() if isinstance(value, dict) else [value]:
            text.format(**{name: "x" for name in shape(text)})  # no stray brace, no positional {}
        if isinstance(value, dict):
            assert set(value) == {"one", "other"}, key


def test_the_chinese_catalogs_are_chinese() -> None:
    """A key copied over untranslated reads as English in the Chinese bot; only notation, names
    and symbols may stay as they are."""
    untranslated = []
    for key, value in catalog("zh").items():
        for text in value.values() if isinstance(value, dict) else [value]:
            words = re.sub(r"\{[^}]*\}|/[a-z_]+|[a-z]+=[\w|]+|[a-z]+(?:\|[a-z]+)+", "", text)  # notation
            if re.search(r"[A-Za-z]{3,}", words) and not re.search(r"[\u4e00-\u9fff]", words):
                untranslated.append(key)
    assert untranslated == []


def literal_keys() -> dict[str, list[str]]:
    """Catalog keys written out in the code of bot/, engines/ and render/ (a constant that is a
    whole key, like "host.no_game"), with where; and key prefixes ("host.offer_")."""
    found: dict[str, list[str]] = {}
    for package in ("bot", "engines", "render"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
                    found.setdefault(node.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_code_names_is_in_the_catalog(language: str) -> None:
    keys = catalog(language)
    missing = {}
    for key, where in literal_keys().items():
        present = any(k.startswith(key) for k in keys) if key.endswith("_") else key in keys
        if not present:
            missing[key] = where
    assert missing == {}
    assert len(literal_keys()) > 150  # the scan finds the keys at all


@pytest.mark.parametrize("path", sorted(LOCALES.glob("*/*.toml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_catalog_files_are_plain_toml_tables_of_strings(path: Path) -> None:
    for key, value in tomllib.loads(path.read_text()).items():
        forms = value.values() if isinstance(value, dict) else [value]
        assert all(isinstance(v, str) for v in forms), key
