"""Looking at things: the board, a game's own look-ups, hands, hints, the record, a replay,
stats, leaderboards, rules and the list of games. Nothing here changes a game, except that a
player's first hint marks the game as not rated for them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot import replies
from bot.core import Core, Request, secret, title, vs
from bot.i18n import Translator
from bot.languages import read_language
from bot.model import EVERYONE, Reply
from bot.session import Aid, MoveRow, Session, SessionStatus
from engines.base import Game, Msg, Refusal, msg, read_number

HINTS = "hints"  # channel setting: "off" forbids /hint


async def board(core: Core, r: Request) -> list[Reply]:
    """`/board [options]`: the channel's table again (or its last game's final board)."""
    session = r.session or await core.store.latest(r.event.channel)
    if session is None:
        raise Refusal("host.no_game")
    if session.status == SessionStatus.LOBBY:
        return [replies.lobby(session, r.tr, msg("host.lobby_waiting"))]
    if session.state is None:  # a table closed before its game began: nothing to show
        raise Refusal("host.no_game")
    overlay = None
    game = core.game_of(session)
    if r.command.args:
        if "board" not in game.queries:
            raise Refusal("host.board_no_options")
        overlay = game.query(game.from_json(session.state), None, "board", list(r.command.args)).overlay
    return [await replies.board(core, session, r.tr, [], overlay=overlay)]


async def query(core: Core, r: Request, name: str) -> list[Reply]:
    """A game's own look-up (`/moves c4`, `/path c4 g8`): an answer and a marked picture."""
    session = r.active
    game = core.game_of(session)
    seat = session.seat_of(r.user.id)
    answer = game.query(game.from_json(session.state), seat.seat if seat else None, name, list(r.command.args))
    return [await replies.board(core, session, r.tr, [answer.text], overlay=answer.overlay, buttons=False)]


async def hand(core: Core, r: Request) -> list[Reply]:
    """`/hand`: your hidden cards, to you only."""
    session = r.active
    seat = r.player
    if not core.game_of(session).hidden_hands:
        raise Refusal("host.no_hand")
    return [await replies.hand(core, session, seat.seat, r.reader)]


async def hint(core: Core, r: Request) -> list[Reply]:
    """`/hint`: the move the hint level would play, to the asker only. The game is then not rated
    for them: the first hint is committed as help (`Session.aided`) before it is shown, and says so."""
    session = r.active
    seat = r.player
    game = core.game_of(session)
    if game.hint_level is None:
        raise Refusal("host.no_hints_game")
    if await core.store.setting(session.channel, HINTS) == "off":
        raise Refusal("host.hints_off")
    if game.to_move(game.from_json(session.state)) != seat.seat:
        raise Refusal("host.not_your_turn")
    text, _ = await core.ai.move(game.name, session.state, seat.seat, game.hint_level, ai_seed(session) ^ 1)
    state = game.from_json(session.state)
    name = game.move_name(state, game.parse_move(state, seat.seat, text))  # in the asker's language
    if seat.seat in session.aided:
        return [secret(r.user, r.reader, msg("host.hint", move=name))]
    session.aided[seat.seat] = Aid.HINT
    await core.commit(session)
    return [secret(r.user, r.reader, msg("host.hint_unrated", move=name))]


async def hints(core: Core, r: Request) -> list[Reply]:
    """`/hints on|off` for this channel (during a game: moderators only)."""
    choice = r.command.args[0].lower() if r.command.args else ""
    if choice not in ("on", "off"):
        raise Refusal("host.hints_usage")
    if r.session is not None and not r.user.moderator:
        raise Refusal("host.hints_during_game")
    await core.store.set_setting(r.event.channel, HINTS, choice)
    return [Reply(r.tr(msg(f"host.hints_now_{choice}")), audience=EVERYONE)]


async def lang(core: Core, r: Request) -> list[Reply]:
    """`/lang zh|en`: the language of this channel's public messages and pictures (during a
    game: moderators only). What only one person sees stays in their own language."""
    language = read_language(r.command.args[0]) if r.command.args else None
    if language is None:
        raise Refusal("host.lang_usage")
    if r.session is not None and not r.user.moderator:
        raise Refusal("host.lang_during_game")
    tr = await core.languages.choose(r.event.channel, language)
    return [Reply(tr(msg("host.lang_now")), language=tr.language, audience=EVERYONE)]


async def _played(core: Core, r: Request) -> tuple[Session, list[MoveRow]]:
    """The channel's current or latest game that has begun, and its moves."""
    session = r.session or await core.store.latest(r.event.channel)
    if session is None or session.state is None:  # none, or a table whose game never began
        raise Refusal("host.no_game")
    return session, await core.store.moves(session.id or 0)


async def record(core: Core, r: Request) -> list[Reply]:
    """`/record`: the moves of the channel's game so far."""
    session, moves = await _played(core, r)
    game = core.game_of(session)
    header = r.tr(msg("host.record_header", game=title(game), players=vs(session, r.tr), count=len(moves)))
    names = named(game, session, moves)  # in the channel's language
    body = " · ".join(f"{m.ply + 1}. {r.tr(n)}" for m, n in zip(moves, names, strict=True))
    body = body or r.tr(msg("host.record_empty"))
    return [Reply(f"{header}\n{body}", document="record.txt", audience=EVERYONE)]


async def replay_at(core: Core, r: Request) -> list[Reply]:
    """`/replay [n]`: the position after move n of the channel's latest game, rebuilt from its record."""
    session, moves = await _played(core, r)
    wanted = read_number(r.command.args[0]) if r.command.args else len(moves)
    if wanted is None or wanted > len(moves):
        raise Refusal("host.replay_usage", count=len(moves))
    game = core.game_of(session)
    state, names = _play_again(game, session, moves[:wanted])
    end = wanted == len(moves)
    outcome = session.outcome if end else None
    to_move = None if end and session.status != SessionStatus.PLAYING else game.to_move(state)
    view = game.view(state, None)
    ctx = replies.context(session, to_move, outcome, r.tr, None)
    last = names[-1] if names else "—"
    text = r.tr(msg("host.replay", ply=wanted, count=len(moves), move=last))
    return [await replies.drawn(core, game, view, ctx, r.tr, text, session=session.id, audience=EVERYONE)]


def replay(game: Game[Any, Any], session: Session, moves: Iterable[MoveRow]) -> object:
    """The state after `moves`, played again from the session's options and seed."""
    return _play_again(game, session, moves)[0]


def named(game: Game[Any, Any], session: Session, moves: list[MoveRow]) -> list[Msg | str]:
    """`moves` as players read them (`Game.move_name`: in the reader's language); as recorded when
    one no longer reads (an older version's record)."""
    try:
        return _play_again(game, session, moves)[1]
    except Refusal:
        return [m.move for m in moves]


def _play_again(game: Game[Any, Any], session: Session, moves: Iterable[MoveRow]) -> tuple[object, list[Msg | str]]:
    """`moves` played again from the session's options and seed: the state after them, and their names."""
    state, names = game.new_state(session.options, len(session.seats), session.seed), []
    for row in moves:
        move = game.parse_move(state, row.seat, row.move)
        names.append(game.move_name(state, move))
        state = game.apply(state, row.seat, move)
    return state, names


def ai_seed(session: Session) -> int:
    """The seed of the AI's thinking at this point of the game (the same each time it looks again)."""
    return (session.seed * 1_000_003 + session.ply) % (1 << 62)


async def rules(core: Core, r: Request) -> list[Reply]:
    """`/rules [game]` or `/<game> rules`: the rules of a game (by default the channel's)."""
    name = r.command.game
    if name is None and r.command.args:
        name = _game_named(core, r, r.command.args[0])
    if name is None and r.session is not None:
        name = r.session.game
    if name is None:
        return [Reply(r.tr(msg("host.rules_which", games=game_list(core, r.tr))), audience=EVERYONE)]
    return [Reply(r.tr(msg(f"{name}.rules")), audience=EVERYONE)]


async def games(core: Core, r: Request) -> list[Reply]:
    return [Reply(r.tr(msg("host.games", games=game_list(core, r.tr))), audience=EVERYONE)]


def game_list(core: Core, tr: Translator) -> str:
    return " · ".join(f"/{name} {tr(title(g))}" for name, g in core.games.items())


def _game_named(core: Core, r: Request, word: str) -> str:
    name = core.game_words.get(word.lower())
    if name is None:
        raise Refusal("host.no_such_game", name=word, games=game_list(core, r.reader))
    return name
