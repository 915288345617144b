"""The swap2 opening (`/gomoku start swap2`): each branch of the choice, who then plays which colour and
who is credited with the win, the refusals, storage, and the AI's part in the opening."""

from __future__ import annotations

import json
import random

import pytest

from bot.i18n import Translator
from engines.base import Limit, Refusal
from engines.gomoku import Gomoku, Point, State
from engines.gomoku import opening as op
from render.base import RenderContext
from render.gomoku import render

GAME = Gomoku()
EN = Translator("en")


def new(rule: str = "freestyle", start: str = "swap2") -> State:
    return GAME.new_state(GAME.parse_options([rule, start]).options, 2, 0)


def act(state: State, *texts: str) -> State:
    """Each text typed by the seat to move (whoever that is)."""
    for text in texts:
        seat = GAME.to_move(state)
        assert seat is not None, f"the game is over before {text!r}"
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    return state


def refusal(state: State, text: str) -> str:
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(state, GAME.to_move(state) or 0, text)
    return caught.value.msg.key


THREE = ("h8", "h9", "j10")  # black, white, black: seat 0's opening stones
# Moves after the opening that give white (columns a-e, row 1 upwards) or black (rows 3.., column o) five
# while the other colour wanders far away.
WHITE_WINS = ("a1", "o3", "b1", "o5", "c1", "o7", "d1", "o9", "e1")  # white moves first, five on row 1
BLACK_WINS_AFTER_WHITE = ("a1", "o3", "a3", "o4", "a5", "o5", "a7", "o6", "a9", "o7")  # black's five on column o


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("words", [["swap2"], ["opening=swap2"], ["交换"], ["renju", "swap2", "19"]])
def test_swap2_is_an_option_of_the_table(words: list[str]) -> None:
    options = GAME.parse_options(words).options
    assert options["opening"] == "swap2"
    assert GAME.new_state(options, 2, 0).opening == "swap2"


def test_without_the_option_black_is_seat_0_as_before() -> None:
    state = new(start="free")
    assert state.opening == "free" and GAME.to_move(state) == 0
    state = act(state, "h8")
    assert GAME.to_move(state) == 1 and GAME.to_json(state) == {"size": 15, "rule": "freestyle", "moves": ["h8"],
                                                                 "win_line": []}
    assert refusal(state, "swap black") == "gomoku.swap_off"
    with pytest.raises(Refusal):
        GAME.parse_options(["opening=swap3"])


# --- the opening, branch by branch --------------------------------------------------------------


def test_the_first_player_places_black_white_black_then_the_second_chooses() -> None:
    state = new()
    for i, text in enumerate(THREE):
        assert GAME.to_move(state) == 0 and op.phase(state) == "place3"
        prompt = GAME.prompt(state, 0)
        assert prompt is not None and prompt.key == "gomoku.swap_prompt_place3" and prompt.params["number"] == i + 1
        said = GAME.describe(state, 0, GAME.parse_move(state, 0, text))
        assert said.key == "gomoku.swap_placed" and said.params["colour"].key == ("gomoku.white" if i == 1 else
                                                                                  "gomoku.black")
        state = act(state, text)
    assert state.board[7 * 15 + 7] == 1 and state.board[8 * 15 + 7] == 2 and state.board[9 * 15 + 9] == 1
    assert GAME.to_move(state) == 1 and op.phase(state) == "decide" and op.black_seat(state) is None
    assert GAME.prompt(state, 1).key == "gomoku.swap_prompt_decide"
    assert [m for _, m in GAME.quick_moves(state, 1)] == ["swap black", "swap white", "swap more"]
    assert GAME.legal_moves(state, 0) == [] and GAME.legal_moves(state, 1)[:3] == ["black", "white", "more"]


def test_second_player_takes_black_then_white_moves_and_black_wins_for_seat_1() -> None:
    state = act(new(), *THREE, "swap black")
    assert op.black_seat(state) == 1 and GAME.to_move(state) == 0  # the first player, now white, moves
    assert GAME.prompt(state, 0).params["colour"].key == "gomoku.white"
    state = act(state, *BLACK_WINS_AFTER_WHITE)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1) and outcome.winners == (1,)
    assert GAME.to_move(state) is None


def test_second_player_takes_white_and_moves_now_and_white_wins_for_seat_1() -> None:
    state = act(new(), *THREE, "swap white")
    assert op.black_seat(state) == 0 and GAME.to_move(state) == 1 and state.turn == 1
    state = act(state, *WHITE_WINS)
    assert GAME.outcome(state).winners == (1,)


def test_a_point_where_the_second_player_chooses_is_their_white_stone() -> None:
    before = act(new(), *THREE)
    said = GAME.describe(before, 1, GAME.parse_move(before, 1, "a1"))
    assert said.key == "gomoku.swap_white_stone" and said.params["move"] == "a1"
    state = act(before, "a1")
    assert state.choices == ("white",) and op.black_seat(state) == 0 and GAME.to_move(state) == 0
    state = act(state, *WHITE_WINS[1:])
    assert GAME.outcome(state).winners == (1,)


@pytest.mark.parametrize(("pick", "black", "winner_if_white_wins"), [("black", 0, 1), ("white", 1, 0)])
def test_two_more_stones_then_the_first_player_picks(pick: str, black: int, winner_if_white_wins: int) -> None:
    state = act(new(), *THREE, "swap more")
    assert op.phase(state) == "place2" and GAME.to_move(state) == 1
    assert refusal(state, "swap black") == "gomoku.swap_place_first_2"
    state = act(state, "k11")  # white
    assert GAME.to_move(state) == 1 and state.turn == 0
    state = act(state, "g7")  # black
    assert op.phase(state) == "pick" and GAME.to_move(state) == 0
    assert GAME.prompt(state, 0).key == "gomoku.swap_prompt_pick"
    assert GAME.legal_moves(state, 0) == ["black", "white"]
    assert GAME.describe(state, 0, pick).key == f"gomoku.swap_picked_{pick}"
    state = act(state, f"swap {pick}")
    assert op.black_seat(state) == black and GAME.to_move(state) == 1 - black  # white moves after 5 stones
    state = act(state, *WHITE_WINS)
    assert GAME.outcome(state).winners == (winner_if_white_wins,)


# --- refusals ------------------------------------------------------------------------------------


def test_every_wrong_word_in_the_opening_gets_a_reason() -> None:
    state = new()
    assert refusal(state, "swap black") == "gomoku.swap_place_first_3"
    assert refusal(state, "swap") == "gomoku.swap_usage"
    assert refusal(state, "swap purple") == "gomoku.swap_usage"
    decide = act(state, *THREE)
    assert refusal(decide, "purple") == "gomoku.swap_decide_usage"
    assert refusal(decide, "h8") == "gomoku.taken"
    pick = act(decide, "swap more", "a1", "o15")
    assert refusal(pick, "swap more") == "gomoku.swap_pick_usage"
    assert refusal(pick, "c3") == "gomoku.swap_pick_usage"
    assert refusal(pick, "nonsense") == "gomoku.swap_pick_usage"
    settled = act(pick, "black")
    assert refusal(settled, "swap white") == "gomoku.swap_settled"
    for state in (decide, pick, settled):
        for seat in range(2):
            if seat != GAME.to_move(state):
                assert GAME.legal_moves(state, seat) == []


@pytest.mark.parametrize(("typed", "choice"), [("/swap black", None), ("swap black", "black"), ("执黑", "black"),
                                               ("交换 白", "white"), ("加两子", "more"), ("SWAP MORE", "more")])
def test_choices_read_in_both_languages(typed: str, choice: str | None) -> None:
    assert op.read_choice(typed) == choice


def test_renju_binds_whoever_plays_black() -> None:
    # seat 1 takes black; black's double three at h9 (two open threes) is refused to seat 1.
    state = act(new("renju"), "h8", "a1", "h10", "swap black", "b1", "i8", "c1", "g10", "d15")
    assert op.black_seat(state) == 1 and GAME.to_move(state) == 1 and state.turn == 0
    assert refusal(state, "h9").startswith("gomoku.forbidden_")
    assert [p for p in GAME.view(state, None)["forbidden"]] == [[7, 8]]


# --- storage and views -----------------------------------------------------------------------------


def test_every_stage_round_trips_through_json_and_draws() -> None:
    """A seeded random game through each branch: the JSON round trip, legal moves read back from their
    notation, the view, the text board and the picture at every step."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new("renju" if seed % 2 else "freestyle")
        while GAME.to_move(state) is not None and len(state.moves) < 12:
            seat = GAME.to_move(state)
            data = json.loads(json.dumps(GAME.to_json(state)))
            assert GAME.to_json(GAME.from_json(data)) == data and GAME.from_json(data) == state
            moves = GAME.legal_moves(state, seat)
            for move in rng.sample(moves, min(8, len(moves))):
                assert GAME.parse_move(state, seat, GAME.move_text(state, move)) == move
            view = GAME.view(state, None)
            assert view["opening"] == "swap2" and view["black_seat"] == op.black_seat(state)
            assert "swap2" in GAME.text(view, EN)
            choices = [m for m in moves if isinstance(m, str)]
            state = GAME.apply(state, seat, rng.choice(choices) if choices and rng.random() < 0.7 else moves[-1])
        assert op.phase(state) == "play"


def test_a_stored_game_from_before_swap2_loads_as_a_free_opening() -> None:
    state = GAME.from_json({"size": 15, "rule": "renju", "moves": ["h8", "h9"], "win_line": []})
    assert state.opening == "free" and GAME.to_move(state) == 0 and op.black_seat(state) == 0


def test_the_picture_shows_who_plays_black_after_the_swap(tmp_path) -> None:
    from PIL import Image

    state = act(new(), *THREE, "swap black", "a1")
    ctx = RenderContext(("alice", "bob"), GAME.to_move(state), None, EN)
    image = Image.open(__import__("io").BytesIO(render(GAME.view(state, None), ctx))).convert("RGB")
    left, right = image.getpixel((12 + 25, 36)), image.getpixel((12 + 25 + (image.width - 24) // 2, 36))
    assert sum(left) > 600 and sum(right) < 250  # alice's disc white, bob's black
    (tmp_path / "swap.png").write_bytes(render(GAME.view(state, None), ctx))


# --- the AI -----------------------------------------------------------------------------------------

TINY = Limit(2_000, 5.0)


def canonical(state: State) -> tuple[tuple[int, int], ...]:
    first = state.moves[0]
    return tuple((p.col - first.col, p.row - first.row) for p in state.moves[1:3])


@pytest.mark.parametrize("seed", range(8))
def test_the_ai_places_a_balanced_opening_as_the_first_player(seed: int) -> None:
    state = new()
    for i in range(3):
        result = GAME.ai(state, 0, "easy", GAME.levels["easy"], random.Random(seed * 10 + i))
        state = GAME.apply(state, 0, result.move)
    assert state.moves[0] == Point(7, 7)
    shapes = {tuple(op._turned(o, s) for o in opening) for opening in op.BALANCED for s in op.SYMMETRIES}
    assert canonical(state) in shapes and op.phase(state) == "decide"


def test_the_ai_finishes_an_opening_a_person_began_elsewhere() -> None:
    state = act(new(), "a1")  # not the centre: no opening of the list fits; the search places the stone
    result = GAME.ai(state, 0, "medium", TINY, random.Random(1))
    assert isinstance(result.move, Point) and state.at(result.move) == 0


def test_the_second_player_ai_takes_the_side_its_search_favours() -> None:
    strong_black = act(new(), "h8", "a1", "i8")  # two black stones together, white's far in the corner
    assert GAME.ai(strong_black, 1, "medium", TINY, random.Random(1)).move == "black"
    strong_white = act(new(), "a1", "h8", "o15")  # white in the centre and to move
    move = GAME.ai(strong_white, 1, "medium", TINY, random.Random(1)).move
    assert isinstance(move, Point)  # white, with its stone at once
    even = act(new(), "h8", "h9", "f10")  # the list's closest to even: two more stones
    assert op.score(even)[0] > -op.MARGIN
    assert GAME.ai(even, 1, "medium", TINY, random.Random(1)).move == "more"


def test_the_ai_places_two_more_stones_then_picks_the_side_its_search_favours() -> None:
    state = act(new(), "h8", "h9", "f10", "swap more")
    for _ in range(2):
        result = GAME.ai(state, 1, "medium", TINY, random.Random(3))
        assert isinstance(result.move, Point)
        state = GAME.apply(state, 1, result.move)
    assert op.phase(state) == "pick" and len(state.moves) == 5
    assert max(abs(p.col - 7) + abs(p.row - 7) for p in state.moves) <= 6  # near the others
    value, _ = op.score(state)
    pick = GAME.ai(state, 0, "medium", TINY, random.Random(3)).move
    assert pick == ("white" if value > 0 else "black")


@pytest.mark.parametrize("levels", [("easy", "easy"), ("medium", "easy"), ("easy", "medium")])
def test_bots_play_a_swap2_game_to_the_end(levels: tuple[str, str]) -> None:
    state = new()
    rng = random.Random(5)
    while GAME.to_move(state) is not None:
        seat = GAME.to_move(state)
        result = GAME.ai(state, seat, levels[seat], GAME.levels[levels[seat]], rng)
        text = GAME.move_text(state, result.move)
        state = GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    outcome = GAME.outcome(state)
    assert outcome is not None and op.phase(state) == "play"
    if outcome.winners:  # the winner is the seat of the colour that made five
        colour = state.board[state.win_line[0].row * 15 + state.win_line[0].col] - 1
        assert outcome.winners == (op.seat_of(state, colour),)
