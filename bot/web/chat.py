"""The web site in chat: `/web on|off` (moderators: whether the channel's finished games are shown
on the site), and the links that chat messages carry to it when `--web-url` is set: a finished
game's result to its replay (only where the channel allows the web), `/leaderboard` to its pages,
`/stats` to the player's page. Without `--web-url` there are no links (`Core.web_url`)."""

from __future__ import annotations

from bot.core import Core, Request
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from bot.session import Session, SessionStatus
from bot.web import access
from engines.base import Refusal, msg


def url(core: Core, path: str) -> str | None:
    """The public address of the site's `path`, or None when there is no site to link to."""
    return f"{core.web_url.rstrip('/')}{path}" if core.web_url else None


async def web(core: Core, r: Request) -> list[Reply]:
    """`/web on|off`: whether this channel's finished games are shown on the web site."""
    choice = r.command.args[0].lower() if r.command.args else ""
    if choice not in ("on", "off"):
        raise Refusal("web.usage")
    if not r.user.moderator:
        raise Refusal("web.moderators_only")
    await core.store.set_setting(r.event.channel, access.WEB, choice)
    lines = [r.tr(msg(f"web.now_{choice}"))]
    home = url(core, "/")
    if choice == "on" and home:
        lines.append(home)
    return [Reply("\n".join(lines), audience=EVERYONE)]


async def replay_line(core: Core, session: Session, tr: Translator) -> str | None:
    """"Replay: <url>" under a finished game's result, where its channel shows its games."""
    if not core.web_url or session.status != SessionStatus.FINISHED or session.id is None:
        return None
    if not await access.allowed(core.store, session.channel):
        return None
    token = (await access.game_ids(core.store, [session]))[session.id]
    return tr(msg("web.replay", url=url(core, f"/game/{token}")))


async def leaderboard_line(core: Core, game: str, place: str | None, page: int, tr: Translator) -> str | None:
    """"More: <url>" under a leaderboard: its pages on the site (a place's, if the place shows its games)."""
    if not core.web_url:
        return None
    query = f"?page={page}" if page > 1 else ""
    if place is not None:
        if place not in await access.shown_places(core.store):
            return None
        token = (await access.ids(core.store, access.PLACE_KIND, [place]))[place]
        query = f"?place={token}" + (f"&page={page}" if page > 1 else "")
    return tr(msg("web.more", url=url(core, f"/leaderboard/{game}{query}")))


async def player_line(core: Core, identity: str, tr: Translator) -> str | None:
    """"Player page: <url>" under /stats."""
    if not core.web_url:
        return None
    token = (await access.ids(core.store, access.PLAYER, [identity]))[identity]
    return tr(msg("web.player_page", url=url(core, f"/player/{token}")))
