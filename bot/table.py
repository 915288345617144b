"""The command table: every command the host answers, its handler, and what it needs.

This is the one list of commands. The parser's game actions, `/help`, Telegram's
command menu and Discord's command tree are all built from it; `grep` for a
command's name finds its handler here. The games add their own words (`/take`,
`/bid`, `/moves`): those are moves or look-ups of the channel's game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from bot import info, lobby, offers, play
from bot.commands import Command, ParseError
from bot.commands import parse as parse_words
from bot.core import Core, Request
from bot.i18n import Translator, t
from bot.model import Reply
from bot.session import SessionStatus

Handler = Callable[[Core, Request], Awaitable[list[Reply]]]


@dataclass(frozen=True)
class Arg:
    """What may follow a command word; the help and Discord's slash options are built from it.

    `kind`: "text", "move" (a move of the user's game; Discord suggests the legal ones),
    "number" (0..`high`), "user", "game" (a game's name) or "choice" (one of `choices`)."""

    name: str
    kind: str = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    high: int = 0


@dataclass(frozen=True)
class Spec:
    """One command. The dispatcher checks `status` (the channel's session must exist and be in
    it) and `seat` (the user must have a seat) before `run` is called. `moderator`: being a
    moderator changes what the command may do, so adapters that must ask the platform who is
    one (Telegram) ask only then."""

    name: str
    run: Handler
    args: tuple[Arg, ...] = ()
    status: SessionStatus | None = None
    seat: bool = False
    moderator: bool = False


PLAYING, LOBBY = SessionStatus.PLAYING, SessionStatus.LOBBY
GAME = Arg("game", "game")

# Actions of one game: /nim start 3 4 5, /gomoku challenge @bob, /ddz solo hard.
GAME_ACTIONS: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("start", lobby.start),
    Spec("challenge", lobby.challenge, (Arg("user", "user", required=True),)),
    Spec("solo", lobby.solo, (Arg("level"),)),
    Spec("rules", info.rules),
    Spec("leaderboard", info.leaderboard),
)}  # fmt: skip


async def _help(core: Core, r: Request) -> list[Reply]:
    return [Reply(help_text(core, r.tr))]


# Commands about the channel's session or the bot itself, in the order the help lists them.
HOST_COMMANDS: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("join", lobby.join, status=LOBBY),
    Spec("accept", lobby.accept),
    Spec("decline", lobby.decline),
    Spec("go", lobby.go, status=LOBBY, moderator=True),
    Spec("move", play.move, (Arg("move", "move", required=True),), status=PLAYING, seat=True),
    Spec("undo", offers.undo, status=PLAYING, seat=True),
    Spec("draw", offers.draw, status=PLAYING, seat=True),
    Spec("restart", offers.restart, status=PLAYING, seat=True),
    Spec("resign", play.resign, status=PLAYING, seat=True),
    Spec("back", play.back, status=PLAYING, seat=True),
    Spec("cancel", lobby.cancel, moderator=True),
    Spec("rematch", lobby.rematch),
    Spec("board", info.board, (Arg("show"),)),
    Spec("hint", info.hint, status=PLAYING, seat=True),
    Spec("hand", info.hand, status=PLAYING, seat=True),
    Spec("record", info.record),
    Spec("replay", info.replay_at, (Arg("move", "number", high=100_000),)),
    Spec("rules", info.rules, (GAME,)),
    Spec("games", info.games),
    Spec("stats", info.stats, (Arg("user", "user"),)),
    Spec("leaderboard", info.leaderboard, (GAME,)),
    Spec("hints", info.hints, (Arg("state", "choice", required=True, choices=("on", "off")),), moderator=True),
    Spec("help", _help),
)}  # fmt: skip


def parse(text: str, games: dict[str, str], bot_name: str | None = None) -> Command | ParseError | None:
    """Read a command with the table's game actions (see `bot.commands.parse`)."""
    return parse_words(text, games, GAME_ACTIONS, bot_name)


def usage(spec: Spec, tr: Translator) -> str:
    """`/stats [user]`, `/hints on|off`: the command as the help shows it."""
    words = [f"/{spec.name}"]
    for arg in spec.args:
        shown = "|".join(arg.choices) if arg.choices else tr(t(f"commands.arg_{arg.name}"))
        words.append(shown if arg.choices and arg.required else f"<{shown}>" if arg.required else f"[{shown}]")
    return " ".join(words)


def help_text(core: Core, tr: Translator) -> str:
    """The help: the games' actions, then every host command with what it does."""
    lines = [tr(t("commands.help_intro"))]
    any_game = t("commands.any_game")
    for name, spec in GAME_ACTIONS.items():
        about = tr(t(f"commands.game_{name}", game=any_game))
        lines.append(f"  {usage(spec, tr).replace('/', '/<game> ', 1)} — {about}")
    lines += [f"  {usage(spec, tr)} — {tr(t(f'commands.{name}'))}" for name, spec in HOST_COMMANDS.items()]
    lines.append(tr(t("commands.help_timer")))
    lines.append(tr(t("host.games", games=info.game_list(core))))
    return "\n".join(lines)


def known(word: str, games: Collection[str]) -> bool:
    """Whether `word` is a host command or a game's name (not counting the games' own words)."""
    return word in HOST_COMMANDS or word in games


def needs_moderator(command: Command | ParseError | None) -> bool:
    """Whether being a moderator matters for this command (adapters ask the platform only then)."""
    if not isinstance(command, Command) or command.game is not None:
        return False
    spec = HOST_COMMANDS.get(command.name)
    return spec is not None and spec.moderator
