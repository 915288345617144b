"""What the web site may show, and how it names things in URLs.

A channel's finished games are shown only while the channel allows it: its `web` setting
(`/web on|off`, moderators), off by default except in the console (one person's terminal).
A game, a player or a place is named in a URL by a random web id (`Storage.web_ids`), never by
a number or an account id, so no URL can be guessed, and a game's page asks its channel again
at every request: `/web off` hides the games shown until then.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from bot.model import CONSOLE
from bot.session import Session, SessionStatus
from bot.storage import PLACE, Storage
from bot.tournament.model import Tournament

WEB = "web"  # channel setting: "on" or "off"
DEFAULT_ON = (f"{CONSOLE}:",)  # channels shown unless they say "off"
GAME, PLAYER, PLACE_KIND, EVENT = "game", "player", "place", "event"


class NotFound(Exception):
    """No such page, or not one the web may show (said the same way: nothing tells which)."""


def new_id() -> str:
    """A web id: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def shown_by_default(channel: str) -> bool:
    return channel.startswith(DEFAULT_ON)


def allows(channel: str, value: str | None) -> bool:
    """Whether a channel whose `web` setting is `value` shows its games."""
    return value == "on" or (value is None and shown_by_default(channel))


async def allowed(store: Storage, channel: str) -> bool:
    return allows(channel, await store.setting(channel, WEB))


async def shown_game(store: Storage, token: str) -> Session | None:
    """The finished game `token` names, if its channel allows the web now."""
    target = await store.web_target(token)
    if target is None or target[0] != GAME or not target[1].isdigit():
        return None
    session = await store.get(int(target[1]))
    if session is None or session.status != SessionStatus.FINISHED or session.state is None:
        return None
    return session if await allowed(store, session.channel) else None


async def shown_event(store: Storage, token: str) -> Tournament | None:
    """The tournament `token` names, if its channel allows the web now (one not begun is not shown)."""
    target = await store.web_target(token)
    if target is None or target[0] != EVENT or not target[1].isdigit():
        return None
    event = await store.event_get(int(target[1]))
    if event is None or event.round == 0:
        return None
    return event if await allowed(store, event.channel) else None


async def shown_places(store: Storage) -> set[str]:
    """The places (servers, groups) one of whose channels allows the web."""
    values, places = await store.channel_values(WEB), await store.channel_values(PLACE)
    channels = set(values) | set(places)
    return {places.get(c, c) for c in channels if allows(c, values.get(c))}


async def ids(store: Storage, kind: str, targets: Iterable[str]) -> dict[str, str]:
    return await store.web_ids(kind, list(targets), new_id)


async def game_ids(store: Storage, sessions: Iterable[Session]) -> dict[int, str]:
    found = await ids(store, GAME, (str(s.id) for s in sessions))
    return {int(k): v for k, v in found.items()}


async def target(store: Storage, kind: str, token: str) -> str | None:
    found = await store.web_target(token)
    return found[1] if found is not None and found[0] == kind else None
