"""The slash commands: one group per game, the session commands, and the games' own words.

Each command only turns its options back into the text a user would have typed
("/nim start 3 4 5 max=3", "/gomoku challenge <@123>") and hands it to `Run`;
the host's one parser reads it. Everything here is built from declarations: the
host's command table (`bot.command_table`) and each game's `options`, so a new game or
command needs nothing in this file.

Every name, description and choice carries what it stands for (a catalog message, a
command, a game), so `CatalogTranslator`, set on the tree, gives Discord each of them in
every language there is a catalog for: a Chinese client lists /认输 "认输，放弃这局"
where an English one lists /resign. Discord still sends the command's own name.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot import command_table
from bot.core import title_word
from bot.i18n import Translator, language_of, translator
from engines.base import Game, Msg, msg

# Run(interaction, text, mentions): answer the interaction with what the host says to `text`.
Run = Callable[[discord.Interaction, str, dict[str, discord.abc.User]], Awaitable[None]]
Suggest = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]

TIMERS = ("30s", "1m", "2m", "5m", "15m", "1h", "24h")
MAX_CHOICES = 25


@dataclass(frozen=True)
class Option:
    """One slash-command option and how its value reads as words of the typed command."""

    name: str
    kind: Any  # str, int, bool, discord.User or an app_commands.Range
    about: Msg
    required: bool = False
    choices: tuple[tuple[Msg | str, str | int], ...] = ()
    suggest: Suggest | None = None
    words: Callable[[Any], str] = str  # the value as the host reads it ("" adds nothing)


def game_options(game: Game[Any, Any]) -> list[Option]:
    """The options of `/<game> start|challenge|solo` beyond the people, level and timer, as the
    game declares them (`Game.options`)."""
    found = []
    for o in game.options:
        about = msg(f"{game.name}.option_{o.name}")

        def named(value: Any, name: str = o.name) -> str:
            return f"{name}={value}"

        def flag(value: Any, name: str = o.name) -> str:
            return f"{name}={'on' if value else 'off'}"

        if o.flag:
            found.append(Option(o.name, bool, about, words=flag))
        elif o.many:
            found.append(Option(o.name, str, about))  # typed as it is: "3 4 5"
        elif o.choices:
            labels = tuple((msg(f"{game.name}.option_{o.name}_{c}"), c) for c in o.choices)
            found.append(Option(o.name, int if o.numeric else str, about, choices=labels, words=named))
        else:
            found.append(Option(o.name, app_commands.Range[int, o.low, o.high], about, words=named))
    return found


class Commands:
    """Builds the command tree for the host's games; `run` answers every command."""

    def __init__(self, tree: app_commands.CommandTree, games: dict[str, Game[Any, Any]], tr: Translator, run: Run,
                 suggest_moves: Callable[[discord.Interaction, str, str],
                                         Awaitable[list[tuple[str, str]]]]) -> None:
        self.tree = tree
        self.games = games
        self.tr = tr
        self.run = run
        self.suggest_moves = suggest_moves

    def build(self) -> None:
        for game in self.games.values():
            self.tree.add_command(self._game_group(game))
        for command in self._host_commands():
            self.tree.add_command(command)
        for command in self._game_words():
            self.tree.add_command(command)

    # --- /<game> start|challenge|solo|rules|leaderboard -----------------------------------
    def _game_group(self, game: Game[Any, Any]) -> app_commands.Group:
        title = msg(f"{game.name}.title")
        group = app_commands.Group(name=locale_str(game.name, game=game),
                                   description=self._say(msg("commands.game", game=title)))
        timer = Option("timer", str, msg("commands.game_timer"), suggest=self._suggest_timer,
                       words=lambda v: f"timer={v.strip()}" if v.strip() else "")
        extra = game_options(game)
        people = [Option("user", discord.User, msg("commands.game_user"), required=True)]
        more = range(2, max(game.seat_counts))
        people += [Option(f"user{i}", discord.User, msg("commands.game_more_user")) for i in more]
        level = Option("level", str, msg("commands.game_level"), choices=tuple((lv, lv) for lv in game.levels))
        levels = [level] + [Option(f"level{i}", str, msg("commands.game_more_level"), choices=level.choices)
                            for i in range(2, max(game.seat_counts) + 1)]
        every = Option("every", app_commands.Range[int, 1, 120], msg("commands.game_every"),
                       words=lambda v: f"every={v}")
        scope = self._option("leaderboard", command_table.SCOPE)
        rounds = Option("rounds", app_commands.Range[int, 1, 20], msg("commands.game_rounds"),
                        words=lambda v: f"rounds={v}")
        event = [self._option("tournament", command_table.GAME_ACTIONS["tournament"].args[0]), rounds]
        # What each action of the table takes beyond its own words.
        takes = {"start": [*extra, timer], "challenge": [*people, *extra, timer], "solo": [level, *extra, timer],
                 "watch": [*levels, *extra, every], "leaderboard": [scope],
                 "tournament": [*event, *extra, timer]}
        for action in command_table.GAME_ACTIONS:
            about = msg(f"commands.game_{action}", game=title)
            group.add_command(self._command(action, about, takes.get(action, []), (game.name, action), parent=group))
        return group

    # --- the session's and the bot's commands -------------------------------------------
    def _host_commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [self._command(name, msg(f"commands.{name}"), [self._option(name, arg) for arg in spec.args], (name,))
                for name, spec in command_table.HOST_COMMANDS.items()]

    def _option(self, command: str, arg: command_table.Arg) -> Option:
        """A slash option for one argument of a host command."""
        about = msg(f"commands.{command}_{arg.name}")
        if arg.kind == "move":
            return Option(arg.name, str, about, required=arg.required, suggest=self._moves(""))
        if arg.kind == "number":
            return Option(arg.name, app_commands.Range[int, 0, arg.high], about, required=arg.required)
        if arg.kind == "user":
            return Option(arg.name, discord.User, about, required=arg.required)
        if arg.kind == "game":
            choices = tuple((msg(f"{name}.title"), name) for name in self.games)
            choices += tuple((msg(f"commands.{command}_{arg.name}_{c}"), c) for c in arg.choices)
            return Option(arg.name, str, about, required=arg.required, choices=choices)
        if arg.kind == "choice":
            labels = tuple((msg(f"commands.{command}_{arg.name}_{c}"), c) for c in arg.choices)
            return Option(arg.name, str, about, required=arg.required, choices=labels)
        return Option(arg.name, str, about, required=arg.required)

    def _game_words(self) -> list[app_commands.Command[Any, ..., Any]]:
        """The words a game adds (/take, /bid, /pass, /moves): one command each, shared by the games
        that use the same word."""
        taken = set(command_table.HOST_COMMANDS) | set(self.games)
        words: dict[str, tuple[list[Msg], str | None]] = {}  # word -> (game titles, move prefix or None)
        for game in self.games.values():
            title = msg(f"{game.name}.title")
            for word, prefix in game.move_words.items():
                if word not in taken:
                    titles, _ = words.setdefault(word, ([], prefix))
                    titles.append(title)
            for word in game.queries:
                if word not in taken:
                    words.setdefault(word, ([], None))[0].append(title)
        commands = []
        for word, (titles, move_prefix) in words.items():
            key = "commands.move_word" if move_prefix is not None else "commands.query_word"
            about = msg(key, word=word, games=titles)
            suggest = self._moves(move_prefix) if move_prefix is not None else None
            option = Option("args", str, msg("commands.word_args", word=word), suggest=suggest)
            commands.append(self._command(word, about, [option], (word,)))
        return commands

    # --- making one command ------------------------------------------------------------
    def _command(self, name: str, about: Msg, options: Sequence[Option], path: tuple[str, ...],
                 parent: app_commands.Group | None = None) -> app_commands.Command[Any, ..., Any]:
        run = self.run

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            words, mentions = list(path), {}
            for option in options:
                value = values.get(option.name)
                if value is None:
                    continue
                if isinstance(value, discord.abc.User):
                    token = f"<@{value.id}>"
                    mentions[token] = value
                    words.append(token)
                elif word := option.words(value).strip():
                    words.append(word)
            await run(interaction, "/" + " ".join(words), mentions)

        parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        annotation=discord.Interaction)]
        ordered = [o for o in options if o.required] + [o for o in options if not o.required]
        for option in ordered:
            default = inspect.Parameter.empty if option.required else None
            kind = option.kind if option.required else Optional[option.kind]  # noqa: UP045 (Range[...] has no |)
            parameters.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                                annotation=kind))
        callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        callback.__name__ = callback.__qualname__ = f"{'_'.join(path)}"
        # The decorators below only record what discord.py reads when it builds the command.
        if options:
            app_commands.describe(**{o.name: self._say(o.about) for o in options})(callback)
        choices = {o.name: [app_commands.Choice(name=self._say(label), value=value)
                            for label, value in o.choices[:MAX_CHOICES]] for o in options if o.choices}
        if choices:
            app_commands.choices(**choices)(callback)
        suggestions = {o.name: o.suggest for o in options if o.suggest is not None}
        if suggestions:
            app_commands.autocomplete(**suggestions)(callback)  # type: ignore[arg-type]  # the stub wants a method
        return app_commands.Command(name=locale_str(name, command=name), description=self._say(about),
                                    callback=callback, parent=parent)

    def _say(self, message: Msg | str) -> locale_str:
        """`message` in the default language, marked for the translator (a level name is notation)."""
        text = self.tr(message)[:100]
        return locale_str(text, msg=message) if isinstance(message, Msg) else locale_str(text)

    # --- suggestions --------------------------------------------------------------------
    def _moves(self, prefix: str) -> Suggest:
        async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            moves = await self.suggest_moves(interaction, prefix, current)
            return [app_commands.Choice(name=name[:100], value=value[:100]) for name, value in moves[:MAX_CHOICES]]

        return suggest

    async def _suggest_timer(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        current = current.strip().lower()
        found = [v for v in TIMERS if v.startswith(current)] or ([current] if current else [])
        return [app_commands.Choice(name=v, value=v) for v in found]


class CatalogTranslator(app_commands.Translator):
    """The tree's names, descriptions and choices in each of Discord's locales that one of the
    catalogs speaks (`language_of`); None, Discord's default, for the host's own language."""

    def __init__(self, default: str, name_in: Callable[[str, str], str | None] = command_table.name_in) -> None:
        self.default = default
        self.name_in = name_in  # a command's name in a language (the host's `Vocabulary` knows the games' words)

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(locale.value)
        if language is None or language == self.default:
            return None
        extras = string.extras
        if "msg" in extras:
            return translator(language)(extras["msg"])[:100]
        if "command" in extras:
            return self.name_in(language, extras["command"])
        if "game" in extras:
            return title_word(extras["game"], language)
        return None
