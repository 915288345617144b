"""A tournament's rounds: the next one paired, a finished game scored, the end. No I/O: the
event (`Tournament`) is changed in place and the caller saves it (once: its version says so).
`ready` first (awaited) keeps the long computations out of the event loop."""

from __future__ import annotations

import asyncio
import math

from bot.session import Session, SessionStatus
from bot.tournament import pairing, tables
from bot.tournament.model import EventGame, EventStatus, Tournament


def default_rounds(format: str, entrants: int, seats: int) -> int:
    """Swiss: enough rounds for one winner in a field of two-player games (log2), at least one;
    round robin: every pair once (at tables of more: every pair at a table once); knockout: down
    to the final."""
    if format == "roundrobin":
        if seats > 2:
            return len(tables.schedule(entrants, seats))
        return entrants - 1 if entrants % 2 == 0 else entrants
    if format == "knockout":
        return tables.knockout_rounds(entrants, seats) if seats > 2 else pairing.knockout_rounds(entrants)
    return max(1, math.ceil(math.log(max(2, entrants), seats if seats > 1 else 2)))


def most_rounds(format: str, entrants: int, seats: int) -> int:
    """The most rounds a Swiss may have in which everyone can meet someone new (two seats)."""
    if format != "swiss" or seats != 2:
        return 64
    return entrants if entrants % 2 else entrants - 1


async def ready(event: Tournament) -> None:
    """Compute in a thread what `default_rounds` and `advance` would otherwise compute at length in
    the event loop the first time (a round robin at tables: its schedule, up to seconds for 64
    entrants); they find it cached after."""
    if event.format == "roundrobin" and event.seats > 2 and len(event.entries) >= event.seats:
        await asyncio.to_thread(tables.schedule, len(event.entries), event.seats)


def advance(event: Tournament) -> list[EventGame] | None:
    """Pair the next round (or a knockout round's deciders): the new games, which the event now
    holds; None when the event is over (its status is then finished)."""
    played = event.played()
    gone = [e.entrant for e in event.entries if e.withdrawn]
    r = event.round
    if event.format == "knockout":
        bracket: pairing.Bracket | tables.TableBracket
        if event.seats > 2:
            bracket = tables.knockout(event.everyone(), played, event.seats, gone)
        else:
            bracket = pairing.knockout(event.everyone(), played, gone)
        if bracket.champion is not None or not bracket.next.tables:
            event.status = EventStatus.FINISHED
            return None
        r = len(bracket.rounds)
        return _add(event, r, pairing.Pairing(bracket.next.tables))
    if r >= event.rounds or len(event.still_in()) < 2:
        event.status = EventStatus.FINISHED
        return None
    if event.format == "roundrobin":
        if event.seats > 2:
            return _add(event, r + 1, tables.round_robin(event.everyone(), event.seats)[r])
        schedule = pairing.round_robin(event.everyone())
        return _add(event, r + 1, schedule[r])
    return _add(event, r + 1, pairing.swiss(event.still_in(), played, event.seats))


def _add(event: Tournament, r: int, paired: pairing.Pairing) -> list[EventGame]:
    event.round = r
    first = len([g for g in event.games if g.round == r])
    gone = {e.entrant for e in event.entries if e.withdrawn}
    bye = pairing.BYE_POINTS if not event.options.get("settled") else 0.0
    new = []
    for i, table in enumerate(paired.tables):
        game = EventGame(r, first + i, tuple(table))
        # A round robin's game with one left in (the others withdrew): theirs are lost. With two or
        # more left it is played; a bot plays out the seat of who withdrew, who finishes last.
        if len(set(table) - gone) <= 1 and gone & set(table):
            ranks = tuple(2 if p in gone else 1 for p in table)
            game.points, game.ranks = pairing.place_points(ranks), ranks
        new.append(game)
    for j, player in enumerate(paired.byes):
        new.append(EventGame(r, first + len(paired.tables) + j, (player,), points=(bye,)))
    event.games += new
    return new


def score(event: Tournament, game: EventGame, session: Session) -> None:
    """`game`'s points from its session, which ended: by finishing place (or the settlement's
    points where the game settles in them); a cancelled game is a draw; whoever withdrew from
    the event meanwhile finished last."""
    outcome = session.outcome if session.status == SessionStatus.FINISHED else None
    ranks = list(outcome.ranks) if outcome is not None else [1] * len(game.players)
    gone = {e.entrant for e in event.entries if e.withdrawn}
    for i, player in enumerate(game.players):
        if player in gone:
            ranks[i] = len(game.players)
    if outcome is not None and outcome.scores is not None and not gone & set(game.players):
        game.points = tuple(float(s) for s in outcome.scores)
        if not event.options.get("settled"):  # the game settles in points: a bye is worth none of them
            event.options["settled"] = True
            for bye in (g for g in event.games if g.bye):
                bye.points = (0.0,)
    else:
        game.points = pairing.place_points(ranks)
    game.ranks = tuple(ranks)
