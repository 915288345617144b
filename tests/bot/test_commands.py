"""The one parser: what it reads, and that no text can break it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.command_table import parse
from bot.parser import MAX_TEXT, Command, ParseError
from engines.base import msg
from tests.support.hostile import hostile_text

GAMES = {"nim": "nim", "gomoku": "gomoku", "ddz": "doudizhu", "doudizhu": "doudizhu"}


def test_game_commands() -> None:
    assert parse("/nim start 3 4 5", GAMES) == Command("start", "nim", ("3", "4", "5"), (), "nim")
    assert parse("/nim 3 4 5", GAMES) == Command("start", "nim", ("3", "4", "5"), (), "nim")
    assert parse("/NIM Solo hard", GAMES) == Command("solo", "nim", ("hard",), (), "nim")
    assert parse("/ddz solo", GAMES).game == "doudizhu"


def test_challenge_collects_mentions() -> None:
    c = parse("/gomoku challenge @bob renju", GAMES)
    assert c.name == "challenge" and c.mentions == ("@bob",) and c.args == ("@bob", "renju")
    assert parse("/gomoku challenge <@1234>", GAMES).mentions == ("<@1234>",)


def test_host_commands_and_bot_addressing() -> None:
    assert parse("/take 2 3", GAMES) == Command("take", None, ("2", "3"), (), "take")
    assert parse("/join@gamehost_bot", GAMES, bot_name="gamehost_bot").name == "join"
    assert parse("/join@other_bot", GAMES, bot_name="gamehost_bot") is None


def test_not_commands() -> None:
    assert parse("hello there", GAMES) is None
    assert parse("/", GAMES) is None
    assert parse("/join@other_bot " + "x" * 2000, GAMES, bot_name="gamehost_bot") is None  # another bot's


def test_a_command_too_long_is_refused_not_ignored() -> None:
    assert parse("/" + "x" * 2000, GAMES) == ParseError(msg("host.too_long", most=MAX_TEXT))
    assert parse("/move " + "h8 " * 2000, GAMES) == ParseError(msg("host.too_long", most=MAX_TEXT))


def test_garbage_is_a_parse_error_with_a_reason() -> None:
    assert isinstance(parse("/日本 1", GAMES), ParseError)
    assert isinstance(parse("/move " + "1 " * 100, GAMES), ParseError)


@given(st.one_of(st.text(max_size=300), hostile_text(80)))
def test_arbitrary_text_never_breaks_the_parser(text: str) -> None:
    result = parse(text, GAMES)
    assert result is None or isinstance(result, Command | ParseError)
    result = parse("/" + text, GAMES, bot_name="gamehost_bot")
    assert result is None or isinstance(result, Command | ParseError)
