"""The command table: every command the host answers, its handler, and what it needs.

This is the one list of commands. The parser's game actions, `/help`, Telegram's
command menu and Discord's command tree are all built from it; `grep` for a
command's name finds its handler here. The games add their own words (`/take`,
`/bid`, `/moves`): those are moves or look-ups of the channel's game.

`WORDS` are the commands' other words in each language (认输 is /resign), and each game's
catalog holds those of its own words (`word_take = "取"`); `vocabulary` puts them together. The
parser reads them wherever a platform delivers them (the console, text messages), and the first
one is the command's name in that language on Discord. Telegram takes only [a-z0-9_] in its
command menu, so there they are typed, not listed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot import info, links, lobby, offers, play, rating_commands, review, watch
from bot.core import Core, Request
from bot.i18n import LANGUAGES, Translator, catalog
from bot.model import EVERYONE, Reply
from bot.parser import Command, ParseError
from bot.parser import parse as parse_words
from bot.puzzles import command as puzzles
from bot.session import SessionStatus
from bot.tournament import commands as events
from bot.tournament.model import FORMATS
from bot.web import chat
from engines.base import Game, msg

Handler = Callable[[Core, Request], Awaitable[list[Reply]]]
Prepare = Callable[[Core, str, tuple[str, ...]], Awaitable[None]]
ArgKind = Literal["text", "move", "number", "user", "game", "choice"]


@dataclass(frozen=True)
class Arg:
    """What may follow a command word; the help and Discord's slash options are built from it.

    `kind`: "text", "move" (a move of the user's game; Discord suggests the legal ones),
    "number" (0..`high`), "user", "game" (a game's name, or one of `choices`: `/leaderboard puzzle`) or
    "choice" (one of `choices`)."""

    name: str
    kind: ArgKind = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    high: int = 0


@dataclass(frozen=True)
class Spec:
    """One command. The dispatcher checks `status` (the channel's session must exist and be in
    it) and `seat` (the user must have a seat) before `run` is called. `moderator`: being a
    moderator changes what the command may do, so adapters that must ask the platform who is
    one (Telegram) ask only then. `prepare`: slow work the command may do before its channel is
    locked (channel, arguments), so the channel's other commands do not wait for it; `run` then finds
    it done. It may only make what `run` would make the same way (a first review)."""

    name: str
    run: Handler
    args: tuple[Arg, ...] = ()
    status: SessionStatus | None = None
    seat: bool = False
    moderator: bool = False
    prepare: Prepare | None = None


PLAYING, LOBBY = SessionStatus.PLAYING, SessionStatus.LOBBY
GAME = Arg("game", "game")
SCOPE = Arg("scope", "choice", choices=("here", "global"))

# Actions of one game: /nim start 3 4 5, /gomoku challenge @bob, /ddz solo hard.
GAME_ACTIONS: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("start", lobby.start),
    Spec("challenge", lobby.challenge, (Arg("user", "user", required=True),)),
    Spec("solo", lobby.solo, (Arg("level"),)),
    Spec("watch", watch.watch, (Arg("level"),)),
    Spec("rules", info.rules),
    Spec("leaderboard", rating_commands.leaderboard, (SCOPE,)),
    Spec("tournament", events.open_event, (Arg("format", "choice", choices=FORMATS),)),
)}


async def _help(core: Core, r: Request) -> list[Reply]:
    return [Reply(help_text(core, r.tr), audience=EVERYONE)]


# Commands about the channel's session or the bot itself, in the order the help lists them.
HOST_COMMANDS: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("join", events.join, (Arg("bot"),)),
    Spec("accept", lobby.accept),
    Spec("decline", lobby.decline),
    Spec("go", events.go, moderator=True),
    Spec("move", play.move, (Arg("move", "move", required=True),), status=PLAYING, seat=True),
    Spec("undo", offers.undo, status=PLAYING, seat=True),
    Spec("draw", offers.draw, status=PLAYING, seat=True),
    Spec("restart", offers.restart, status=PLAYING, seat=True),
    Spec("resign", play.resign, status=PLAYING, seat=True),
    Spec("back", play.back, status=PLAYING, seat=True),
    Spec("cancel", events.cancel, moderator=True),
    Spec("withdraw", events.withdraw),
    Spec("standings", events.standings),
    Spec("rematch", lobby.rematch),
    Spec("board", info.board, (Arg("show"),)),
    Spec("hint", info.hint, status=PLAYING, seat=True),
    Spec("hand", info.hand, status=PLAYING, seat=True),
    Spec("record", info.record),
    Spec("replay", info.replay_at, (Arg("move", "number", high=100_000),)),
    Spec("review", review.review, (Arg("back", "number", high=review.MOST),), prepare=review.prepare),
    Spec("rules", info.rules, (GAME,)),
    Spec("games", info.games),
    Spec("stats", rating_commands.stats, (Arg("user", "user"),)),
    Spec("leaderboard", rating_commands.leaderboard, (Arg("game", "game", choices=("puzzle",)), SCOPE)),
    Spec("puzzle", puzzles.puzzle, (Arg("what"),)),
    Spec("answer", puzzles.answer, (Arg("move", required=True),)),
    Spec("link", links.link, (Arg("code"),)),
    Spec("unlink", links.unlink),
    Spec("hints", info.hints, (Arg("state", "choice", required=True, choices=("on", "off")),), moderator=True),
    Spec("lang", info.lang, (Arg("language", "choice", required=True, choices=LANGUAGES),), moderator=True),
    Spec("web", chat.web, (Arg("state", "choice", required=True, choices=("on", "off")),), moderator=True),
    Spec("help", _help),
)}

Words = dict[str, dict[str, tuple[str, ...]]]  # language -> command -> its words, first its name

# The commands' words in other languages, first the name: the table's commands and the game actions.
# The words a game adds (/取 for Nim's /take) are in its catalog: see `vocabulary`.
WORDS: Words = {
    "zh": {
        "start": ("开局", "开始", "开桌"), "challenge": ("挑战",), "solo": ("人机", "单人"), "rules": ("规则", "玩法"),
        "leaderboard": ("排行榜", "排行"), "join": ("加入", "入座"), "accept": ("接受", "同意"),
        "decline": ("拒绝", "不同意"), "go": ("开始",), "move": ("走", "下", "落子"), "undo": ("悔棋",),
        "draw": ("求和", "和棋"), "restart": ("重开", "重来"), "resign": ("认输", "投降"), "back": ("回来", "返回"),
        "cancel": ("取消",), "rematch": ("再来一局", "再来"), "board": ("棋盘", "牌桌", "局面"),
        "hint": ("提示",), "hand": ("手牌",), "record": ("棋谱", "记录"), "replay": ("复盘",), "review": ("分析",),
        "games": ("游戏",), "stats": ("战绩",), "hints": ("提示开关",), "lang": ("语言",),
        "help": ("帮助",), "watch": ("观战", "观看"), "link": ("绑定", "关联"), "unlink": ("解绑", "解除绑定"),
        "puzzle": ("谜题", "残局", "做题"), "answer": ("解", "答"),
        "tournament": ("锦标赛", "比赛"), "withdraw": ("退赛",), "standings": ("积分榜", "排名"),
        "web": ("网站", "网页"),
    },
}

# Commands a button of no session may stand for (a leaderboard's pages): they only look things up.
FREE_BUTTONS = frozenset({"leaderboard"})


def _words(words: Words, names: Collection[str]) -> dict[str, str]:
    """Every word of `names` in every language -> the command it stands for."""
    return {word: name for by_name in words.values() for name, ws in by_name.items() if name in names for word in ws}


def _command_words(words: Words) -> dict[str, str]:
    """The words that may stand first (/认输, /过): all but those of the game actions alone."""
    return _words(words, {name for ws in words.values() for name in ws} - (GAME_ACTIONS.keys() - HOST_COMMANDS.keys()))


# What may follow a game's name (/五子棋 人机), and what may stand first (/认输) of the host's commands.
ACTION_WORDS: dict[str, str] = {**{name: name for name in GAME_ACTIONS}, **_words(WORDS, GAME_ACTIONS)}
COMMAND_WORDS: dict[str, str] = _command_words(WORDS)


def game_words(games: Iterable[Game[Any, Any]]) -> Words:
    """The words of the games' own commands (`move_words`, `queries`) in each language, from each
    game's catalog: `word_<command>`, the words apart by spaces, first the name (`word_pass = "过 不要"`);
    the command's own name needs no repeating. Games that add the same command share its words."""
    found: Words = {}
    for language in LANGUAGES:
        for game in games:
            for command in (*game.move_words, *game.queries):
                text = catalog(language).get(f"{game.name}.word_{command}", "")
                have = found.get(language, {}).get(command, ())
                new = tuple(w for w in text.split() if w != command and w not in have)
                if new:
                    found.setdefault(language, {})[command] = (*have, *new)
    return found


@dataclass(frozen=True)
class Vocabulary:
    """Every command word of the host and of its games, in every language."""

    words: Words
    commands: dict[str, str]  # what may stand first -> the command (认输: resign, 取: take)

    def name_in(self, language: str, command: str) -> str | None:
        """The name of `command` in `language` (None: its own)."""
        words = self.words.get(language, {}).get(command)
        return words[0] if words else None


def vocabulary(games: Iterable[Game[Any, Any]]) -> Vocabulary:
    """The host's words and those of `games`."""
    added = game_words(games)
    words = {language: {**WORDS.get(language, {}), **added.get(language, {})} for language in (*WORDS, *added)}
    return Vocabulary(words, _command_words(words))


def name_in(language: str, command: str) -> str | None:
    """The name of the host's `command` in `language` (None: its own)."""
    words = WORDS.get(language, {}).get(command)
    return words[0] if words else None


def parse(text: str, games: dict[str, str], bot_name: str | None = None,
          words: Mapping[str, str] = COMMAND_WORDS) -> Command | ParseError | None:
    """Read a command with the table's game actions and `words` (the host's alone unless given a
    `Vocabulary`'s commands; see `bot.parser.parse`)."""
    return parse_words(text, games, ACTION_WORDS, bot_name, words)


def usage(spec: Spec, tr: Translator) -> str:
    """`/stats [user]`, `/hints on|off`: the command as the help shows it."""
    words = [f"/{spec.name}"]
    for arg in spec.args:
        shown = "|".join(arg.choices) if arg.kind == "choice" else tr(msg(f"commands.arg_{arg.name}"))
        words.append(shown if arg.choices and arg.required else f"<{shown}>" if arg.required else f"[{shown}]")
    return " ".join(words)


def help_text(core: Core, tr: Translator) -> str:
    """The help: the games' actions, then every host command with what it does (and, in a
    language with words of its own for it, that word: "/resign (认输)")."""

    def line(spec: Spec, about: str, game: str = "") -> str:
        shown = usage(spec, tr).replace("/", f"/{game} ", 1) if game else usage(spec, tr)
        own = name_in(tr.language, spec.name)
        return f"  {shown}{f' ({own})' if own else ''} — {about}"

    lines = [tr(msg("commands.help_intro"))]
    game = f"<{tr(msg('commands.arg_game'))}>"
    for name, spec in GAME_ACTIONS.items():
        lines.append(line(spec, tr(msg(f"commands.game_{name}", game=msg("commands.any_game"))), game))
    lines += [line(spec, tr(msg(f"commands.{name}"))) for name, spec in HOST_COMMANDS.items()]
    lines.append(tr(msg("commands.help_timer")))
    lines.append(tr(msg("host.games", games=info.game_list(core, tr))))
    return "\n".join(lines)


def known(word: str, games: Collection[str]) -> bool:
    """Whether `word` is a host command, one of its other words or a game's name (not counting the
    games' own words)."""
    return COMMAND_WORDS.get(word, word) in HOST_COMMANDS or word in games


def needs_moderator(command: Command | ParseError | None) -> bool:
    """Whether being a moderator matters for this command (adapters ask the platform only then)."""
    if not isinstance(command, Command) or command.game is not None:
        return False
    spec = HOST_COMMANDS.get(command.name)
    return spec is not None and spec.moderator
