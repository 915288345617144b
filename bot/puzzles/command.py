"""`/puzzle` and `/answer`: a puzzle to solve, as a picture, its answers checked by the engine.

`/puzzle [game]` gives the one who asks a puzzle near their puzzle rating that they have not tried
(`/puzzle daily`: the day's, the same for everyone); in a channel everyone sees it, in a private chat
only they do. `/answer <move>` answers it: the engine checks the move and plays the defence, until the
win is complete or a move lets it go. `/puzzle hint` (private; the attempt then counts no more) and
`/puzzle solution` (private; gives up: a loss) help. Each person has one puzzle open per channel, kept
as a row (`Attempt`), so a restart resumes it. While a game is played in a channel its puzzles wait:
`/puzzle` and `/answer` are refused there in one line until the game is over.

A person's first attempt at a puzzle counts for the ratings: solving it is a win against the puzzle,
failing or giving up a loss (openskill, both rated); a hint makes the attempt count for nothing.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bot.core import Core, Request, secret
from bot.i18n import Translator
from bot.model import EVERYONE, Reply
from bot.puzzles import catalog
from bot.rating_model import Skill
from bot.storage.puzzle_contract import FAILED, SOLVED, Attempt
from engines.base import JSON, Msg, Refusal, msg
from engines.puzzles import GOOD, WRONG, Answer, puzzles_of
from render.base import RenderContext

HINT_WORDS = ("hint", "提示")
SOLUTION_WORDS = ("solution", "giveup", "答案", "放弃")
DAILY_WORDS = ("daily", "每日", "今日")


def day_of(clock: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(clock))


async def puzzle(core: Core, r: Request) -> list[Reply]:
    """`/puzzle [game|daily|hint|solution]`."""
    word = r.command.args[0].lower() if r.command.args else ""
    _no_game_here(r)
    attempt = await core.store.puzzle_attempt(r.event.channel, r.user.id)
    if word in HINT_WORDS or word in SOLUTION_WORDS:
        if attempt is None:
            raise Refusal("puzzle.none_open")
        return await (_hint if word in HINT_WORDS else _solution)(core, r, attempt)
    if attempt is not None:
        if word:
            raise Refusal("puzzle.finish_first", puzzle=_number(attempt.puzzle))
        return [await _shown(core, r, attempt, [msg("puzzle.again")])]
    if word in DAILY_WORDS:
        chosen, daily = catalog.daily(day_of(core.clock())), day_of(core.clock())
    else:
        game = core.game_words.get(word) if word else None
        if word and game is None:
            raise Refusal("puzzle.usage")
        chosen, daily = await _choose(core, r, game), None
    tried = chosen in await core.store.puzzles_tried(r.user.id)
    kind, data = _kind(chosen)
    position = await asyncio.to_thread(kind.start, data)
    attempt = Attempt(r.event.channel, r.user.id, r.user.name, chosen, position, core.clock(), daily, rated=not tried)
    attempt = await core.store.puzzle_begin(attempt, catalog.prior(chosen))
    lines = [msg("puzzle.daily_intro", day=daily)] if daily else []
    if tried:
        lines.append(msg("puzzle.tried_before"))
    return [await _shown(core, r, attempt, lines)]


async def answer(core: Core, r: Request) -> list[Reply]:
    """`/answer <move>`: the next move of the person's open puzzle."""
    _no_game_here(r)
    attempt = await core.store.puzzle_attempt(r.event.channel, r.user.id)
    if attempt is None:
        raise Refusal("puzzle.none_open")
    if not r.command.args:
        raise Refusal("puzzle.answer_usage")
    kind, data = _kind(attempt.puzzle)
    text = " ".join(r.command.args)
    said: Answer = await asyncio.to_thread(kind.answer, data, attempt.position, text)
    attempt.position = said.position
    if said.verdict == GOOD:
        await core.store.puzzle_save(attempt)
        lines = [msg("puzzle.good", move=text)]
        if said.reply:
            lines.append(msg("puzzle.defence", move=said.reply))
        return [await _shown(core, r, attempt, [*lines, msg("puzzle.next")])]
    attempt.status = FAILED if said.verdict == WRONG else SOLVED
    attempt.finished_at = core.clock()
    moved = await core.store.puzzle_save(attempt)
    lines = [msg("puzzle.wrong" if said.verdict == WRONG else "puzzle.solved", move=text, name=r.user.name)]
    lines += _rating_lines(attempt, moved)
    replies = [await _shown(core, r, attempt, lines)]
    if said.better:
        replies.append(secret(r.user, r.reader, msg("puzzle.better", move=said.better)))
    return replies


async def _hint(core: Core, r: Request, attempt: Attempt) -> list[Reply]:
    kind, data = _kind(attempt.puzzle)
    line = await asyncio.to_thread(kind.solution, data, attempt.position)
    first = attempt.aided
    attempt.aided = True
    await core.store.puzzle_save(attempt)  # committed before it is shown
    return [secret(r.user, r.reader, msg("puzzle.hint" if first else "puzzle.hint_unrated", move=line[0]))]


async def _solution(core: Core, r: Request, attempt: Attempt) -> list[Reply]:
    kind, data = _kind(attempt.puzzle)
    line = await asyncio.to_thread(kind.solution, data, attempt.position)
    attempt.status, attempt.finished_at = FAILED, core.clock()
    moved = await core.store.puzzle_save(attempt)
    said = [msg("puzzle.gave_up", name=r.user.name), *_rating_lines(attempt, moved)]
    public = Reply("\n".join(r.tr(m) for m in said),
                   audience=EVERYONE)
    return [public, secret(r.user, r.reader, msg("puzzle.solution", moves=" → ".join(line)))]


def _rating_lines(attempt: Attempt, moved: dict[str, tuple[Skill, Skill]]) -> list[Msg]:
    if attempt.user_id not in moved:
        return [msg("puzzle.unrated")]
    before, after = moved[attempt.user_id]
    return [msg("puzzle.rating", before=f"{before.ordinal:.1f}", after=f"{after.ordinal:.1f}")]


async def _choose(core: Core, r: Request, game: str | None) -> str:
    if game is not None and game not in catalog.GAMES:
        raise Refusal("puzzle.no_puzzles", game=msg(f"{game}.title"))
    rng = random.Random(f"{r.user.id}:{core.clock()}")
    games = [g for g in catalog.GAMES if catalog.shipped(g)]
    game = game or rng.choice(games)
    if not catalog.shipped(game):
        raise Refusal("puzzle.no_puzzles", game=msg(f"{game}.title"))
    player = await core.store.puzzle_player(r.user.id)
    skills = await core.store.puzzle_skills(catalog.ids(game))
    rating = player.skill.mu if player else Skill().mu
    tried = await core.store.puzzles_tried(r.user.id)
    return catalog.pick(game, tried, {p: s.skill for p, s in skills.items()}, rating, rng)


async def _shown(core: Core, r: Request, attempt: Attempt, lines: list[Msg]) -> Reply:
    """The puzzle as it stands, for the channel, with `lines` above the task."""
    kind, data = _kind(attempt.puzzle)
    tr = r.tr
    picture = await asyncio.to_thread(kind.picture, data, attempt.position)
    skills = await core.store.puzzle_skills([attempt.puzzle])
    rating = (skills[attempt.puzzle].skill if attempt.puzzle in skills else catalog.prior(attempt.puzzle)).mu
    title = msg("puzzle.title", puzzle=_number(attempt.puzzle), game=msg(f"{kind.game}.title"), rating=f"{rating:.0f}")
    goal = kind.goal(data)
    text = [tr(m) for m in lines]
    if attempt.status == "open":
        text += [tr(title), tr(goal), tr(msg("puzzle.how", example=_example(kind.game)))]
    view = {"renderer": picture.renderer, "view": picture.view, "title": title.to_json(), "goal": goal.to_json()}
    names = tuple(attempt.name if s in picture.mine else tr(msg("puzzle.defender")) for s in range(picture.seats))
    ctx = RenderContext(names=names, to_move=picture.to_move, outcome=None, tr=tr)
    board = kind.text(data, attempt.position, tr)
    try:
        image = await core.pictures.draw("puzzle", view, ctx)
    except Exception:
        return Reply("\n".join([*text, board]), audience=EVERYONE)
    return Reply("\n".join(text), image=image, image_name="puzzle_board.png", text_board=board, audience=EVERYONE)


def _kind(puzzle_id: str) -> tuple[Any, JSON]:
    found = catalog.find(puzzle_id)
    if found is None:
        raise Refusal("puzzle.none_open")
    game, data = found
    return puzzles_of(game), data


def _number(puzzle_id: str) -> str:
    return puzzle_id.replace(":", "-")


def _example(game: str) -> str:
    return {"gomoku": "h8", "doudizhu": "33", "checkers": "q5 p4", "nim": "2 3"}[game]


def _no_game_here(r: Request) -> None:
    if r.session is not None and r.session.status.active:
        raise Refusal("puzzle.game_on")


def stats_line(tr: Translator, skill: Any) -> str:
    """The puzzle line of `/stats`."""
    return tr(msg("puzzle.stats", rating=f"{skill.skill.ordinal:.1f}", solved=skill.solved, tried=skill.tried))

