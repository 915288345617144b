"""A tournament's commands: `/<game> tournament [swiss|roundrobin|knockout] [rounds=N] [timer=…]
[seats=…] [options]` opens one in the channel; `/join` (or `/join bot <level>`) enters it, `/go`
(its organiser or a moderator) pairs the first round, `/withdraw` leaves it (the games left are
lost), `/cancel tournament` ends it. `/join`, `/go` and `/cancel` are a table's commands too: a
table being filled (or a game being played) in the channel comes first."""

from __future__ import annotations

import re

from bot import lobby, rating_model
from bot.core import Core, Request, title
from bot.model import EVERYONE, Reply
from bot.session import SessionStatus
from bot.tournament import rounds, views
from bot.tournament.model import BOT, Entry, EventStatus, Tournament
from engines.base import Refusal, msg, read_number

ROUNDS = re.compile(r"rounds?=(\S{1,12})")
SEATS = re.compile(r"(?:seats|players)=(\S{1,12})")
# The formats' other words (as typed in either language).
FORMAT_WORDS = {"swiss": "swiss", "瑞士": "swiss", "瑞士制": "swiss", "roundrobin": "roundrobin", "rr": "roundrobin",
                "循环": "roundrobin", "循环赛": "roundrobin", "knockout": "knockout", "ko": "knockout",
                "淘汰": "knockout", "淘汰赛": "knockout"}
EVENT_WORDS = ("tournament", "event", "比赛", "锦标赛")
MOST_ENTRANTS = 64


async def open_event(core: Core, r: Request) -> list[Reply]:
    """`/<game> tournament ...`: an event taking entries; its organiser is the first in."""
    if await core.store.event_active(r.event.channel) is not None:
        raise Refusal("tournament.already_one")
    game, args, turn_seconds = lobby._setup(core, r)
    format, count, options = "swiss", None, []
    for arg in args:
        word = arg.lower()
        if word in FORMAT_WORDS:
            format = FORMAT_WORDS[word]
        elif m := ROUNDS.fullmatch(word):
            count = read_number(m[1])
            if count is None or not 1 <= count <= 20:
                raise Refusal("tournament.bad_rounds", low=1, high=20)
        elif m := SEATS.fullmatch(word):
            if game.seats_option is None:
                if read_number(m[1]) != game.seat_counts[0]:
                    raise Refusal("tournament.bad_seats", game=title(game), count=game.seat_counts[0])
            else:
                options.append(f"{game.seats_option}={m[1]}")
        else:
            options.append(arg)
    setup = game.parse_options(options)
    now = core.clock()
    settings = {"rounds": count or 0, "turn_seconds": turn_seconds, "seats": setup.seats,
                "game_options": setup.options}
    event = Tournament(r.event.channel, game.name, format, EventStatus.OPEN, r.user.id, settings, now, now,
                       entries=[await _entry(core, game.name, r.user.id, r.user.name, r.user.handle)])
    await core.store.event_create(event)
    head = msg("tournament.opened", name=r.user.name, event=views.name(core, event))
    return [Reply("\n".join([r.tr(head), r.tr(msg("tournament.how_to_enter", name=r.user.name))]), audience=EVERYONE)]


async def _entry(core: Core, game: str, entrant: str, name: str, handle: str | None = None,
                 level: str | None = None) -> Entry:
    player = rating_model.AI + level if level else entrant
    skill = (await core.store.skills(game, [player])).get(player)
    return Entry(entrant, name, round(skill.ordinal, 3) if skill else 0.0, level, handle)


async def _open(core: Core, r: Request) -> Tournament | None:
    event = await core.store.event_active(r.event.channel)
    return event if event is not None and event.status == EventStatus.OPEN else None


async def join(core: Core, r: Request) -> list[Reply]:
    """`/join`: a table's seat if one is being filled here, else the channel's open event."""
    event = await _open(core, r)
    if event is None or (r.session is not None and r.session.status == SessionStatus.LOBBY):
        lobby_here = r.session is not None and r.session.status == SessionStatus.LOBBY
        if event is None and not lobby_here and (running := await core.store.event_active(r.event.channel)):
            raise Refusal("tournament.already_running", event=views.name(core, running))
        r.need(SessionStatus.LOBBY, False)
        return await lobby.join(core, r)
    game = core.games[event.game]
    words = [a.lower() for a in r.command.args]
    if len(event.entries) >= MOST_ENTRANTS:
        raise Refusal("tournament.full", count=MOST_ENTRANTS)
    if words and (words[0] in ("bot", "ai", "机器人", "电脑") or words[0] in game.levels):
        level = words[0] if words[0] in game.levels else words[1] if len(words) > 1 else game.default_level
        if level not in game.levels:
            raise Refusal("tournament.bad_level", levels=", ".join(game.levels))
        bots = sum(e.bot for e in event.entries) + 1
        name = r.tr(msg("tournament.bot_name", number=bots, level=level))
        entry = await _entry(core, event.game, f"{BOT}{bots}", name, level=level)
    else:
        if event.entry(r.user.id) is not None:
            raise Refusal("tournament.already_in")
        entry = await _entry(core, event.game, r.user.id, r.user.name, r.user.handle)
    event.entries.append(entry)
    event.updated_at = core.clock()
    await core.store.event_save(event)
    said = msg("tournament.joined", name=entry.name, count=len(event.entries))
    return [Reply(r.tr(said), audience=EVERYONE)]


async def go(core: Core, r: Request) -> list[Reply]:
    """`/go`: a table's bots take its open seats, or the channel's open event begins."""
    event = await _open(core, r)
    if event is None or (r.session is not None and r.session.status == SessionStatus.LOBBY):
        r.need(SessionStatus.LOBBY, False)
        return await lobby.go(core, r)
    if r.user.id != event.organiser and not r.user.moderator:
        raise Refusal("tournament.only_organiser")
    least = max(2, event.seats)
    if len(event.entries) < least:
        raise Refusal("tournament.too_few", count=least)
    await rounds.ready(event)  # (a long schedule is made in a thread, not in the event loop)
    fit = rounds.most_rounds(event.format, len(event.entries), event.seats)
    wanted = event.rounds or rounds.default_rounds(event.format, len(event.entries), event.seats)
    if event.format == "swiss" and wanted > fit:
        raise Refusal("tournament.too_many_rounds", count=fit)
    if event.format != "swiss":
        wanted = rounds.default_rounds(event.format, len(event.entries), event.seats)
    event.options["rounds"] = wanted
    event.status = EventStatus.RUNNING
    new = rounds.advance(event) or []
    event.updated_at = core.clock()
    await core.store.event_save(event)  # the first round, paired once
    core.events_changed()
    begins = msg("tournament.begins", event=views.name(core, event), count=len(event.entries), rounds=wanted)
    return [Reply(r.tr(begins), audience=EVERYONE), views.pairings(core, event, r.tr, new)]


async def withdraw(core: Core, r: Request) -> list[Reply]:
    """`/withdraw`: leave the channel's event (while it runs: the games left are lost)."""
    event = await core.store.event_active(r.event.channel)
    if event is None:
        raise Refusal("tournament.none")
    entry = event.entry(r.user.id)
    if entry is None or entry.withdrawn:
        raise Refusal("tournament.not_in")
    if event.status == EventStatus.OPEN:
        event.entries.remove(entry)
    else:
        entry.withdrawn = max(1, event.round)
        for game in event.current():  # a game of theirs going on: a bot plays it out for them, lost
            if r.user.id in game.players and game.session_id is not None and not game.over:
                session = await core.store.get(game.session_id)
                seat = session.seat_of(r.user.id) if session is not None else None
                if session is not None and seat is not None and session.status.active:
                    seat.away = True
                    await core.commit(session)
    event.updated_at = core.clock()
    await core.store.event_save(event)
    core.events_changed()
    return [Reply(r.tr(msg("tournament.withdrew", name=r.user.name, event=views.name(core, event))), audience=EVERYONE)]


async def cancel(core: Core, r: Request) -> list[Reply]:
    """`/cancel`: the channel's game or table if there is one (`/cancel tournament`: the event
    always), else its event: its organiser or a moderator."""
    event = await core.store.event_active(r.event.channel)
    asked = bool(r.command.args) and r.command.args[0].lower() in EVENT_WORDS
    if event is None or (r.session is not None and not asked):
        if asked:
            raise Refusal("tournament.none")
        return await lobby.cancel(core, r)
    if r.user.id != event.organiser and not r.user.moderator:
        raise Refusal("tournament.only_organiser_cancel")
    event.status = EventStatus.CANCELLED
    event.updated_at = core.clock()
    await core.store.event_save(event)
    cancelled = msg("tournament.cancelled", name=r.user.name, event=views.name(core, event))
    return [Reply(r.tr(cancelled), audience=EVERYONE)]


async def standings(core: Core, r: Request) -> list[Reply]:
    """`/standings`: the channel's event as it stands (who is in, while it takes entries)."""
    event = await core.store.event_active(r.event.channel) or await core.store.event_latest(r.event.channel)
    if event is None:
        raise Refusal("tournament.none")
    if event.status == EventStatus.OPEN:
        names = [("🤖 " if e.bot else "") + e.name for e in event.entries]
        return [Reply(r.tr(msg("tournament.entered", event=views.name(core, event), names=names)), audience=EVERYONE)]
    return await views.after_round(core, event, r.tr, final=event.status == EventStatus.FINISHED)
