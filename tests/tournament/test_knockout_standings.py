"""A two-player knockout's final standings and podium go by how far each went in the bracket (as a
knockout of tables does), not by points: a semi-final loser whose draws earned as many points as
the final's loser still ranks below them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.i18n import Translator
from bot.tournament import pairing, views
from bot.tournament.model import Entry, EventGame, EventStatus, Tournament


def knockout_of_four() -> Tournament:
    """Ann (seed 1) beats Dan; Bea and Cai draw twice and Cai wins the third; Cai beats Ann in the final."""
    entries = [Entry(p, name, rating) for p, name, rating in
               (("a", "Ann", 1900), ("b", "Bea", 1800), ("c", "Cai", 1700), ("d", "Dan", 1600))]
    event = Tournament("console:x", "nim", "knockout", EventStatus.FINISHED, "a", {"rounds": 2}, 0.0, 0.0, round=2,
                       entries=entries)
    won, lost, drawn = ((1.0, 0.0), (1, 2)), ((0.0, 1.0), (2, 1)), ((0.5, 0.5), (1, 1))
    event.games = [EventGame(r, t, players, points=points, ranks=ranks) for r, t, players, (points, ranks) in (
        (1, 0, ("a", "d"), won), (1, 1, ("b", "c"), drawn), (1, 2, ("c", "b"), drawn), (1, 3, ("b", "c"), lost),
        (2, 0, ("a", "c"), lost))]
    return event


def test_final_standings_and_podium_go_by_the_round_reached() -> None:
    event = knockout_of_four()
    assert pairing.knockout(event.everyone(), event.played()).champion == "c"
    by_points = [s.id for s in pairing.standings(event.everyone(), event.played())]
    assert by_points.index("b") < by_points.index("a")  # Bea's 1 point (two draws) ties Ann's; tie-breaks favour her
    core: Any = SimpleNamespace(games={"nim": SimpleNamespace(name="nim")})
    tr = Translator()
    view, lines = views.standings_view(core, event, tr, final=True)
    assert [row["name"] for row in view["rows"]] == ["Cai", "Ann", "Bea", "Dan"]
    assert [row["rank"] for row in view["rows"]] == [1, 2, 3, 4]
    assert lines[2].startswith("2. Ann")
    podium, _ = views.podium_view(core, event, tr)
    assert [p["name"] for p in podium["places"]] == ["Cai", "Ann", "Bea"]
