"""A tournament's page: its standings (a knockout's bracket too), and its games round by round, each
linked to its replay where that game's channel (a thread, a topic) shows its games. Built from
the tournament's own views (`bot.tournament.views`), so it reads as the chat's messages do."""

from __future__ import annotations

from typing import Any

from bot.core import Core
from bot.i18n import Translator
from bot.session import SessionStatus
from bot.tournament import views
from bot.web import access
from bot.web.replay import when
from engines.base import msg

LISTED = 10  # tournaments the start page lists


async def tournament(core: Core, tr: Translator, token: str) -> dict[str, Any]:
    event = await access.shown_event(core.store, token)
    if event is None:
        raise access.NotFound
    final = not event.status.active
    standings, _ = views.standings_view(core, event, tr, final)
    bracket = views.bracket_view(core, event, tr)[1][1:] if event.format == "knockout" else []
    links: dict[int, str] = {}
    for game in event.games:
        if game.session_id is not None:
            session = await core.store.get(game.session_id)
            if session is not None and session.status == SessionStatus.FINISHED and \
                    await access.allowed(core.store, session.channel):
                links[game.session_id] = (await access.game_ids(core.store, [session]))[game.session_id]
    rounds = []
    for number in range(1, event.round + 1):
        games = [{"line": views.game_line(event, g, tr), "token": links.get(g.session_id or 0)}
                 for g in event.games if g.round == number]
        rounds.append({"name": tr(msg("tournament.round_name", round=number)), "games": games})
    return {"title": tr(views.name(core, event)), "standings": standings, "bracket": bracket, "rounds": rounds,
            "game": event.game}


async def listed(core: Core, tr: Translator, most: int = LISTED) -> list[dict[str, str]]:
    """The tournaments the start page lists: begun, in channels that show their games, latest first."""
    found = await core.store.events_published(access.WEB, access.DEFAULT_ON, limit=most)
    tokens = await access.ids(core.store, access.EVENT, (str(e.id) for e in found))
    return [{"token": tokens[str(e.id)], "name": tr(views.name(core, e)),
             "status": tr(msg(f"tournament.status_{e.status}")), "when": when(e.updated_at),
             "entrants": tr(msg("web.entrants", count=len([x for x in e.entries if not x.withdrawn])))}
            for e in found if e.game in core.games]


async def of_game(core: Core, session_id: int, tr: Translator) -> dict[str, str] | None:
    """The tournament a game was played in, for a link from its page (if the tournament is shown)."""
    event = await core.store.event_of_session(session_id)
    if event is None or event.id is None or not await access.allowed(core.store, event.channel):
        return None
    token = (await access.ids(core.store, access.EVENT, [str(event.id)]))[str(event.id)]
    return {"token": token, "name": tr(views.name(core, event))}
