"""One person, one identity: `/link` and `/unlink`.

`/link` gives the asker a one-time code, privately (`CODE_SECONDS` to live, single use);
typed as `/link CODE` on the other platform or account, it joins that account to the
asker's identity, and from then on both share ratings, stats and leaderboard place (the
ratings are rebuilt from the results with the accounts as one player). `/unlink` takes the
typing account out again. An identity is an opaque id (`id:<hex>`), so no account's own id
stands for a group it may leave.

Guessing is rate limited: a wrong code counts against the account that typed it
(`PER_USER` in `GUESS_WINDOW`) and against everyone (`EVERYONE`), in the store, so a
restart forgets nothing. With codes of 6 letters from 32 (about 10^9) and at most a few
dozen wrong guesses a quarter of an hour across the whole bot, guessing a live code is
hopeless.
"""

from __future__ import annotations

import math
import secrets

from bot import ladder
from bot.core import Core, Request, private
from bot.i18n import t
from bot.model import Reply
from bot.store import Store
from engines.base import Refusal

LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or retyped without doubt
LENGTH = 6
CODE_SECONDS = 600.0
GUESS_WINDOW = 900.0
PER_USER, EVERYONE = 5, 50  # wrong codes allowed per window: from one account, from all
EVERYONE_KEY = "*"


def new_code() -> str:
    return "".join(secrets.choice(LETTERS) for _ in range(LENGTH))


def read_code(text: str) -> str | None:
    """A typed code as stored (case, spaces and dashes do not matter), or None if it cannot be one."""
    code = "".join(c for c in text.upper() if c not in " -")
    return code if len(code) == LENGTH and all(c in LETTERS for c in code) else None


async def issue(store: Store, user_id: str, now: float) -> str:
    """A fresh code for `user_id` (replacing any earlier one of theirs)."""
    code = new_code()
    async with store._transaction():
        await store.db.execute("DELETE FROM link_codes WHERE user_id=? OR expires<=?", (user_id, now))
        await store.db.execute("INSERT INTO link_codes (code, user_id, expires) VALUES (?, ?, ?)",
                               (code, user_id, now + CODE_SECONDS))  # fmt: skip
    return code


async def wait_left(store: Store, user_id: str, now: float) -> float:
    """Seconds until `user_id` may try a code again (0: now)."""
    since = now - GUESS_WINDOW
    async with store._lock:
        rows = await store.db.execute_fetchall(
            "SELECT who, COUNT(*) AS n, MIN(at) AS first FROM link_guesses WHERE at>? AND who IN (?, ?) GROUP BY who",
            (since, user_id, EVERYONE_KEY),
        )
    wait = 0.0
    for row in rows:
        limit = EVERYONE if row["who"] == EVERYONE_KEY else PER_USER
        if row["n"] >= limit:
            wait = max(wait, row["first"] + GUESS_WINDOW - now)
    return wait


async def redeem(store: Store, user_id: str, code: str | None, now: float) -> str | None:
    """The account whose code `code` is, used up; None (and the guess counted) if there is no
    such live code. Codes someone else issued only: one's own code does not count as a guess."""
    async with store._transaction():
        rows = await store.db.execute_fetchall(
            "SELECT user_id FROM link_codes WHERE code=? AND expires>?", (code or "", now)
        )
        if rows and rows[0]["user_id"] != user_id:
            await store.db.execute("DELETE FROM link_codes WHERE code=?", (code,))
            return rows[0]["user_id"]
        if not rows:
            await store.db.execute("DELETE FROM link_guesses WHERE at<=?", (now - GUESS_WINDOW,))
            await store.db.executemany("INSERT INTO link_guesses (who, at) VALUES (?, ?)",
                                       [(user_id, now), (EVERYONE_KEY, now)])  # fmt: skip
            return None
    return user_id


async def join(store: Store, owner: str, joiner: str) -> bool:
    """`joiner` joins `owner`'s identity; False if it already shares another identity."""
    async with store._transaction():
        rows = await store.db.execute_fetchall(
            "SELECT user_id, identity FROM links WHERE user_id IN (?, ?)", (owner, joiner)
        )
        found = {r["user_id"]: r["identity"] for r in rows}
        if joiner in found:
            return found[joiner] == found.get(owner)
        identity = found.get(owner) or f"id:{secrets.token_hex(8)}"
        await store.db.executemany(
            "INSERT INTO links (user_id, identity) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
            [(owner, identity), (joiner, identity)],
        )
    return True


async def leave(store: Store, user_id: str) -> bool:
    """`user_id` leaves its identity (an identity of one account is dissolved); False if unlinked."""
    async with store._transaction():
        rows = await store.db.execute_fetchall("SELECT identity FROM links WHERE user_id=?", (user_id,))
        if not rows:
            return False
        identity = rows[0]["identity"]
        await store.db.execute("DELETE FROM links WHERE user_id=?", (user_id,))
        left = await store.db.execute_fetchall("SELECT user_id FROM links WHERE identity=?", (identity,))
        if len(left) == 1:
            await store.db.execute("DELETE FROM links WHERE identity=?", (identity,))
    return True


# --- the commands -----------------------------------------------------------------------
async def link(core: Core, r: Request) -> list[Reply]:
    """`/link`: a code, to the asker only; `/link CODE`: this account joins the code's owner."""
    store, now, me = core.store, core.clock(), r.user.id
    if not r.command.args:
        code = await issue(store, me, now)
        text = r.reader(t("ratings.link_code", code=code, minutes=int(CODE_SECONDS // 60)))
        return [Reply(text, to=me, ephemeral=True, names={me: r.user.name}, language=r.reader.language)]
    wait = await wait_left(store, me, now)
    if wait > 0:
        raise Refusal("ratings.link_throttled", minutes=max(1, math.ceil(wait / 60)))
    owner = await redeem(store, me, read_code("".join(r.command.args)), now)
    if owner is None:
        raise Refusal("ratings.link_bad_code")
    if owner == me:
        raise Refusal("ratings.link_own_code")
    if not await join(store, owner, me):
        raise Refusal("ratings.link_unlink_first")
    await ladder.rebuild(store)
    accounts = await ladder.accounts_of(store, await ladder.identity_of(store, me))
    return [private(r.reader, t("ratings.linked", count=len(accounts)))]


async def unlink(core: Core, r: Request) -> list[Reply]:
    """`/unlink`: this account goes its own way again (its own games, its own rating)."""
    if not await leave(core.store, r.user.id):
        raise Refusal("ratings.not_linked")
    await ladder.rebuild(core.store)
    return [private(r.reader, t("ratings.unlinked"))]
