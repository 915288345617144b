"""Puzzle ratings where people look at ratings: a card on `/stats`, and `/leaderboard puzzle`."""

from __future__ import annotations

from bot.core import Core, Request
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from engines.base import msg
from render import standings as pictures
from render.standings import GameCard, LeaderboardRow, LeaderboardView

WORDS = ("puzzle", "puzzles", "谜题")  # what `/leaderboard` takes for the puzzles' board
SHOWN = 10


async def card(core: Core, user_id: str, tr: Translator) -> tuple[GameCard, str] | None:
    """`user_id`'s puzzle card for the `/stats` picture and its line of text; None before their first
    rated attempt."""
    found = await core.store.puzzle_player(user_id)
    if found is None:
        return None
    rating = f"{found.skill.ordinal:.1f}"
    line = tr(msg("puzzle.stats", rating=rating, solved=found.solved, tried=found.tried))
    solved = tr(msg("puzzle.stats_solved", solved=found.solved, tried=found.tried))
    return GameCard(title=tr(msg("puzzle.stats_title")), rating=rating, change="", history=[], lines=[solved],
                    recent=[]), line


async def leaderboard(core: Core, r: Request) -> list[Reply]:
    """The best puzzle solvers (everyone's: a puzzle is solved alone, nowhere in particular)."""
    tr = r.tr
    board = await core.store.puzzle_leaderboard(SHOWN)
    head = tr(msg("puzzle.leaderboard_title"))
    rows = [LeaderboardRow(rank=i, name=s.name, rating=f"{s.skill.ordinal:.1f}", games=s.tried,
                           win=f"{s.solved / s.tried:.0%}" if s.tried else "–", streak="", ai=False,
                           me=user == r.user.id) for i, (user, s) in enumerate(board, 1)]
    headings = {k: tr(msg(f"ratings.heading_{k}")) for k in ("name", "rating", "games", "win", "streak")}
    headings["games"], headings["win"] = tr(msg("puzzle.heading_tried")), tr(msg("puzzle.heading_solved"))
    headings["streak"] = ""
    empty = tr(msg("puzzle.leaderboard_empty"))
    view = LeaderboardView(title=head, subtitle=tr(msg("ratings.scope_global")), headings=headings, rows=rows,
                           footer="",
                           empty=empty)
    lines = [tr(msg("puzzle.leaderboard_line", rank=row["rank"], name=row["name"], rating=row["rating"],
                  solved=s.solved, tried=s.tried)) for row, (_, s) in zip(rows, board, strict=True)]
    try:
        image = await core.pictures.call(pictures.leaderboard, view)
    except Exception:
        return [Reply("\n".join([head, *(lines or [empty])]), audience=EVERYONE)]
    return [Reply(head, image=image, image_name="leaderboard.png", text_board="\n".join(lines or [empty]),
                  audience=EVERYONE)]
