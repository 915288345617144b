"""What each page shows, read from the store: plain data for the templates (`bot.web.site`
renders it; every string is escaped there). Only what chat already shows to anyone is here:
display names (never an account id), ratings, records, and the finished games of the channels
that allow the web (`bot.web.access`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import rating_store, review
from bot.core import Core, title
from bot.i18n import Translator
from bot.session import Session
from bot.web import access, events, replay
from bot.web.access import NotFound
from engines.base import msg

RECENT = 20  # finished games a page lists
BOARD_PAGE = 25  # leaderboard rows a page
MOST_PAGES = 1000  # no page number past this is read
PLOT_WIDTH, PLOT_HEIGHT, PLOT_PAD = 320, 96, 8


@dataclass
class GameRow:
    token: str
    game: str
    players: list[str]
    result: str
    when: str
    mine: str = ""  # on a player's page: "win", "loss" or "draw"


@dataclass
class Row:
    rank: int
    name: str
    rating: str
    games: int
    win: str
    streak: int
    token: str | None = None  # the player's page (people only)


@dataclass
class Card:
    game: str
    title: str
    rating: str
    wins: int
    losses: int
    draws: int
    streak: int
    best: int
    recent: list[str]
    points: str | None = None
    plot: str = ""  # SVG polyline points of the rating's course
    low: str = ""
    high: str = ""
    extra: list[str] = field(default_factory=list)


def page_number(text: str | None) -> int:
    return min(MOST_PAGES, max(1, int(text))) if text and text.isdigit() and len(text) < 6 else 1


def seat_result(session: Session, seat: int) -> str:
    outcome = session.outcome
    if outcome is None or outcome.draw:
        return "draw"
    return "win" if seat in outcome.winners else "loss"


async def game_rows(core: Core, sessions: list[Session], tr: Translator,
                    accounts: set[str] | None = None) -> list[GameRow]:
    tokens = await access.game_ids(core.store, sessions)
    rows = []
    for s in sessions:
        row = GameRow(tokens[s.id or 0], tr(title(core.game_of(s))), replay.names(s, tr),
                      replay.result(s, tr), replay.when(s.updated_at))
        if accounts:
            mine = [seat.seat for seat in s.seats if seat.user_id in accounts]
            row.mine = seat_result(s, mine[0]) if mine else ""
        rows.append(row)
    return rows


async def index(core: Core, tr: Translator, page: int) -> dict[str, Any]:
    sessions = await core.store.published(access.WEB, access.DEFAULT_ON, limit=RECENT + 1, offset=(page - 1) * RECENT)
    games = [{"name": name, "title": tr(title(g))} for name, g in core.games.items()]
    return {"games": games, "recent": await game_rows(core, sessions[:RECENT], tr), "page": page,
            "more": len(sessions) > RECENT, "events": await events.listed(core, tr) if page == 1 else []}


async def leaderboard(core: Core, tr: Translator, game: str, page: int, place_token: str | None) -> dict[str, Any]:
    if game not in core.games:
        raise NotFound
    place = None
    if place_token is not None:
        place = await access.target(core.store, access.PLACE_KIND, place_token)
        if place is None or place not in await access.shown_places(core.store):
            raise NotFound
    board = await rating_store.board(core.store, game, place)
    pages = max(1, -(-len(board) // BOARD_PAGE))
    page = min(page, pages)
    shown = board[(page - 1) * BOARD_PAGE : page * BOARD_PAGE]
    tokens = await access.ids(core.store, access.PLAYER, (s.player for s in shown if not s.is_ai))
    rows = [Row(i, tr(msg("host.ai_name", level=s.player.removeprefix("ai:"))) if s.is_ai else s.name,
                f"{s.rating:.1f}", s.games, f"{s.win_rate:.0%}", s.streak, tokens.get(s.player))
            for i, s in enumerate(shown, (page - 1) * BOARD_PAGE + 1)]
    updating = game in await rating_store.updating(core.store)
    return {"game": game, "title": tr(title(core.games[game])), "rows": rows, "page": page, "pages": pages,
            "place": place_token if place else None, "place_kind": (place or "").split(":")[0], "updating": updating,
            "games": [{"name": n, "title": tr(title(g))} for n, g in core.games.items()]}


def plot(history: list[float]) -> tuple[str, str, str]:
    """The rating's course as SVG polyline points in a PLOT_WIDTH x PLOT_HEIGHT box, its low and high."""
    if len(history) < 2:
        return "", "", ""
    low, high = min(history), max(history)
    span = (high - low) or 1.0
    step = (PLOT_WIDTH - 2 * PLOT_PAD) / (len(history) - 1)
    points = " ".join(f"{PLOT_PAD + i * step:.1f},{PLOT_PAD + (high - v) / span * (PLOT_HEIGHT - 2 * PLOT_PAD):.1f}"
                      for i, v in enumerate(history))
    return points, f"{low:.1f}", f"{high:.1f}"


async def player(core: Core, tr: Translator, token: str, page: int) -> dict[str, Any]:
    identity = await access.target(core.store, access.PLAYER, token)
    found = await rating_store.profile(core.store, identity) if identity else []
    if identity is None or not found:
        raise NotFound
    accounts = await rating_store.accounts_of(core.store, identity)
    cards = []
    for game, s in found:
        points, low, high = plot(s.history)
        extra = [tr(msg("ratings.favourite", name=s.favourite))] if s.favourite else []
        if s.aided:
            extra.append(tr(msg("ratings.unrated_aided", count=s.aided)))
        cards.append(Card(game, tr(title(core.games[game])), f"{s.rating:.1f}", s.wins, s.losses, s.draws, s.streak,
                          s.best_streak, s.recent, f"{s.points:+g}" if s.points is not None else None, points, low,
                          high, extra))
    sessions = await core.store.published(access.WEB, access.DEFAULT_ON, players=accounts, limit=RECENT + 1,
                                          offset=(page - 1) * RECENT)
    return {"name": found[0][1].name, "cards": cards, "page": page, "more": len(sessions) > RECENT,
            "recent": await game_rows(core, sessions[:RECENT], tr, set(accounts)),
            "updating": bool({g for g, _ in found} & await rating_store.updating(core.store))}


async def game(core: Core, tr: Translator, token: str, ply: str | None) -> dict[str, Any]:
    session = await access.shown_game(core.store, token)
    if session is None:
        raise NotFound
    g = core.game_of(session)
    moves = await core.store.moves(session.id or 0)
    names = replay.names(session, tr)
    steps = replay.steps(g, session, moves, names, tr)
    at = min(len(moves), int(ply)) if ply and ply.isdigit() and len(ply) < 7 else len(moves)
    shown = [{"ply": s.ply, "who": names[s.seat] if s.seat is not None else "", "move": s.move, "hands": list(s.hands)}
             for s in steps]
    found = await replay.stored_review(core, session)
    return {"token": token, "title": tr(title(g)), "game": g.name, "players": names,
            "when": replay.when(session.updated_at),
            "review": review.lines(session, found, tr) if found is not None else [],
            "event": await events.of_game(core, session.id or 0, tr),
            "result": replay.result(session, tr), "steps": shown, "count": len(moves), "at": at}
