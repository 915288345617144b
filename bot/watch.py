"""`/<game> watch [level ...] [options] [every=N]`: the bot plays itself in the channel.

Every seat is a bot (the levels in seat order, repeated: `/gomoku watch easy hard`, `/checkers
watch 3 easy normal hard`; none: the game's default level), one move every `every` seconds
(`DEFAULT_EVERY`) on the host's clock: a watched game's deadline is when its next bot moves
(`play.set_deadline`, `autoplay`). Anyone present may `/cancel` it. It is recorded and rated
like any other game, so the AI levels meet each other on the ladder.
"""

from __future__ import annotations

import re

from bot import lobby, play
from bot.core import Core, Request, title
from bot.model import Reply
from engines.base import Refusal, msg

EVERY = re.compile(r"every=([0-9]{1,4})s?")
DEFAULT_EVERY, EVERY_RANGE = 3, (1, 120)


async def watch(core: Core, r: Request) -> list[Reply]:
    game, args, _ = lobby._setup(core, r)
    every, levels, options = DEFAULT_EVERY, [], []
    for arg in args:
        if m := EVERY.fullmatch(arg.lower()):
            every = int(m[1])
            if not EVERY_RANGE[0] <= every <= EVERY_RANGE[1]:
                raise Refusal("ratings.watch_every", low=EVERY_RANGE[0], high=EVERY_RANGE[1])
        elif arg.lower() in game.levels:
            levels.append(arg.lower())
        else:
            options.append(arg)
    setup = game.parse_options(options)
    if len(levels) > setup.seats:
        raise Refusal("ratings.watch_too_many_levels", count=setup.seats)
    levels = levels or [game.default_level]
    seats = [core.ai_seat(i, levels[i % len(levels)], r.tr) for i in range(setup.seats)]
    session = await core.create(r, game, setup.options, seats, every)
    first = msg("ratings.watch_begins", game=title(game), seconds=every)
    return await play.begin(core, session, r.tr, first)
