"""The rating scheme (`bot.rating_model`): every shape of game, and the farming guard."""

from __future__ import annotations

import pytest

from bot.rating_model import FAVOURITE, WINDOW, Entry, Ladder, Played, Skill, chance, rate


def played(*entries: Entry, game: str = "nim", at: float = 0.0, session: int = 1) -> Played:
    return Played(session, game, at, entries)


def test_one_against_one_the_winner_rises_the_loser_falls():
    r = rate(played(Entry("a", 1), Entry("b", 2)), {})
    assert r.after["a"].mu > 25 > r.after["b"].mu
    assert r.after["a"].sigma < 25 / 3 and r.after["b"].sigma < 25 / 3
    assert r.after["a"].mu - 25 == pytest.approx(25 - r.after["b"].mu)


def test_a_draw_between_equals_moves_no_mean_and_a_draw_with_a_stronger_player_lifts_the_weaker():
    r = rate(played(Entry("a", 1), Entry("b", 1)), {})
    assert r.after["a"].mu == pytest.approx(25) and r.after["b"].mu == pytest.approx(25)
    assert r.after["a"].sigma < 25 / 3  # still something learned
    r = rate(played(Entry("a", 1), Entry("b", 1)), {"a": Skill(30, 3)})
    assert r.after["a"].mu < 30 and r.after["b"].mu > 25


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_free_for_all_by_finishing_place(seats):
    names = [f"p{i}" for i in range(seats)]
    r = rate(played(*(Entry(n, i + 1) for i, n in enumerate(names)), game="checkers"), {})
    mus = [r.after[n].mu for n in names]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]


def test_free_for_all_with_a_resigner_last_and_the_others_tied():
    r = rate(played(Entry("a", 1), Entry("b", 1), Entry("c", 3), game="checkers"), {})
    assert r.after["a"].mu == pytest.approx(r.after["b"].mu) and r.after["a"].mu > 25 > r.after["c"].mu


def test_dou_dizhu_side_against_side_with_the_roles_rated():
    landlord_won = played(Entry("l", 1, "landlord"), Entry("f1", 2, "farmer"), Entry("f2", 2, "farmer"),
                          game="doudizhu")
    r = rate(landlord_won, {})
    assert r.after["l"].mu > 25 > r.after["f1"].mu
    assert r.after["f1"] == r.after["f2"]
    # the side's average moved as a one-against-one game would: the farmers each lose what the landlord gains
    assert r.after["l"].mu - 25 == pytest.approx(25 - r.after["f1"].mu)
    assert r.after["role:landlord"].mu > 0 > r.after["role:farmer"].mu
    farmers_won = played(Entry("l", 2, "landlord"), Entry("f1", 1, "farmer"), Entry("f2", 1, "farmer"),
                         game="doudizhu")
    r = rate(farmers_won, {})
    assert r.after["l"].mu < 25 < r.after["f1"].mu


def test_dou_dizhu_a_farmer_who_resigns_loses_alone():
    """The partner of a farmer who resigns ties with the landlord (the game's settlement agrees)."""
    r = rate(played(Entry("l", 1, "landlord"), Entry("f1", 3, "farmer"), Entry("f2", 1, "farmer"),
                    game="doudizhu"), {})
    assert r.after["f1"].mu < 25
    assert r.after["l"].mu == pytest.approx(r.after["f2"].mu) and r.after["f2"].mu > 25
    assert "role:landlord" not in r.after  # seat by seat: the parts taught nothing


def test_dou_dizhu_resigned_during_the_bidding_has_no_roles():
    r = rate(played(Entry("a", 3), Entry("b", 1), Entry("c", 1), game="doudizhu"), {})
    assert r.after["a"].mu < 25 < r.after["b"].mu


def test_one_player_in_many_seats_is_rated_once_by_the_mean():
    """Five easy bots and a person: the person beat three of them and lost to two."""
    entries = (Entry("ai:easy", 1), Entry("ai:easy", 2), Entry("me", 3), Entry("ai:easy", 4),
               Entry("ai:easy", 5), Entry("ai:easy", 6))
    r = rate(played(*entries, game="checkers"), {})
    assert set(r.after) == {"ai:easy", "me"}
    assert r.after["me"].mu > 25 > r.after["ai:easy"].mu


def test_a_game_with_one_player_alone_changes_nothing():
    r = rate(played(Entry("ai:hard", 1), Entry("ai:hard", 2)), {})
    assert r.weight == 0 and r.after == r.before


# --- the farming guard ---------------------------------------------------------------
def test_a_foregone_win_changes_nothing_but_an_upset_counts():
    strong, weak = Skill(40, 2), Skill(15, 2)
    assert chance([strong], [weak]) >= FAVOURITE
    win = rate(played(Entry("s", 1), Entry("w", 2)), {"s": strong, "w": weak})
    assert win.weight == 0 and win.after == win.before
    upset = rate(played(Entry("s", 2), Entry("w", 1)), {"s": strong, "w": weak})
    assert upset.weight == 1 and upset.after["s"].mu < 40 - 0.5 and upset.after["w"].mu > 15 + 0.5
    draw = rate(played(Entry("s", 1), Entry("w", 1)), {"s": strong, "w": weak})
    assert draw.weight == 1 and draw.after["s"].mu < 40


def test_beating_easy_forever_stops_where_the_wins_are_foregone():
    """A thousand wins against the easy bot, a day apart (no repetition discount): the rating
    rises, then stops where the model already gives those wins 95 %."""
    ladder = Ladder()
    ordinals = []
    for n in range(1000):
        ladder.play(Played(n, "gomoku", n * WINDOW, (Entry("me", 1), Entry("ai:easy", 2))))
        ordinals.append(ladder.skills[("gomoku", "me")].ordinal)
    me, easy = ladder.skills[("gomoku", "me")], ladder.skills[("gomoku", "ai:easy")]
    assert chance([me], [easy]) == pytest.approx(FAVOURITE, abs=0.01)
    assert ordinals[999] == ordinals[200]  # nothing more after the first couple of hundred
    assert me.mu - easy.mu < 25  # a bounded gap, where the unguarded model would run away


def test_the_same_pair_again_counts_less_within_a_day():
    ladder = Ladder()
    weights = [ladder.play(Played(n, "nim", n * 60.0, (Entry("a", 1 + n % 2), Entry("b", 2 - n % 2)))).weight
               for n in range(5)]
    assert weights == pytest.approx([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5])
    # a day after the first, that one no longer counts; others play at full weight meanwhile
    assert ladder.play(Played(9, "nim", 100.0, (Entry("a", 1), Entry("c", 2)))).weight == 1
    assert ladder.play(Played(10, "nim", WINDOW + 30.0, (Entry("a", 1), Entry("b", 2)))).weight == pytest.approx(1 / 5)


def test_win_trading_between_two_accounts_is_bounded():
    """Two people take turns losing on purpose... or one always loses: 500 games in an evening
    move the winner less than twenty honest games would."""
    ladder = Ladder()
    for n in range(500):
        ladder.play(Played(n, "nim", n * 10.0, (Entry("cheat", 1), Entry("friend", 2))))
    farmed = ladder.skills[("nim", "cheat")].ordinal
    honest = Ladder()
    for n in range(20):
        honest.play(Played(n, "nim", n * WINDOW, (Entry("me", 1), Entry(f"stranger{n}", 2))))
    assert farmed < honest.skills[("nim", "me")].ordinal


def test_the_rebuild_is_the_same_fold():
    games = [Played(n, "nim", n * 100.0, (Entry("a", 1 + n % 3 // 2), Entry("b", 2 - n % 3 // 2)))
             for n in range(30)]
    once, twice = Ladder(), Ladder()
    once.replay(games)
    twice.replay(games)
    assert once.skills == twice.skills


# --- help: a hint or a move taken back ------------------------------------------------------
def test_a_player_who_had_help_and_won_moves_nobody():
    """Following the hints to a win against the bot: neither the player nor the level moves."""
    r = rate(played(Entry("me", 1, aided=True), Entry("ai:master", 2)), {})
    assert r.weight == 0 and r.after == r.before
    unaided = rate(played(Entry("me", 1), Entry("ai:master", 2)), {})
    assert unaided.after["me"].mu > 25 > unaided.after["ai:master"].mu  # what the help would have earned


def test_a_player_who_had_help_and_lost_stays_and_the_winner_counts_the_win():
    r = rate(played(Entry("me", 2, aided=True), Entry("ai:master", 1)), {})
    assert r.weight == 1 and r.after["me"] == r.before["me"]
    assert r.after["ai:master"] == rate(played(Entry("me", 2), Entry("ai:master", 1)), {}).after["ai:master"]


def test_a_draw_with_a_player_who_had_help_counts_for_nobody():
    r = rate(played(Entry("a", 1, aided=True), Entry("b", 1)), {"b": Skill(30, 3)})
    assert r.weight == 0 and r.after == r.before


def test_free_for_all_only_the_places_won_against_a_helped_player_count():
    """Checkers, four seats; c had help and came second: a (first) beat everyone fairly; b and d
    lost to c, so only their results against those who played unaided count."""
    entries = (Entry("a", 1), Entry("c", 2, aided=True), Entry("b", 3), Entry("d", 4))
    r = rate(played(*entries, game="checkers"), {})
    assert r.after["c"] == r.before["c"]
    fair = rate(played(Entry("a", 1), Entry("b", 3), Entry("d", 4), game="checkers"), {})
    assert r.after["b"] == fair.after["b"] and r.after["d"] == fair.after["d"]  # c left out of theirs
    full = rate(played(*(Entry(e.player, e.rank) for e in entries), game="checkers"), {})
    assert r.after["a"] == full.after["a"]  # a's win over c stands as over anyone


def test_a_bot_in_many_seats_counts_only_the_seats_a_helped_player_did_not_beat():
    """Five easy bots and a person with help in third place: the two bots ahead of them count
    their wins over everyone; the three behind lost to help, and only count among the bots."""
    entries = (Entry("ai:easy", 1), Entry("ai:easy", 2), Entry("me", 3, aided=True), Entry("ai:easy", 4),
               Entry("ai:easy", 5), Entry("ai:easy", 6))
    r = rate(played(*entries, game="checkers"), {})
    assert r.after["me"] == r.before["me"] and r.weight == 1
    unaided = rate(played(*(Entry(e.player, e.rank) for e in entries), game="checkers"), {})
    assert r.after["ai:easy"].mu > unaided.after["ai:easy"].mu  # the three seats' losses to help left out


def test_dou_dizhu_a_landlord_with_help():
    won = rate(played(Entry("l", 1, "landlord", aided=True), Entry("f1", 2, "farmer"), Entry("f2", 2, "farmer"),
                      game="doudizhu"), {})
    assert won.weight == 0 and won.after == won.before  # the farmers lost to help: nothing moves
    lost = rate(played(Entry("l", 2, "landlord", aided=True), Entry("f1", 1, "farmer"), Entry("f2", 1, "farmer"),
                       game="doudizhu"), {})
    assert lost.after["l"] == lost.before["l"] and lost.after["f1"].mu > 25 and lost.after["f1"] == lost.after["f2"]
    assert lost.after["role:landlord"] == lost.before["role:landlord"]  # the parts learn only from unaided games
    assert lost.after["role:farmer"] == lost.before["role:farmer"]


def test_dou_dizhu_a_farmer_with_help_taints_the_side():
    """f1 had help: the farmers' win is not rated for the landlord, nor for f1's partner f2 (won
    with a helped partner); their loss counts for the landlord and for f2 (lost even with help)."""
    won = rate(played(Entry("l", 2, "landlord"), Entry("f1", 1, "farmer", aided=True), Entry("f2", 1, "farmer"),
                      game="doudizhu"), {})
    assert won.weight == 0 and won.after == won.before
    lost = rate(played(Entry("l", 1, "landlord"), Entry("f1", 2, "farmer", aided=True), Entry("f2", 2, "farmer"),
                       game="doudizhu"), {})
    assert lost.after["f1"] == lost.before["f1"]
    assert lost.after["l"].mu > 25 > lost.after["f2"].mu


def test_the_fold_with_help_is_the_same_each_time_and_help_counts_toward_no_repeat():
    """A helped win moved nobody, so it does not count as a repeat of the pair (weight 0)."""
    ladder = Ladder()
    assert ladder.play(Played(1, "nim", 0.0, (Entry("a", 1, aided=True), Entry("b", 2)))).weight == 0
    assert ladder.play(Played(2, "nim", 60.0, (Entry("a", 1), Entry("b", 2)))).weight == 1
