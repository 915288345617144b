"""What a tournament says: the round's pairings, the standings, the bracket and the podium, each
as a picture (`render.tournament`) with its text twin, in the reader's language."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.core import Core, title
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from bot.tournament import pairing, tables
from bot.tournament.model import EventGame, Tournament
from engines.base import Msg, msg
from render import tournament as pictures
from render.standings import GameCard

log = logging.getLogger(__name__)


def name(core: Core, event: Tournament) -> Msg:
    """"Gomoku Swiss"."""
    return msg("tournament.name", game=title(core.games[event.game]), format=msg(f"tournament.format_{event.format}"))


def who(event: Tournament, entrant: str) -> str:
    entry = event.entry(entrant)
    return ("🤖 " if entry is not None and entry.bot else "") + (entry.name if entry is not None else entrant)


def number(value: float) -> str:
    """Points as people write them: 2, 2.5, -1.5 (never 2.0)."""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def game_line(event: Tournament, game: EventGame, tr: Translator) -> str:
    players = tr(msg("host.versus")).join(who(event, p) for p in game.players)
    if game.bye:
        return tr(msg("tournament.bye", name=players))
    if game.points is not None:
        scores = " – ".join(number(p) for p in game.points)
        return tr(msg("tournament.game_over", players=players, points=scores))
    return tr(msg("tournament.table", table=game.table + 1, players=players))


def pairings(core: Core, event: Tournament, tr: Translator, games: list[EventGame]) -> Reply:
    head = msg("tournament.round_paired", event=name(core, event), round=event.round,
             rounds=event.rounds or event.round)
    lines = [tr(head)]
    if event.format == "knockout" and event.seats > 2:  # how many go on from a table this round
        stage = _table_bracket(event).rounds[event.round - 1]
        lines.append(tr(_rule(stage, final=event.round == event.rounds)))
        again = _playing_again(stage)
        lines += [tr(msg("tournament.table_again", table=again[frozenset(g.players)],
                         players=tr(msg("host.versus")).join(who(event, p) for p in g.players)))
                  if g.points is None and frozenset(g.players) in again else game_line(event, g, tr) for g in games]
    else:
        lines += [game_line(event, g, tr) for g in games]
    return Reply("\n".join(lines), audience=EVERYONE)


def place_name(event: Tournament, game: EventGame, tr: Translator) -> str:
    """The name of a game's own place (thread, topic): its round and table; a table playing again after
    a tie keeps its number and says so."""
    players = tr(msg("host.versus")).join(who(event, p) for p in game.players)
    if event.format == "knockout" and event.seats > 2 and game.points is None:
        stages = _table_bracket(event).rounds
        again = _playing_again(stages[game.round - 1]) if len(stages) >= game.round else {}
        if frozenset(game.players) in again:
            return tr(msg("tournament.place_name_again", round=game.round, table=again[frozenset(game.players)],
                          players=players))
    return tr(msg("tournament.place_name", round=game.round, table=game.table + 1, players=players))


def _playing_again(stage: tables.Stage) -> dict[frozenset[str], int]:
    """The round's tables that tied at the place that goes on and play again: their numbers (from 1)."""
    return {frozenset(t.players): n for n, t in enumerate(stage.tables, 1) if t.games and not t.decided}


def _reach(event: Tournament) -> dict[str, tuple[int, int]]:
    """How far each went in a knockout: (minus) the last round reached, then one's place there (a
    table's finishing place, or a match's: 0 won or undecided, 1 lost; a bye: -1, above them)."""
    reach: dict[str, tuple[int, int]] = {}
    if event.seats > 2:
        for r, stage in enumerate(_table_bracket(event).rounds):
            for p in stage.byes:
                reach[p] = (-r, -1)
            for t in stage.tables:
                for i, p in enumerate(t.order or t.players):
                    reach[p] = (-r, i if t.decided else 0)
        return reach
    gone = [e.entrant for e in event.entries if e.withdrawn]
    for r, matches in enumerate(pairing.knockout(event.everyone(), event.played(), gone).rounds):
        for m in matches:
            for player in (m.a, m.b):
                if player is not None:
                    reach[player] = (-r, -1 if m.b is None else int(m.winner is not None and m.winner != player))
    return reach


def _by_reach(event: Tournament, table: list[pairing.Standing]) -> list[pairing.Standing]:
    """A knockout ranks by how far one went (`_reach`), then the standings' own order; ranked again."""
    reach = _reach(event)
    keyed = [(reach.get(s.id, (1, 0)), i, s) for i, s in enumerate(table)]
    keyed.sort(key=lambda k: (k[0], k[1]))
    ranked, rank = [], 0
    for i, (key, _, s) in enumerate(keyed):
        before = keyed[i - 1][2] if i else None
        same = before is not None and key == keyed[i - 1][0] and before.rank == s.rank
        rank = rank if same else i + 1
        ranked.append(replace(s, rank=rank))
    return ranked


def standings_view(core: Core, event: Tournament, tr: Translator, final: bool) -> tuple[dict[str, Any], list[str]]:
    table = pairing.standings(event.everyone(), event.played())
    if event.format == "knockout":
        table = _by_reach(event, table)
    head = tr(msg("tournament.final_standings" if final else "tournament.standings", event=name(core, event),
                round=event.completed, rounds=event.rounds or event.round))
    subtitle = tr(msg("tournament.entrants", count=len(event.entries)))
    rows = []
    for s in table:
        entry = event.entry(s.id)
        rows.append({"rank": s.rank, "name": entry.name if entry else s.id, "points": number(s.points),
                     "buchholz": number(s.buchholz), "sonneborn": number(round(s.sonneborn, 2)), "wins": s.wins,
                     "ai": bool(entry and entry.bot), "out": bool(entry and entry.withdrawn)})
    headings = {k: tr(msg(f"tournament.heading_{k}")) for k in ("name", "points", "buchholz", "sonneborn", "wins")}
    view = {"title": head, "subtitle": subtitle, "headings": headings, "rows": rows,
            "footer": tr(msg("tournament.tie_breaks"))}
    lines = [f"{head} · {subtitle}"]
    lines += [tr(msg("tournament.standings_line", rank=r["rank"], name=("🤖 " if r["ai"] else "") + str(r["name"]),
                   points=r["points"], buchholz=r["buchholz"], sonneborn=r["sonneborn"], wins=r["wins"]))
              + (" " + tr(msg("tournament.withdrawn")) if r["out"] else "") for r in rows]
    return view, lines


def _table_bracket(event: Tournament) -> tables.TableBracket:
    gone = [e.entrant for e in event.entries if e.withdrawn]
    return tables.knockout(event.everyone(), event.played(), event.seats, gone)


def _rule(stage: tables.Stage, final: bool) -> Msg:
    return msg("tournament.final_table") if final else msg("tournament.through", count=stage.through)


def table_bracket_view(core: Core, event: Tournament, tr: Translator) -> tuple[dict[str, Any], list[str]]:
    """A knockout of tables: a column a round, a box a table (its players in finishing order once
    it is decided, who goes on marked), who had a bye, the champion."""
    bracket = _table_bracket(event)
    seeds = {e.id: i + 1 for i, e in enumerate(tables.seeded(event.everyone()))}

    def side(entrant: str) -> dict[str, Any]:
        entry = event.entry(entrant)
        return {"name": entry.name if entry else entrant, "seed": seeds.get(entrant, 0),
                "ai": bool(entry and entry.bot), "out": bool(entry and entry.withdrawn)}

    head = tr(msg("tournament.bracket", event=name(core, event)))
    shown_rounds, lines = [], [head]
    for r, stage in enumerate(bracket.rounds, 1):
        final = r == tables.knockout_rounds(len(seeds), event.seats)
        label, rule = tr(msg("tournament.round_name", round=r)), tr(_rule(stage, final))
        lines.append(f"{label} · {rule}")
        shown = []
        for t, table in enumerate(stage.tables):
            players = []
            for p in table.order or table.players:
                score = " ".join(number(g.points[g.players.index(p)]) for g in table.games)
                went = None if not table.decided else p in table.advanced
                players.append({**side(p), "score": score, "through": went})
            # A table that tied at the place that goes on plays again (or did): said in its box.
            again = "again" if table.games and not table.decided else "replayed" if len(table.games) > 1 else ""
            shown.append({"name": tr(msg("tournament.table_name", table=t + 1)), "players": players,
                          "note": tr(msg(f"tournament.{again}_note")) if again else ""})
            named = " · ".join(("✓ " if x["through"] else "") + who(event, p) + (f" {x['score']}" if x["score"] else "")
                               for p, x in zip(table.order or table.players, players, strict=True))
            lines.append(tr(msg(f"tournament.table_{again}" if again else "tournament.table", table=t + 1,
                                players=named)))
        byes = [side(p) for p in stage.byes]
        if stage.byes:
            lines.append(tr(msg("tournament.byes_through", names=", ".join(who(event, p) for p in stage.byes))))
        shown_rounds.append({"name": label, "rule": rule, "tables": shown, "byes": byes,
                             "byes_label": tr(msg("tournament.byes_heading"))})
    champion = side(bracket.champion) if bracket.champion else None
    if bracket.champion:
        lines.append(tr(msg("tournament.champion", name=who(event, bracket.champion))))
    return {"title": head, "subtitle": "", "rounds": shown_rounds, "champion": champion, "footer": ""}, lines


def bracket_view(core: Core, event: Tournament, tr: Translator) -> tuple[dict[str, Any], list[str]]:
    if event.seats > 2:
        return table_bracket_view(core, event, tr)
    gone = [e.entrant for e in event.entries if e.withdrawn]
    bracket = pairing.knockout(event.everyone(), event.played(), gone)
    seeds = {e.id: i + 1 for i, e in enumerate(sorted(event.everyone(), key=lambda e: (-e.rating, e.id)))}

    def side(entrant: str | None) -> dict[str, Any] | None:
        entry = event.entry(entrant) if entrant else None
        return None if entry is None else {"name": entry.name, "seed": seeds[entry.entrant], "ai": entry.bot}

    head = tr(msg("tournament.bracket", event=name(core, event)))
    rounds, lines = [], [head]
    for r, matches in enumerate(bracket.rounds, 1):
        label = tr(msg("tournament.round_name", round=r))
        lines.append(label)
        shown = []
        for m in matches:
            winner = None if m.winner is None else (0 if m.winner == m.a else 1)
            score = " ".join(number(g.points[g.players.index(m.a)]) for g in m.games) if m.games and m.a else ""
            shown.append({"a": side(m.a), "b": side(m.b), "winner": winner, "score": score})
            names = tr(msg("host.versus")).join(who(event, p) for p in (m.a, m.b) if p)
            lines.append(("✓ " + who(event, m.winner) + " · " if m.winner else "") + names)
        rounds.append({"name": label, "matches": shown})
    champion = side(bracket.champion)
    return {"title": head, "subtitle": "", "rounds": rounds, "champion": champion, "footer": ""}, lines


def podium_view(core: Core, event: Tournament, tr: Translator) -> tuple[dict[str, Any], list[str]]:
    table = pairing.standings(event.everyone(), event.played())
    if event.format == "knockout":  # the places the bracket gives: the champion, the final's loser, ...
        table = _by_reach(event, table)
    places = []
    for s in table[:3]:
        entry = event.entry(s.id)
        shown = tr(msg("tournament.points", points=number(s.points)))
        places.append({"name": entry.name if entry else s.id, "points": shown, "ai": bool(entry and entry.bot)})
    head = tr(msg("tournament.podium", event=name(core, event)))
    lines = [head] + [f"{i}. {'🤖 ' if p['ai'] else ''}{p['name']} · {p['points']}" for i, p in enumerate(places, 1)]
    return {"title": head, "subtitle": tr(msg("tournament.entrants", count=len(event.entries))), "places": places,
            "footer": ""}, lines


async def drawn(core: Core, draw: Callable[[dict[str, Any]], bytes], view: dict[str, Any], lines: list[str],
                image_name: str) -> Reply:
    """The picture captioned with the first line, the rest its text twin; the text alone if the
    picture cannot be drawn."""
    try:
        image = await core.pictures.call(draw, view)
    except Exception:
        log.exception("drawing %s failed; the text goes instead", image_name)
        return Reply("\n".join(lines), audience=EVERYONE)
    return Reply(lines[0], image=image, image_name=image_name, text_board="\n".join(lines[1:]), audience=EVERYONE)


async def after_round(core: Core, event: Tournament, tr: Translator, final: bool) -> list[Reply]:
    """The standings (and a knockout's bracket) after a round; at the end the podium too."""
    said = []
    if event.format == "knockout":
        view, lines = bracket_view(core, event, tr)
        draw = pictures.table_bracket if event.seats > 2 else pictures.bracket
        said.append(await drawn(core, draw, view, lines, "bracket.png"))
    if event.format != "knockout" or final:
        view, lines = standings_view(core, event, tr, final)
        said.append(await drawn(core, pictures.standings, view, lines, "standings.png"))
    if final:
        view, lines = podium_view(core, event, tr)
        said.append(await drawn(core, pictures.podium, view, lines, "podium.png"))
    return said


async def card(core: Core, user_id: str, tr: Translator) -> tuple[GameCard, list[str]] | None:
    """`user_id`'s tournaments for the `/stats` picture (the latest ones: place, points, how it
    stands) and its lines of text; None before their first."""
    events = await core.store.events_of(user_id)
    if not events:
        return None
    lines = []
    for event in events:
        table = pairing.standings(event.everyone(), event.played())
        mine = next((s for s in table if s.id == user_id), None)
        status = tr(msg(f"tournament.status_{event.status.value}"))
        lines.append(tr(msg("tournament.stats_line", event=name(core, event), rank=mine.rank if mine else "–",
                          count=len(event.entries), points=number(mine.points) if mine else "0",
                          status=status)))
    won = sum(1 for e in events if e.status.value == "finished" and
              pairing.standings(e.everyone(), e.played())[0].id == user_id)
    shown = GameCard(title=tr(msg("tournament.stats_title")), rating=str(len(events)),
                     change=tr(msg("tournament.stats_won", count=won)), history=[], lines=lines[:2], recent=[])
    return shown, [tr(msg("tournament.stats_header")), *("  " + line for line in lines)]
