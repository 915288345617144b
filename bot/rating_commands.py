"""`/leaderboard [game] [here|global] [page]` and `/stats [@user]`: pictures with a text twin.

The leaderboard ranks a game's rated players (people, by identity, and the AI levels) by
their conservative rating; "here" keeps those who played a rated game in this place (the
Discord server, the Telegram group; the console is one place), "global" (the default)
everyone. Long lists come in pages of `PAGE`, turned with buttons that belong to no game.
`/stats` shows per game the rating and its recent course, the record, the best streak,
the last results, the favourite opponent, and how many of the games were not rated for the
player because they had help (a hint, a move taken back).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from bot import rating_store
from bot.core import Core, Request, points, title
from bot.i18n import Translator
from bot.lobby import mentioned
from bot.model import EVERYONE, Button, Reply
from bot.puzzles import standing as puzzles
from bot.rating_store import Standing
from bot.tournament import views
from bot.web import chat
from engines.base import Refusal, msg, read_number
from render import standings as pictures
from render.standings import CardView, GameCard, LeaderboardRow, LeaderboardView

log = logging.getLogger(__name__)
View = TypeVar("View", LeaderboardView, CardView)

PAGE = 10
HERE, GLOBAL = "here", "global"
SCOPE_WORDS = {"here": HERE, "local": HERE, "这里": HERE, "本群": HERE, "global": GLOBAL, "all": GLOBAL,
               "全部": GLOBAL, "全服": GLOBAL}
BUTTON_PREFIX = "0.*."  # a button of no session: anyone may press it, any time


def place_of(r: Request) -> str:
    """Where this channel belongs, as leaderboards count it."""
    return r.event.place or r.event.channel


def _name(s: Standing, tr: Translator) -> str:
    return tr(msg("host.ai_name", level=s.player.removeprefix("ai:"))) if s.is_ai else s.name


def _streak(s: Standing) -> str:
    return f"+{s.streak}" if s.streak > 0 else str(s.streak) if s.streak < 0 else "0"


async def _game(core: Core, r: Request, word: str | None) -> str:
    """The game asked for, else the channel's, else the one with the most rated games."""
    if word is not None:
        name = core.game_words.get(word.lower())
        if name is None:
            raise Refusal("host.no_such_game", name=word, games=" · ".join(f"/{g}" for g in core.games))
        return name
    session = r.session or await core.store.latest(r.event.channel)
    if session is not None:
        return session.game
    counts = await core.store.rated_counts()
    return max(sorted(counts), key=lambda g: counts[g]) if counts else next(iter(core.games))


async def leaderboard(core: Core, r: Request) -> list[Reply]:
    game_word, scope, page = None, GLOBAL, 1
    for arg in r.command.args:
        if arg.lower() in SCOPE_WORDS:
            scope = SCOPE_WORDS[arg.lower()]
        elif (number := read_number(arg)) is not None:
            page = max(1, number)
        elif game_word is None:
            game_word = arg
        else:
            raise Refusal("ratings.leaderboard_usage")
    if game_word is not None and game_word.lower() in puzzles.WORDS and r.command.game is None:
        return await puzzles.leaderboard(core, r)
    game = r.command.game or await _game(core, r, game_word)
    place = place_of(r) if scope == HERE else None
    board = await rating_store.board(core.store, game, place)
    me = await rating_store.identity_of(core.store, r.user.id)
    pages = max(1, -(-len(board) // PAGE))
    page = min(page, pages)
    shown = board[(page - 1) * PAGE : page * PAGE]
    tr = r.tr
    head = tr(msg("ratings.leaderboard_title", game=title(core.games[game])))
    where = tr(msg(f"ratings.scope_{scope}"))
    mine = next((i for i, s in enumerate(board, 1) if s.player == me), None)
    footer = tr(msg("ratings.page", page=page, pages=pages))
    if mine is not None:
        footer += " · " + tr(msg("ratings.your_place", rank=mine))
    if game in await rating_store.updating(core.store):
        footer += " · " + tr(msg("ratings.updating"))
    rows = [LeaderboardRow(rank=i, name=_name(s, tr), rating=f"{s.rating:.1f}", games=s.games,
                           win=f"{s.win_rate:.0%}", streak=_streak(s), ai=s.is_ai, me=s.player == me)
            for i, s in enumerate(shown, (page - 1) * PAGE + 1)]
    headings = {k: tr(msg(f"ratings.heading_{k}")) for k in ("name", "rating", "games", "win", "streak")}
    view = LeaderboardView(title=head, subtitle=where, headings=headings, rows=rows, footer=footer,
                           empty=tr(msg("ratings.leaderboard_empty")))
    lines = [f"{head} · {where}"]
    lines += [tr(msg("ratings.leaderboard_line", rank=row["rank"], name=("🤖 " if row["ai"] else "") + row["name"],
                   rating=row["rating"], count=row["games"], win=row["win"], streak=row["streak"]))
              for row in rows] or [view["empty"]]
    lines.append(footer)
    buttons = []
    for target, label in ((page - 1, "ratings.button_previous"), (page + 1, "ratings.button_next")):
        if 1 <= target <= pages:
            command = f"leaderboard {game} {scope} {target}"
            buttons.append(Button(tr(msg(label)), BUTTON_PREFIX + command, "/" + command))
    more = await chat.leaderboard_line(core, game, place, page, tr)
    if more:
        lines[0] += "\n" + more
    return [await _drawn(core, pictures.leaderboard, view, lines, "leaderboard.png", tuple(buttons))]


async def stats(core: Core, r: Request) -> list[Reply]:
    who = mentioned(r, r.command.mentions[0]) if r.command.mentions else r.user
    user_id = await _known_as(core, who.id, who.handle)
    identity = await rating_store.identity_of(core.store, user_id)
    found = await rating_store.profile(core.store, identity)
    tr = r.tr
    puzzled = await puzzles.card(core, user_id, tr)
    events = await views.card(core, user_id, tr)
    if not found and puzzled is None and events is None:
        return [Reply(tr(msg("host.stats_none", name=who.name)), audience=EVERYONE)]
    name = found[0][1].name if found else who.name
    accounts = len(await rating_store.accounts_of(core.store, identity))
    updating = {game for game, _ in found} & await rating_store.updating(core.store)
    stale = [tr(msg("ratings.updating"))] if updating else []
    subtitle = " · ".join([tr(msg("ratings.linked_accounts", count=accounts))] * (accounts > 1) + stale)
    cards: list[GameCard] = []
    lines = [tr(msg("host.stats_header", name=name)), *stale]
    for game, s in found:
        history = s.history
        change = history[-1] - (history[-2] if len(history) > 1 else 0.0) if history else 0.0
        record = tr(msg("ratings.record", wins=s.wins, losses=s.losses, draws=s.draws, best=s.best_streak))
        second = [tr(msg("ratings.favourite", name=s.favourite))] if s.favourite else []
        if s.points is not None:
            second.append(tr(msg("ratings.points", points=points(s.points))))
        if s.aided:
            second.append(tr(msg("ratings.unrated_aided", count=s.aided)))
        recent = [(result, tr(msg(f"ratings.letter_{result}"))) for result in s.recent]
        cards.append(GameCard(title=tr(title(core.games[game])), rating=f"{s.rating:.1f}", change=f"{change:+.1f}",
                              history=history, lines=[record, " · ".join(second)], recent=recent))
        lines.append(tr(msg("ratings.stats_line", game=title(core.games[game]), rating=f"{s.rating:.1f}",
                          change=f"{change:+.1f}", record=record)))
        if second:
            lines.append("  " + " · ".join(second))
        if recent:
            lines.append("  " + tr(msg("ratings.recent", letters=" ".join(letter for _, letter in recent))))
    if puzzled is not None:
        cards.append(puzzled[0])
        lines.append(puzzled[1])
    if events is not None:
        cards.append(events[0])
        lines += events[1]
    page = await chat.player_line(core, identity, tr)
    if page:
        lines[0] += "\n" + page
    view = CardView(title=name, subtitle=subtitle, games=cards, empty="")
    return [await _drawn(core, pictures.card, view, lines, "stats.png", ())]


async def _known_as(core: Core, user_id: str, handle: str | None) -> str:
    """A user named only by @handle (Telegram): the account that last sat down with that handle."""
    if not user_id.startswith("@") or not handle:
        return user_id
    return await core.store.user_by_handle(handle) or user_id


async def _drawn(core: Core, draw: Callable[[View], bytes], view: View, lines: list[str],
                 image_name: str, buttons: tuple[Button, ...]) -> Reply:
    """The picture captioned with the first line (the header), the rest as text for the console;
    if the picture cannot be drawn, all the lines are the message."""
    try:
        image = await core.pictures.call(draw, view)
    except Exception:
        log.exception("drawing %s failed; the text goes instead", image_name)
        return Reply("\n".join(lines), buttons=buttons, audience=EVERYONE)
    return Reply(lines[0], image=image, image_name=image_name, text_board="\n".join(lines[1:]), buttons=buttons,
                 audience=EVERYONE)
