"""Dou Dizhu rules as a player meets them: dealing, bidding, playing, refusals, scoring, views."""

from __future__ import annotations

import json
import random
import re
import string
import tomllib
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n import Translator
from engines.base import Msg, Refusal
from engines.doudizhu import DouDizhu, Move, State
from engines.doudizhu.cards import LABELS, counts_of_cards, parse_ranks, rank_of
from engines.doudizhu.rules import KINDS
from engines.doudizhu.state import PASS, deal_cards

GAME = DouDizhu()
tr = Translator()
ROOT = Path(__file__).resolve().parents[2]


def cards(text: str, used: set[int] | None = None) -> tuple[int, ...]:
    """Card ids for ranks typed as a player would, taking unused suits."""
    used = set() if used is None else used
    out = []
    ranks = parse_ranks(text)
    assert ranks is not None
    for rank in ranks:
        card = next(c for c in range(54) if rank_of(c) == rank and c not in used)
        used.add(card)
        out.append(card)
    return tuple(sorted(out))


def table(landlord_hand: str, farmer1: str, farmer2: str, base: int = 1, bottom: str | None = None) -> State:
    """A game in the play phase: seat 0 is the landlord (bid `base`), seats 1 and 2 the farmers."""
    used: set[int] = set()
    hands = (cards(landlord_hand, used), cards(farmer1, used), cards(farmer2, used))
    low = hands[0][:3] if bottom is None else cards(bottom, set())
    return State("points", 1, 0, hands, low, 0, (base,), 0, base, ())


def said(message: Msg, name: str) -> str:
    """A move announced as the host does it: the mover's name filled in."""
    return tr(Msg(message.key, {**message.params, "name": name}))


def play(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, GAME.parse_move(state, seat, text))


def refusal(state: State, seat: int, text: str) -> str:
    with pytest.raises(Refusal) as caught:
        GAME.apply(state, seat, GAME.parse_move(state, seat, text))
    return tr(caught.value.msg)


# --- dealing and bidding -------------------------------------------------------------------------


def test_deal_is_54_cards_and_reproducible() -> None:
    state = GAME.new_state({"mode": "points"}, 3, 1234)
    assert [len(h) for h in state.hands] == [17, 17, 17] and len(state.bottom) == 3
    assert sorted(c for h in state.hands for c in h) + sorted(state.bottom) != []
    assert sorted([*state.hands[0], *state.hands[1], *state.hands[2], *state.bottom]) == list(range(54))
    assert GAME.new_state({"mode": "points"}, 3, 1234) == state
    assert GAME.new_state({"mode": "points"}, 3, 1235).hands != state.hands
    assert deal_cards(1234, 1)[0] != state.hands


def test_points_bidding_highest_bidder_takes_the_bottom() -> None:
    state = GAME.new_state({"mode": "points"}, 3, 7)
    first = GAME.to_move(state)
    assert first == state.first_bidder
    assert GAME.view(state, None)["bottom"] is None
    state = play(state, first, "bid 1")
    second = (first + 1) % 3
    assert "already 1" in refusal(state, second, "1")
    assert refusal(state, second, "bid 4") == "Bids are 1, 2 or 3."
    assert [m.bid for m in GAME.legal_moves(state, second) if m.kind == "bid"] == [2, 3]
    assert [t for _, t in GAME.quick_moves(state, second)] == ["bid 2", "bid 3", "pass"]
    state = play(state, second, "2")
    third = (second + 1) % 3
    bottom = state.bottom
    state = play(state, third, "pass")
    assert state.landlord == second and state.base == 2
    assert len(state.hands[second]) == 20 and set(bottom) <= set(state.hands[second])
    view = GAME.view(state, None)
    assert view["bottom"] == list(bottom) and view["landlord"] == second and view["bid"] == 2
    assert GAME.to_move(state) == second  # the landlord leads


def test_a_bid_of_three_ends_bidding_at_once() -> None:
    state = GAME.new_state({}, 3, 8)
    first = GAME.to_move(state)
    text = said(GAME.describe(state, first, Move("bid", bid=3)), "Ann")
    state = play(state, first, "bid 3")
    assert state.landlord == first and state.base == 3
    assert text == "Ann bid 3 and is the landlord."


def test_all_pass_redeals_reproducibly() -> None:
    for mode in ("points", "call"):
        state = GAME.new_state({"mode": mode}, 3, 99)
        for i in range(3):
            seat = GAME.to_move(state)
            if i == 2:
                text = said(GAME.describe(state, seat, PASS), "Bo")
                assert text == "Bo passed; nobody bid, so the cards are dealt again."
            state = play(state, seat, "pass")
        hands, bottom, first = deal_cards(99, 1)
        assert state.deal == 1 and state.hands == hands and state.bottom == bottom
        assert GAME.to_move(state) == first and state.landlord is None and state.bids == ()
        assert GAME.view(state, None)["deal"] == 1


def test_call_mode_first_caller_is_landlord_at_base_one() -> None:
    setup = GAME.parse_options(["call"])
    assert setup.options == {"mode": "call"} and setup.seats == 3
    state = GAME.new_state(setup.options, 3, 5)
    first = GAME.to_move(state)
    assert [t for _, t in GAME.quick_moves(state, first)] == ["call", "pass"]
    assert "call the landlord or pass" in refusal(state, first, "bid 2")
    state = play(state, first, "pass")
    second = GAME.to_move(state)
    state = play(state, second, "call")
    assert state.landlord == second and state.base == 1 and len(state.hands[second]) == 20


def test_options() -> None:
    assert GAME.parse_options([]).options == {"mode": "points"}
    with pytest.raises(Refusal) as caught:
        GAME.parse_options(["fast"])
    assert "fast" in tr(caught.value.msg)


# --- playing -------------------------------------------------------------------------------------


def test_leading_passing_and_taking_the_lead_back() -> None:
    state = table("3 4 5 5 9 9 K", "6 6 7 7 Q", "4 4 10 J A")
    assert refusal(state, 0, "pass") == "You lead, so you must play cards."
    assert GAME.quick_moves(state, 0) == []
    state = play(state, 0, "55")
    assert [t for _, t in GAME.quick_moves(state, 1)] == ["pass"]
    assert refusal(state, 1, "7") == (
        "Not the same kind: a pair of 5s is beaten only by a higher pair, a bomb or the rocket, not by a single 7.")
    state = play(state, 1, "77")
    assert refusal(state, 2, "44") == "Too low: a pair of 4s does not beat a pair of 7s."
    state = play(state, 2, "pass")
    state = play(state, 0, "99")
    state = play(state, 1, "pass")
    state = play(state, 2, "pass")
    view = GAME.view(state, None)
    assert view["lead"] and view["trick"] is None and GAME.to_move(state) == 0
    state = play(state, 0, "3")  # after two passes the last player leads anything
    assert GAME.view(state, None)["trick"]["kind"] == "single"


def test_refusals_say_why() -> None:
    state = table("5 5 7 J J J Q", "9 9 2", "3 4 6")
    assert refusal(state, 0, "77") == "You have no second 7."
    assert refusal(state, 0, "8") == "You have no 8."
    assert refusal(state, 0, "JJJJ") == "You have no fourth jack."
    assert refusal(state, 0, "BJ") == "You have no black joker."
    assert refusal(state, 0, "57") == "That is not a valid play."
    assert refusal(state, 0, "xyz").startswith("I can't read “xyz” as cards")
    assert refusal(state, 0, "bid 2") == "The bidding is over: play cards or pass."
    state = play(state, 0, "99".replace("9", "5"))
    assert refusal(state, 1, "2") == (
        "Not the same kind: a pair of 5s is beaten only by a higher pair, a bomb or the rocket, not by a single 2.")
    bidding = GAME.new_state({}, 3, 3)
    seat = GAME.to_move(bidding)
    assert refusal(bidding, seat, "JJ") == "The bidding is still on: bid or pass first."
    assert refusal(bidding, seat, "33") == "Bids are 1, 2 or 3."


def test_pair_of_fives_does_not_beat_pair_of_nines() -> None:
    state = table("9 9 4", "5 5 6", "7 8 10")
    state = play(state, 0, "99")
    assert refusal(state, 1, "55") == "Too low: a pair of 5s does not beat a pair of 9s."


def test_chain_length_and_bomb_refusals() -> None:
    state = table("3 4 5 6 7 K", "4 5 6 7 8 9 Q Q Q Q 2", "J")
    state = play(state, 0, "34567")
    assert refusal(state, 1, "456789") == (
        "Not the same kind: a straight from 3 to 7 is beaten only by a higher straight of 5 cards, a bomb or the "
        "rocket, not by a straight from 4 to 9.")
    state = play(state, 1, "QQQQ")
    assert GAME.view(state, None)["multiplier"] == 2
    state = play(state, 2, "pass")
    state = play(state, 0, "pass")
    state = play(state, 1, "56789")
    assert GAME.view(state, None)["trick"]["chain"] == 5


def test_bombs_and_rocket() -> None:
    state = table("3 3 3 3 4", "BJ RJ 5 6", "7 7 7 7 8")
    state = play(state, 0, "4")
    state = play(state, 1, "pass")
    state = play(state, 2, "7777")
    assert refusal(state, 0, "3333") == "Too low: a bomb of 3s does not beat a bomb of 7s."
    state = play(state, 0, "pass")
    state = play(state, 1, "小王大王")
    assert refusal(state, 2, "8") == "Nothing beats the rocket: pass."
    assert GAME.view(state, None)["multiplier"] == 4 and GAME.view(state, None)["bombs"] == 2


# --- the end and the score -----------------------------------------------------------------------


def test_spring_with_a_bomb_doubles_twice() -> None:
    state = table("3 3 3 3 K K", "4 5 6", "7 8 9", base=3)
    state = play(state, 0, "KK")
    state = play(state, 1, "pass")
    state = play(state, 2, "pass")
    state = play(state, 0, "3333")
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_move(state) is None
    assert outcome.ranks == (1, 2, 2) and outcome.winners == (0,)
    assert outcome.scores == (24, -12, -12)  # base 3 x bomb 2 x spring 2 = 12; landlord gets 2 x 12
    assert tr(outcome.reason) == "spring! the farmers never played · stake 3 × 4"
    assert GAME.view(state, None)["spring"] == "spring"


def test_anti_spring() -> None:
    state = table("3 4 5 6 8 8", "9", "10 J")
    state = play(state, 0, "3")
    state = play(state, 1, "9")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (2, 1, 1)
    assert outcome.scores == (-4, 2, 2)
    assert tr(outcome.reason).startswith("anti-spring!")


def test_whoever_resigns_pays_the_stake_so_far_to_each_other_seat() -> None:
    state = table("3 3 3 3 4 5", "6 7 8", "9 10 J", base=2)
    state = play(state, 0, "3333")  # a bomb doubles the stake to 4
    gone = Msg("host.resigned", {"name": "bob"})
    farmer_left = GAME.forfeit(state, 3, 1, gone)
    assert farmer_left.ranks == (1, 3, 1) and farmer_left.scores == (4, -8, 4) and farmer_left.reason == gone
    assert GAME.forfeit(state, 3, 0, gone).scores == (-8, 4, 4)
    bidding = GAME.new_state(GAME.parse_options([]).options, 3, 5)
    assert GAME.forfeit(bidding, 3, 2, gone).scores == (1, 1, -2)  # no bid yet: the least stake


def test_plain_win_no_spring() -> None:
    state = table("3 4 5 A", "9 K", "10 J", base=2)
    for seat, text in ((0, "3"), (1, "9"), (2, "pass"), (0, "A"), (1, "pass"), (2, "pass"), (0, "4"), (1, "K")):
        state = play(state, seat, text)
    outcome = GAME.outcome(state)
    assert outcome is not None  # the landlord played three times: no anti-spring
    assert outcome.scores == (-4, 2, 2) and outcome.ranks == (2, 1, 1)
    assert tr(outcome.reason) == "a farmer played out first · stake 2 × 1"
    state = table("3 4 A", "9 K", "10 J", base=2)
    for seat, text in ((0, "3"), (1, "9"), (2, "pass"), (0, "A"), (1, "pass"), (2, "pass"), (0, "4")):
        state = play(state, seat, text)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (4, -2, -2)
    assert tr(outcome.reason) == "the landlord played out first · stake 2 × 1"


# --- typing moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        ("33344", "3 3 3 4 4"),
        ("3 3 3 4 4", "3 3 3 4 4"),
        ("43433", "3 3 3 4 4"),
        ("10 J Q K A", "10 J Q K A"),
        ("TJQKA", "10 J Q K A"),
        ("tjqka", "10 J Q K A"),
        ("10jqka", "10 J Q K A"),
        ("BJ RJ", "BJ RJ"),
        ("bjrj", "BJ RJ"),
        ("小王大王", "BJ RJ"),
        ("大王 小王", "BJ RJ"),
        ("2, 2", "2 2"),
        ("k k", "K K"),
    ],
)
def test_card_input_forms(text: str, ranks: str) -> None:
    assert parse_ranks(text) == parse_ranks(ranks)
    state = table("3 3 3 4 4 10 J Q K A 2 2 K BJ RJ", "5", "6")
    move = GAME.parse_move(state, 0, text)
    assert GAME.move_text(state, move) == ranks


@pytest.mark.parametrize("text", ["xyz", "1", "11", "3 4 x", "", "0"])
def test_unreadable_input(text: str) -> None:
    state = table("3 4", "5", "6")
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(state, 0, text)
    assert caught.value.msg.key == "doudizhu.unreadable"


@pytest.mark.parametrize(
    ("typed", "ranks"),
    [
        ("三三三四四", "3 3 3 4 4"),
        ("十 J Q K A", "10 J Q K A"),
        ("大王 小王", "BJ RJ"),
        ("王炸", "BJ RJ"),
        ("小鬼大鬼", "BJ RJ"),
        ("二 二", "2 2"),
        ("３３３４４", "3 3 3 4 4"),  # full-width, as typed on a Chinese keyboard
        ("１０ Ｊ Ｑ Ｋ Ａ", "10 J Q K A"),
        ("ＢＪ　ＲＪ", "BJ RJ"),  # and the ideographic space
        ("3，3、3 4 4", "3 3 3 4 4"),
    ],
)
def test_chinese_card_input(typed: str, ranks: str) -> None:
    """What a Chinese player types, after the host's NFKC normalisation."""
    state = table("3 3 3 4 4 10 J Q K A 2 2 K BJ RJ", "5", "6")
    move = GAME.parse_move(state, 0, unicodedata.normalize("NFKC", typed))
    assert GAME.move_text(state, move) == ranks


@pytest.mark.parametrize("word", ["过", "不要", "要不起", "不出", "pass"])
def test_chinese_pass(word: str) -> None:
    state = play(table("5 6", "6", "7"), 0, "5")
    assert GAME.parse_move(state, 1, word) == PASS


def test_chinese_bids() -> None:
    points = GAME.new_state({}, 3, 11)
    seat = GAME.to_move(points)
    for typed, bid in (("1分", 1), ("２分", 2), ("叫3分", 3), ("三分", 3), ("二分", 2), ("bid 2分", 2)):
        assert GAME.parse_move(points, seat, unicodedata.normalize("NFKC", typed)) == Move("bid", bid=bid)
    assert GAME.parse_move(points, seat, "不叫") == PASS
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(points, seat, "叫地主")  # this table bids points: say how many
    assert caught.value.msg.key == "doudizhu.bid_how"
    call = GAME.new_state({"mode": "call"}, 3, 11)
    seat = GAME.to_move(call)
    for typed in ("叫地主", "抢地主", "叫", "call"):
        assert GAME.parse_move(call, seat, typed) == Move("call")
    assert GAME.parse_move(call, seat, "不叫") == PASS
    assert GAME.parse_move(call, seat, "不抢") == PASS
    assert GAME.parse_options(["叫地主"]).options == {"mode": "call"}
    assert GAME.parse_options(["叫分"]).options == {"mode": "points"}
    state = table("3 4", "5", "6")
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(state, 0, "2分")
    assert caught.value.msg.key == "doudizhu.bidding_over"


def test_bid_input_forms() -> None:
    state = GAME.new_state({}, 3, 11)
    seat = GAME.to_move(state)
    assert GAME.parse_move(state, seat, "bid 2") == Move("bid", bid=2)
    assert GAME.parse_move(state, seat, "2") == Move("bid", bid=2)
    assert GAME.parse_move(state, seat, "Bid 3") == Move("bid", bid=3)
    assert GAME.parse_move(state, seat, "PASS") == PASS
    assert GAME.move_words == {"bid": "bid", "pass": "pass", "call": "call", "play": ""}


def random_game(seed: int, mode: str = "points", steps: int = 400):
    """States of a game played with random legal moves (bidding included)."""
    rng = random.Random(seed)
    state = GAME.new_state({"mode": mode}, 3, seed)
    yield state
    for _ in range(steps):
        seat = GAME.to_move(state)
        if seat is None:
            return
        moves = GAME.legal_moves(state, seat)
        if state.landlord is None and len(state.bids) == 2 and max(state.bids, default=0) == 0:
            moves = [m for m in moves if m != PASS] or moves  # don't redeal forever
        state = GAME.apply(state, seat, rng.choice(moves))
        yield state


def test_every_legal_move_round_trips_through_text() -> None:
    for seed in range(12):
        for state in random_game(seed, "call" if seed % 3 == 0 else "points"):
            seat = GAME.to_move(state)
            if seat is None:
                assert GAME.legal_moves(state, 0) == []
                continue
            for move in GAME.legal_moves(state, seat):
                assert GAME.parse_move(state, seat, GAME.move_text(state, move)) == move


def test_json_round_trip() -> None:
    for seed in range(20):
        for state in random_game(seed):
            again = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
            assert again == state


def test_random_games_end_with_zero_sum_scores() -> None:
    for seed in range(40):
        *_, last = random_game(seed, steps=1000)
        outcome = GAME.outcome(last)
        assert outcome is not None and outcome.scores is not None
        assert sum(outcome.scores) == 0 and sorted(outcome.ranks) in ([1, 1, 2], [1, 2, 2])
        landlord = last.landlord
        assert outcome.scores[landlord] == -2 * outcome.scores[(landlord + 1) % 3]
        assert abs(outcome.scores[landlord]) == 2 * last.base * GAME.view(last, None)["multiplier"]


# --- hidden information --------------------------------------------------------------------------


def reshuffled(state: State, keep: int | None, rng: random.Random) -> State:
    """The same game with the unplayed cards of the other seats dealt differently (counts kept;
    the landlord keeps the bottom cards it has not played, as everyone knows it holds them)."""
    seats = [s for s in range(3) if s != keep]
    fixed = {s: [] for s in range(3)}
    if state.landlord is not None:
        fixed[state.landlord] = [c for c in state.bottom if c in state.hands[state.landlord]]
    pool = [c for s in seats for c in state.hands[s] if c not in fixed[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in seats:
        need = len(state.hands[s]) - len(fixed[s])
        hands[s] = tuple(sorted(fixed[s] + pool[:need]))
        pool = pool[need:]
    return replace(state, hands=tuple(hands))


def test_views_never_show_another_seats_hand() -> None:
    rng = random.Random(0)
    checked = 0
    for seed in range(40):
        for state in random_game(seed):
            public = GAME.view(state, None)
            assert "hand" not in public and "unseen" not in public
            over = public["phase"] == "over"  # then every hand is public: what each seat still held
            assert ("hands" in public) == over
            if over:
                assert public["hands"] == [list(h) for h in state.hands]
                continue
            assert public == GAME.view(reshuffled(state, None, rng), None)
            for seat in range(3):
                mine = GAME.view(state, seat)
                assert mine["hand"] == list(state.hands[seat])
                assert mine == GAME.view(reshuffled(state, seat, rng), seat)
            checked += 1
    assert checked > 1500


def test_public_text_has_no_hand() -> None:
    for state in random_game(3):
        text = GAME.text(GAME.view(state, None), tr)
        assert "hand" not in text
        seat = GAME.to_move(state)
        if seat is not None:
            assert "hand:" in GAME.text(GAME.view(state, seat), tr)


# --- catalog ---------------------------------------------------------------------------------------


def test_every_message_key_exists_in_the_catalog() -> None:
    with (ROOT / "bot/locales/en/doudizhu.toml").open("rb") as f:
        catalog = tomllib.load(f)
    sources = [*sorted((ROOT / "engines/doudizhu").glob("*.py")), ROOT / "render/doudizhu.py"]
    keys = set()
    for path in sources:
        keys |= {k for k in re.findall(r"\"doudizhu\.([A-Za-z0-9_]+)\"", path.read_text()) if not k.endswith("_")}
    refusals = set()
    for path in sources:
        refusals |= set(re.findall(r"Refusal\(\s*\"doudizhu\.([A-Za-z0-9_]+)\"", path.read_text()))
    assert refusals and refusals <= keys
    keys |= {f"combo_{k}" for k in KINDS} | {f"kind_{k}" for k in KINDS}
    keys |= {f"rank_{label}" for label in LABELS[7:]} | {f"ranks_{label}" for label in LABELS}
    keys |= {"end_landlord_plain", "end_landlord_spring", "end_farmers_plain", "end_farmers_anti_spring"}
    keys |= {"mode_points", "mode_call", "title", "rules", "card_BJ", "card_RJ"}
    keys |= {"option_mode", "option_mode_points", "option_mode_call"}
    missing = sorted(k for k in keys if k not in catalog)
    assert not missing
    assert "Dou Dizhu" in catalog["title"]


def _placeholders(template: str | dict) -> object:
    if isinstance(template, dict):
        return {form: _placeholders(text) for form, text in template.items()}
    return sorted({name for _, name, _, _ in string.Formatter().parse(template) if name})


def test_chinese_catalog_has_every_key_with_the_same_placeholders() -> None:
    catalogs = {}
    for language in ("en", "zh"):
        with (ROOT / f"bot/locales/{language}/doudizhu.toml").open("rb") as f:
            catalogs[language] = tomllib.load(f)
    en, zh = catalogs["en"], catalogs["zh"]
    assert sorted(en) == sorted(zh)
    for key in en:
        assert _placeholders(en[key]) == _placeholders(zh[key]), key
    for language, catalog in catalogs.items():
        assert "games.md" not in catalog["rules"] and "http" not in catalog["rules"], language
    # Every translated value is Chinese, but for names and notation that read the same in both.
    same = {k for k in en if en[k] == zh[k]}
    assert same <= {f"rank_{r}" for r in ("J", "Q", "K", "A", "2", "10")} | {"label_multiplier"}, same


def test_text_board_speaks_the_readers_language() -> None:
    zh = Translator("zh")
    state = table("3 4 5 5 9 9 K BJ", "6 6 7 7 Q", "4 4 10 J A RJ")
    state = play(play(state, 0, "55"), 1, "pass")
    english, chinese = GAME.text(GAME.view(state, 0), tr), GAME.text(GAME.view(state, 0), zh)
    assert "Landlord" in english and "Farmer" in english and "pass" in english and "stake 1" in english
    assert not re.search(r"[\u4e00-\u9fff]", english)  # no 地主/农民 in the English board
    assert english.splitlines()[-1] == "hand: 3♠ 4♠ 9♠ 9♥ K♠ BJ"
    assert "地主" in chinese and "农民" in chinese and "不要" in chinese and "底分 1" in chinese
    assert chinese.splitlines()[-1] == "手牌：3♠ 4♠ 9♠ 9♥ K♠ 小王"
    words = re.sub(r"10|[2-9JQKA][♠♥♣♦]", "", chinese)
    assert not re.search(r"[A-Za-z]", words), chinese  # no English word in the Chinese board
    assert GAME.private_lines(state, 2, zh) == ["手牌：4♥ 4♣ 10♠ J♠ A♠ 大王"]
    assert GAME.private_lines(state, 2, tr) == ["hand: 4♥ 4♣ 10♠ J♠ A♠ RJ"]
    bidding = GAME.new_state({}, 3, 8)
    bidding = play(bidding, GAME.to_move(bidding), "1")
    assert "1分" in GAME.text(GAME.view(bidding, None), zh) and "bid 1" in GAME.text(GAME.view(bidding, None), tr)


def test_chinese_sentences() -> None:
    zh = Translator("zh")
    state = table("3 3 3 4 4 5", "6", "7")
    move = GAME.parse_move(state, 0, "三三三四四")
    assert zh(Msg("doudizhu.played", {**GAME.describe(state, 0, move).params, "name": "李"})) == "李出了三个3带一对。"
    state = table("9 9 4", "5 5 6", "7 8 10")
    state = play(state, 0, "99")
    with pytest.raises(Refusal) as caught:
        GAME.parse_move(state, 1, "55")
    assert zh(caught.value.msg) == "太小了：一对5压不过一对9。"


def test_describe_every_kind_of_move() -> None:
    state = table("3 3 3 4 4 5", "6", "7")
    text = said(GAME.describe(state, 0, GAME.parse_move(state, 0, "33344")), "Li")
    assert text == "Li played three 3s with a pair."
    state = table("5 5", "6", "7")
    text = said(GAME.describe(state, 0, GAME.parse_move(state, 0, "55")), "Li")
    assert text == "Li played a pair of 5s and has no cards left."
    state = play(table("5 6", "6", "7"), 0, "5")
    assert said(GAME.describe(state, 1, PASS), "Wu") == "Wu passed."
    counts = counts_of_cards(cards("10 J Q K A"))
    assert sum(counts) == 5
