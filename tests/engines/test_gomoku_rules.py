"""Gomoku rules as a player meets them: options, coordinates, refusals, wins, renju's forbidden moves."""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import Translator
from engines.base import Refusal
from engines.gomoku import Gomoku, Point, State
from tests.engines.gomoku_positions import position

GAME = Gomoku()
ROOT = Path(__file__).resolve().parents[2]


def new(size: int = 15, rule: str = "freestyle") -> State:
    return GAME.new_state({"size": size, "rule": rule}, 2, 0)


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = GAME.apply(state, state.turn, GAME.parse_move(state, state.turn, text))
    return state


def refusal(state: State, text: str, seat: int | None = None) -> Refusal:
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(state, state.turn if seat is None else seat, text)
    return caught.value


# --- options ---------------------------------------------------------------------------------


def test_default_is_freestyle_15() -> None:
    assert GAME.parse_options([]).options == {"size": 15, "rule": "freestyle", "opening": "free"}
    assert GAME.parse_options([]).seats == 2


@pytest.mark.parametrize(
    ("args", "options"),
    [
        (["19"], {"size": 19, "rule": "freestyle", "opening": "free"}),
        (["size=19", "renju"], {"size": 19, "rule": "renju", "opening": "free"}),
        (["standard"], {"size": 15, "rule": "standard", "opening": "free"}),
        (["rule=renju", "15x15"], {"size": 15, "rule": "renju", "opening": "free"}),
        (["RENJU"], {"size": 15, "rule": "renju", "opening": "free"}),
        (["19路", "连珠"], {"size": 19, "rule": "renju", "opening": "free"}),
        (["19×19", "标准"], {"size": 19, "rule": "standard", "opening": "free"}),
        (["无禁手"], {"size": 15, "rule": "freestyle", "opening": "free"}),
    ],
)
def test_options(args: list[str], options: dict) -> None:
    assert GAME.parse_options(args).options == options


def test_bad_options_are_refused_with_the_reason() -> None:
    with pytest.raises(Refusal) as caught:
        GAME.parse_options(["17"])
    assert caught.value.msg.key == "gomoku.bad_size"
    for language in ("en", "zh"):
        assert "17" in Translator(language)(caught.value.msg)
    with pytest.raises(Refusal) as caught:
        GAME.parse_options(["pente"])
    assert caught.value.msg.key == "gomoku.bad_option" and caught.value.msg.params["option"] == "pente"
    assert "pente" in Translator("zh")(caught.value.msg)


# --- coordinates -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["h8", "H8", "8h", "8H", " h 8 ", "h08"])
def test_the_centre_is_h8_however_it_is_typed(text: str) -> None:
    assert GAME.parse_move(new(), 0, text) == Point(7, 7)


@pytest.mark.parametrize("typed", ["Ｈ８", "ｈ８", "８ｈ", "８Ｈ", "Ｈ　８", "ｈ０８"])
def test_full_width_points_read_as_the_host_hands_them_over(typed: str) -> None:
    """The host normalises every line with NFKC before the engine sees it: full-width letters and digits
    (as a Chinese keyboard types them) become ASCII, and parse_move reads the result."""
    assert GAME.parse_move(new(), 0, unicodedata.normalize("NFKC", typed)) == Point(7, 7)


def test_columns_go_left_to_right_and_rows_bottom_to_top() -> None:
    assert GAME.parse_move(new(), 0, "a1") == Point(0, 0)
    assert GAME.parse_move(new(), 0, "o1") == Point(14, 0)
    assert GAME.parse_move(new(), 0, "a15") == Point(0, 14)
    assert GAME.parse_move(new(19), 0, "s19") == Point(18, 18)
    assert GAME.parse_move(new(19), 0, "k10") == Point(10, 9)


def test_points_off_the_board_are_refused_by_name() -> None:
    r = refusal(new(), "p8")
    assert r.msg.key == "gomoku.no_such_column" and r.msg.params == {"column": "p", "last": "o"}
    r = refusal(new(), "h16")
    assert r.msg.key == "gomoku.no_such_row" and r.msg.params == {"row": 16, "last": 15}
    assert refusal(new(19), "t1").msg.params["last"] == "s"
    assert refusal(new(), "h0").msg.key == "gomoku.no_such_row"


@pytest.mark.parametrize("text", ["", "hh", "88", "h8 i9", "centre", "h-8"])
def test_unreadable_moves_say_how_to_move(text: str) -> None:
    r = refusal(new(), text)
    assert r.msg.key == "gomoku.how_to_move" and r.msg.params["example"] == "h8"


def test_a_taken_point_is_refused() -> None:
    state = play(new(), "h8")
    r = refusal(state, "H8")
    assert r.msg.key == "gomoku.taken" and r.msg.params == {"point": "h8"}


def test_black_moves_first_then_white() -> None:
    state = new()
    assert GAME.to_move(state) == 0  # black moves first
    assert GAME.to_move(play(state, "h8")) == 1


# --- winning -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("black", "last", "line"),
    [
        (["d8", "e8", "f8", "g8"], "h8", "d8 e8 f8 g8 h8"),  # across
        (["h3", "h4", "h6", "h7"], "h5", "h3 h4 h5 h6 h7"),  # down, the last stone in the middle
        (["b2", "c3", "d4", "e5"], "a1", "a1 b2 c3 d4 e5"),  # diagonal from the corner
        (["o1", "n2", "m3", "l4"], "k5", "k5 l4 m3 n2 o1"),  # anti-diagonal
    ],
)
def test_five_in_a_row_wins_and_names_the_five(black: list[str], last: str, line: str) -> None:
    state = position(black, ["h12", "i12", "j13", "b14"])
    state = play(state, last)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason.key == "gomoku.five" and outcome.reason.params["points"] == line
    assert [Point(*p).name for p in GAME.view(state, None)["win_line"]] == line.split()
    assert GAME.to_move(state) is None
    assert refusal(state, "n14").msg.key == "gomoku.game_over"


def test_white_wins_too() -> None:
    state = position(["a1", "c1", "e1", "g1", "i2"], ["h8", "h9", "h10", "h11"], to_move=1)
    state = play(state, "h12")
    assert GAME.outcome(state).winners == (1,)
    assert GAME.outcome(state).ranks == (2, 1)


def test_a_four_is_not_yet_a_win() -> None:
    assert GAME.outcome(play(position(["d8", "e8", "f8"], ["a14", "b14", "c14"]), "g8")) is None


def test_overline_wins_in_freestyle_and_is_named() -> None:
    state = play(position(["e8", "f8", "g8", "i8", "j8"], ["a14", "b14", "c14", "d14", "k14"]), "h8")
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.reason.key == "gomoku.long_line"
    assert outcome.reason.params["count"] == 6


def test_standard_needs_exactly_five_for_both_colours() -> None:
    black_six = play(position(["e8", "f8", "g8", "i8", "j8"], ["a14", "b14", "c14", "d14", "k14"], "standard"), "h8")
    assert GAME.outcome(black_six) is None and GAME.to_move(black_six) == 1
    white_six = position(["a1", "c1", "e1", "g1", "i1", "k1"], ["e8", "f8", "g8", "i8", "j8"], "standard", 1)
    assert GAME.outcome(play(white_six, "h8")) is None
    five = play(position(["e8", "f8", "g8", "i8"], ["a14", "b14", "c14", "d14"], "standard"), "h8")
    assert GAME.outcome(five).winners == (0,)


def test_a_full_board_without_five_is_a_draw() -> None:
    black = [Point(c, r).name for r in range(15) for c in range(15) if ((c + 2 * r) // 2) % 2 == 0]
    white = [Point(c, r).name for r in range(15) for c in range(15) if ((c + 2 * r) // 2) % 2 == 1]
    moves = [m for pair in zip(black, [*white, None], strict=True) for m in pair if m]
    state = play(new(), *moves[:-1])
    assert GAME.outcome(state) is None and GAME.legal_moves(state, 0) == [GAME.parse_move(state, 0, moves[-1])]
    state = play(state, moves[-1])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason.key == "gomoku.board_full"
    assert GAME.to_move(state) is None


# --- renju ---------------------------------------------------------------------------------------


def renju_refusal(black: list[str], white: list[str], point: str) -> str | None:
    state = position(black, white, "renju")
    try:
        GAME.parse_move(state, 0, point)
    except Refusal as r:
        assert r.msg.params == {"point": point}
        return r.msg.key
    return None


def test_renju_refuses_black_double_three() -> None:
    assert renju_refusal(["g8", "i8", "h7", "h9"], ["a14", "c14", "e14", "n1"], "h8") == "gomoku.forbidden_double_three"
    # f8 . h8 . j8 is no three (filling a gap makes a four, never an open one), so h8 makes one three only
    assert renju_refusal(["f8", "j8", "h6", "h7"], ["a14", "c14", "e14", "n1"], "h8") is None
    # g8 h8 . j8 is a (split) three
    assert renju_refusal(["g8", "j8", "h6", "h7"], ["a14", "c14", "e14", "n1"], "h8") == "gomoku.forbidden_double_three"


def test_renju_double_three_with_a_three_that_is_not_open_is_allowed() -> None:
    # e8 (white) . g8 h8 i8 . k8 (white): either four it makes is closed, so h8 makes only one real three.
    assert renju_refusal(["g8", "i8", "h7", "h9"], ["e8", "k8", "a14", "c14"], "h8") is None
    # c8 . . f8 g8 h8 . . k8: both fours the three could become would be six in a row, so it is no three.
    assert renju_refusal(["c8", "f8", "g8", "k8", "h7", "h9"], ["a14", "c14", "e14", "n1", "n3", "l14"], "h8") is None
    assert renju_refusal(["f8", "g8", "h7", "h9"], ["a14", "c14", "e14", "n1"], "h8") == "gomoku.forbidden_double_three"


def test_renju_refuses_black_double_four_across_two_lines_and_in_one_line() -> None:
    two_lines = renju_refusal(["e8", "f8", "g8", "h5", "h6", "h7"], ["d8", "h4", "a14", "c14", "n1", "n3"], "h8")
    assert two_lines == "gomoku.forbidden_double_four"
    one_line = renju_refusal(["e8", "g8", "i8", "k8"], ["a14", "c14", "e14", "n1"], "h8")  # e8 . g8 h8 i8 . k8
    assert one_line == "gomoku.forbidden_double_four"


def test_renju_refuses_black_overline_but_white_wins_with_six() -> None:
    assert renju_refusal(["e8", "f8", "g8", "i8", "j8"], ["a14", "c14", "e14", "n1", "n3"], "h8") == (
        "gomoku.forbidden_overline"
    )
    white = position(["a1", "c1", "e1", "g1", "i1", "k1"], ["e8", "f8", "g8", "i8", "j8"], "renju", 1)
    assert GAME.outcome(play(white, "h8")).winners == (1,)


def test_renju_five_wins_even_if_it_also_makes_a_forbidden_shape() -> None:
    black = ["d8", "e8", "f8", "g8", "h5", "h6", "h7"]  # h8: five across and a four down
    state = position(black, ["a14", "c14", "e14", "n1", "n3", "l14", "j14"], "renju")
    assert GAME.outcome(play(state, "h8")).winners == (0,)


def test_renju_leaves_white_free_and_the_same_shapes_are_fine_in_freestyle() -> None:
    white = position(["a14", "c14", "e14", "n1", "n3"], ["g8", "i8", "h7", "h9"], "renju", 1)
    assert GAME.parse_move(white, 1, "h8") == Point(7, 7)
    free = position(["g8", "i8", "h7", "h9"], ["a14", "c14", "e14", "n1"], "freestyle")
    assert GAME.parse_move(free, 0, "h8") == Point(7, 7)


def test_renju_forbidden_points_are_not_legal_and_are_shown() -> None:
    state = position(["g8", "i8", "h7", "h9"], ["a14", "c14", "e14", "n1"], "renju")
    assert Point(7, 7) not in GAME.legal_moves(state, 0)
    assert [7, 7] in GAME.view(state, None)["forbidden"]
    assert GAME.view(play(state, "n14"), None)["forbidden"] == []  # white to move: nothing is forbidden


# --- records, JSON, notation -----------------------------------------------------------------------

random_games = st.lists(st.tuples(st.integers(0, 18), st.integers(0, 18)), max_size=60)


def random_game(points: list[tuple[int, int]], size: int, rule: str) -> State:
    state = new(size, rule)
    for c, r in points:
        if GAME.to_move(state) is None:
            break
        try:  # parse_move owns legality: it refuses taken and forbidden points
            point = GAME.parse_move(state, state.turn, Point(c % size, r % size).name)
        except Refusal:
            continue
        state = GAME.apply(state, state.turn, point)
    return state


@settings(max_examples=40, deadline=None)
@given(random_games, st.sampled_from([15, 19]), st.sampled_from(["freestyle", "standard", "renju"]))
def test_json_round_trip(points: list[tuple[int, int]], size: int, rule: str) -> None:
    state = random_game(points, size, rule)
    again = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
    assert again == state
    assert GAME.view(again, None) == GAME.view(state, None)


@settings(max_examples=25, deadline=None)
@given(random_games, st.sampled_from([15, 19]), st.sampled_from(["freestyle", "renju"]))
def test_move_text_reads_back_for_every_legal_move(points: list[tuple[int, int]], size: int, rule: str) -> None:
    state = random_game(points, size, rule)
    seat = GAME.to_move(state)
    if seat is None:
        return
    for move in GAME.legal_moves(state, seat):
        assert GAME.parse_move(state, seat, GAME.move_text(state, move)) == move


@settings(max_examples=25, deadline=None)
@given(random_games, st.sampled_from(["freestyle", "standard", "renju"]))
def test_a_record_replays_to_the_same_game(points: list[tuple[int, int]], rule: str) -> None:
    state = random_game(points, 15, rule)
    record = [GAME.move_text(state, m) for m in state.moves]
    assert play(new(15, rule), *record) == state


def test_view_carries_the_move_order_and_the_last_stone() -> None:
    state = play(new(), "h8", "i9", "g7")
    view = GAME.view(state, None)
    assert view["moves"] == [[7, 7], [8, 8], [6, 6]] and view["last"] == [6, 6] and view["win_line"] == []
    assert "●" in GAME.text(view, Translator()) and "○" in GAME.text(view, Translator())
    assert GAME.text(view, Translator()).splitlines()[-1] == "last: g7"
    assert GAME.text(view, Translator("zh")).splitlines()[-1] == "最后一手：g7"


def test_board_numbers_query_turns_the_numbers_on() -> None:
    state = play(new(), "h8")
    assert GAME.query(state, None, "board", ["numbers"]).overlay == {"numbers": True}
    assert GAME.query(state, None, "board", []).overlay == {"numbers": False}
    with pytest.raises(Refusal):
        GAME.query(state, None, "board", ["sideways"])


# --- the catalog ---------------------------------------------------------------------------------------


def load_catalog(language: str) -> dict:
    with (ROOT / f"bot/locales/{language}/gomoku.toml").open("rb") as f:
        return tomllib.load(f)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_message_the_game_and_its_picture_use_is_in_the_catalog(language: str) -> None:
    catalog = load_catalog(language)
    sources = [*sorted((ROOT / "engines/gomoku").glob("*.py")), ROOT / "render/gomoku.py"]
    keys = set()
    for path in sources:
        text = path.read_text()
        keys |= set(re.findall(r"(?:Refusal|msg)\(\s*\"gomoku\.(\w+)\"", text))
        # keys built from a value: every value the rules can produce
        if re.search(r"Refusal\(f\"gomoku\.forbidden_\{reason\}\"", text):
            keys |= {f"forbidden_{reason}" for reason in ("overline", "double_four", "double_three")}
        if re.search(r"msg\(f\"gomoku\.rule_\{view\[.rule.\]\}\"", text):
            keys |= {f"rule_{rule}" for rule in ("freestyle", "standard", "renju")}
    assert {"taken", "no_such_column", "forbidden_double_three", "five", "subtitle", "rule_renju", "last"} <= keys
    assert keys - set(catalog) == set()
    assert "title" in catalog and "rules" in catalog


def _placeholders(template: str | dict) -> dict:
    if isinstance(template, dict):
        return {form: _placeholders(text) for form, text in template.items()}
    return {"fields": sorted(set(re.findall(r"{(\w+)}", template)))}


def test_chinese_and_english_have_the_same_keys_placeholders_and_plural_forms() -> None:
    en, zh = load_catalog("en"), load_catalog("zh")
    assert set(en) == set(zh)
    for key in en:
        assert _placeholders(en[key]) == _placeholders(zh[key]), key


def test_the_chinese_catalog_is_chinese_and_names_the_rules_as_players_do() -> None:
    zh = load_catalog("zh")
    assert (zh["title"], zh["black"], zh["white"]) == ("五子棋", "黑棋", "白棋")
    assert zh["rule_freestyle"] == "无禁手"
    assert zh["rule_standard"].startswith("标准") and zh["rule_renju"].startswith("连珠")
    for word in ("禁手", "三三", "四四", "长连", "活三", "和棋"):
        assert word in zh["rules"]
    for key, text in zh.items():
        if not key.startswith("option_size_"):
            assert re.search(r"[\u4e00-\u9fff]", str(text)), key
