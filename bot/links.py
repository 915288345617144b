"""One person, one identity: `/link` and `/unlink`.

`/link` gives the asker a one-time code, privately (`CODE_SECONDS` to live, single use);
typed as `/link CODE` on the other platform or account, it joins that account to the
asker's identity, and from then on both share ratings, stats and leaderboard place (the
games they played are rated again with the accounts as one player: asked for here, done in
the background, `bot.rating_store.Rerater`). `/unlink` takes the typing account out again. An
identity is an opaque id (`id:<hex>`), so no account's own id stands for a group it may leave.

Guessing is rate limited: a wrong code counts against the account that typed it
(`PER_USER` in `GUESS_WINDOW`) and against everyone (`EVERYONE`), in the store, so a
restart forgets nothing and processes sharing a database count them together. With codes
of 6 letters from 32 (about 10^9) and at most a few dozen wrong guesses a quarter of an
hour across the whole bot, guessing a live code is hopeless.
"""

from __future__ import annotations

import math
import secrets

from bot import rating_store
from bot.core import Core, Request, notice
from bot.model import Private, Reply
from bot.storage import Throttle
from engines.base import Refusal, msg

LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or retyped without doubt
LENGTH = 6
CODE_SECONDS = 600.0
GUESS_WINDOW = 900.0
PER_USER, EVERYONE = 5, 50  # wrong codes allowed per window: from one account, from all
THROTTLE = Throttle(GUESS_WINDOW, PER_USER, EVERYONE)


def new_code() -> str:
    return "".join(secrets.choice(LETTERS) for _ in range(LENGTH))


def read_code(text: str) -> str | None:
    """A typed code as stored (case, spaces and dashes do not matter), or None if it cannot be one."""
    code = "".join(c for c in text.upper() if c not in " -")
    return code if len(code) == LENGTH and all(c in LETTERS for c in code) else None


# --- the commands -----------------------------------------------------------------------
async def link(core: Core, r: Request) -> list[Reply]:
    """`/link`: a code, to the asker only; `/link CODE`: this account joins the code's owner."""
    store, now, me = core.store, core.clock(), r.user.id
    if not r.command.args:
        code = new_code()
        await store.issue_code(me, code, now, now + CODE_SECONDS)
        text = r.reader(msg("ratings.link_code", code=code, minutes=int(CODE_SECONDS // 60)))
        return [Reply(text, names={me: r.user.name}, language=r.reader.language, audience=Private(me))]
    redeemed = await store.redeem_code(me, read_code("".join(r.command.args)), now, THROTTLE)
    if redeemed.wait > 0:
        raise Refusal("ratings.link_throttled", minutes=max(1, math.ceil(redeemed.wait / 60)))
    if redeemed.owner is None:
        raise Refusal("ratings.link_bad_code")
    if redeemed.owner == me:
        raise Refusal("ratings.link_own_code")
    if not await store.link_accounts(redeemed.owner, me, f"id:{secrets.token_hex(8)}"):  # the rating asked for
        raise Refusal("ratings.link_unlink_first")
    core.rerate()
    accounts = await rating_store.accounts_of(store, await rating_store.identity_of(store, me))
    return [notice(r.user, r.reader, msg("ratings.linked", count=len(accounts)))]


async def unlink(core: Core, r: Request) -> list[Reply]:
    """`/unlink`: this account goes its own way again (its own games, its own rating)."""
    if not await core.store.unlink_account(r.user.id):  # and the rating again asked for
        raise Refusal("ratings.not_linked")
    core.rerate()
    return [notice(r.user, r.reader, msg("ratings.unlinked"))]
