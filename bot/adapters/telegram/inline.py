"""Inline mode: a player types @thebot in the group and sees, privately, their hand and
their legal plays (in their language). Choosing a play posts "/move <play>" into the group as that player
(a message "via @thebot", which reaches the bot even in privacy mode); the host then
applies it like any typed move. Choosing the hand posts "/hand", which sends the cards
to the player's private chat (or a button that opens it) — never to the group.

Telegram gives an inline query no chat, so the game is the player's most recently
active Telegram game with hidden hands.
"""

from __future__ import annotations

import logging

from telegram import InlineQuery, InlineQueryResultArticle, InlineQueryResultsButton, InputTextMessageContent
from telegram.error import TelegramError

from bot.adapters.telegram.chats import chat_of
from bot.host import Host
from bot.i18n import Translator
from bot.model import TELEGRAM
from engines.base import msg

log = logging.getLogger(__name__)
PAGE = 49  # Telegram takes at most 50 results per answer; the first page also has the hand


async def answer_inline(host: Host, tr: Translator, query: InlineQuery) -> None:
    """Answer `query` in `tr`, its user's language."""
    user_id = f"{TELEGRAM}:{query.from_user.id}"
    found = await host.hidden_hand(user_id, TELEGRAM, query.from_user.language_code)
    try:
        if found is None:
            button = InlineQueryResultsButton(tr(msg("telegram.inline_no_game")), start_parameter="help")
            await query.answer([], cache_time=0, is_personal=True, button=button)
            return
        hand, plays = " · ".join(found.lines), found.plays
        wanted = "".join(query.query.split()).lower()
        if wanted:
            plays = [p for p in plays if any(wanted in "".join(w.split()).lower() for w in p)]
        start = int(query.offset) if query.offset.isdigit() else 0
        page = plays[start : start + PAGE]
        results: list[InlineQueryResultArticle] = []
        if start == 0:
            title = tr(msg("telegram.inline_hand_title"))
            about = hand if plays or wanted else tr(msg("telegram.inline_not_your_turn", hand=hand))
            results.append(InlineQueryResultArticle(
                f"hand.{found.session}", title, InputTextMessageContent("/hand"), description=about,
            ))
        for i, play in enumerate(page, start):
            results.append(InlineQueryResultArticle(
                f"play.{found.session}.{found.version}.{i}", tr(msg("telegram.inline_play_title", move=play.name)),
                InputTextMessageContent(f"/move {play.name}"), description=hand,
            ))
        more = str(start + PAGE) if start + PAGE < len(plays) else ""
        button = InlineQueryResultsButton(tr(msg("telegram.button_open_private")),
                                          start_parameter=f"hand_{chat_of(found.channel).link}")
        await query.answer(results, cache_time=0, is_personal=True, next_offset=more, button=button)
    except TelegramError as e:  # the query expired while we looked (they last ~10 s)
        log.info("answerInlineQuery failed: %s", e)

