"""Linking accounts rates their games again off the command's path (`bot.storage.rebuilt`), on
both databases: the command writes the links and asks; background steps, claimed with a lease,
rate the games in chunks while people see the ratings from before (said to be updated), and
the result is what a rebuild from scratch gives, to the last bit, however the steps, the games
ending meanwhile, a second link, several processes or one dying on the way interleave."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bot import rating_model
from bot.rating_model import Entry, Played
from bot.storage import Storage, open_storage, rebuilt
from bot.storage.postgres import PostgresStorage
from tests.bot.test_ratings_storage import finished
from tests.bot.test_standings import nim_win, written
from tests.conftest import ALICE, BOB, BOTH, CAROL, Table
from tests.support.postgres import database_clock, rows

BACKENDS = BOTH
NOW = 1_700_000_000.0
PEOPLE = ["u:a", "t:a", "u:b", "u:c", "ai:easy"]


@pytest.fixture
async def store(database: Path | str):
    opened = await open_storage(str(database))
    yield opened
    await opened.close()


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rebuilt, "CHUNK", 3)  # a build of a few games takes several steps
    monkeypatch.setattr(PostgresStorage, "_chunks", 1)  # on both databases alike
    monkeypatch.setattr(rebuilt, "SWEEP", 4)


class History:
    """Games ending one a minute, between the `PEOPLE` in turn (Nim) and two others (Gomoku)."""

    def __init__(self, store: Storage) -> None:
        self.store, self.n = store, 0

    async def play(self, count: int) -> None:
        for _ in range(count):
            first, second = PEOPLE[self.n % 5], PEOPLE[(self.n * 2 + 1) % 5]
            if first == second:
                second = "u:c" if first != "u:c" else "u:b"
            ranks = (1, 1) if self.n % 7 == 3 else (1, 2) if self.n % 3 else (2, 1)  # wins, losses and draws
            await finished(self.store, f"c:{self.n % 4}", [(first, ranks[0], None), (second, ranks[1], None)],
                           NOW + 60 * self.n)
            if self.n % 4 == 0:
                await finished(self.store, "c:g", [("u:d", 1, None), ("u:e", 2, None)], NOW + 60 * self.n + 1,
                               game="gomoku")
            self.n += 1


async def settle(store: Storage, owner: str = "test", lease: float = 60) -> int:
    steps = 0
    while await store.rerate(owner, lease):
        steps += 1
    return steps


async def shown(store: Storage) -> dict[str, Any]:
    """What people see of the ratings: every current epoch's rows (the epoch's number left out)."""
    current = ("COALESCE((SELECT e.current FROM rating_epochs e WHERE e.game=t.game), 0)")
    return {
        "ratings": await rows(store, f"SELECT game, player, mu, sigma FROM ratings t WHERE epoch={current}"
                                     " ORDER BY game, player"),
        "games": await rows(store, f"SELECT session_id, game, players, place, weight, at FROM rated_games t"
                                   f" WHERE epoch={current} ORDER BY session_id"),
        "changes": await rows(store, f"SELECT session_id, player, rating_from, rating_to FROM rating_changes t"
                                     f" WHERE epoch={current} ORDER BY session_id, player"),
    }


async def replayed(store: Storage) -> dict[tuple[str, str], rating_model.Skill]:
    """The pure fold of every result, the accounts as linked now, in the order games ended."""
    links = await store.identities()
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in await rows(store, "SELECT * FROM results ORDER BY at, session_id, seat"):
        seats[row["session_id"]].append(row)
    ladder = rating_model.Ladder()
    for sid, found in seats.items():
        entries = tuple(Entry(links.get(r["user_id"], r["user_id"]), r["rank"], r["role"]) for r in found)
        ladder.play(Played(sid, found[0]["game"], found[0]["at"], entries))
    return ladder.skills


async def epochs(store: Storage) -> set[tuple[str, int]]:
    found = set()
    for table in ("ratings", "rated_games", "rating_changes"):
        found |= {(r["game"], r["epoch"]) for r in await rows(store, f"SELECT DISTINCT game, epoch FROM {table}")}
    return found


async def test_a_link_in_the_middle_of_history_gives_what_a_rebuild_from_scratch_gives(store: Storage) -> None:
    history = History(store)
    await history.play(10)
    counted = await rows(store, "SELECT COUNT(*) AS n FROM rated_games")
    assert await store.link_accounts("u:a", "t:a", "id:1")
    assert await rows(store, "SELECT COUNT(*) AS n FROM rated_games") == counted  # nothing rated on its path
    assert await store.rerating() == {"nim"}  # Gomoku: neither account played it
    assert await store.rerate("bg", 60) and await store.rerate("bg", 60)  # two chunks of three games
    await history.play(4)  # games end meanwhile: rated as usual (u:a and t:a as one player already)
    assert await store.rerating() == {"nim"}
    await settle(store, "bg")
    assert await store.rerating() == set() and await epochs(store) == {("nim", 1), ("gomoku", 0)}  # old rows gone
    await history.play(3)  # rated in the new epoch, from the ratings it left
    assert await store.unlink_account("t:a")  # and apart again, in the middle of it all
    await store.rerate("bg", 60)
    await history.play(2)
    await settle(store, "bg")
    after = await shown(store)
    fold = await replayed(store)
    for game in ("nim", "gomoku"):
        want = {p: s for (g, p), s in fold.items() if g == game}
        assert await store.skills(game, sorted(want)) == want  # to the last bit
    assert await store.rebuild_ratings() == 19 + 5
    assert await shown(store) == after  # a rebuild from scratch: the same numbers, the same history
    assert await epochs(store) == {("nim", 3), ("gomoku", 1)}


async def test_a_link_while_the_games_are_rated_again_starts_them_over(store: Storage) -> None:
    history = History(store)
    await history.play(12)
    assert await store.link_accounts("u:a", "t:a", "id:1")
    assert await store.rerate("bg", 60) and await store.rerate("bg", 60)
    assert await store.link_accounts("u:a", "u:b", "id:2")  # u:b joins: the build so far is for other links
    await settle(store, "bg")
    assert await epochs(store) == {("nim", 2), ("gomoku", 0)}  # the abandoned epoch swept too
    assert set(await store.skills("nim")) == {"id:1", "u:c", "ai:easy"}
    after = await shown(store)
    await store.rebuild_ratings()
    assert await shown(store) == after


async def test_a_chunk_that_lost_its_links_writes_nothing(store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link that comes between a chunk's read and its write: the write finds the build asked
    again and leaves it (its games were rated for the links of before)."""
    history = History(store)
    await history.play(9)
    assert await store.link_accounts("u:a", "t:a", "id:1")
    read = store._read

    async def linked_meanwhile(build):  # type: ignore[no-untyped-def]
        found = await read(build)
        monkeypatch.setattr(store, "_read", read)
        assert await store.unlink_account("t:a")
        return found

    monkeypatch.setattr(store, "_read", linked_meanwhile)
    assert await store.rerate("bg", 60)
    assert await rows(store, "SELECT COUNT(*) AS n FROM rated_games WHERE epoch=1") == [{"n": 0}]
    await settle(store, "bg")
    after = await shown(store)
    await store.rebuild_ratings()
    assert await shown(store) == after


async def test_processes_share_the_work_and_one_that_dies_is_taken_over(database: Path | str) -> None:
    stores = [await open_storage(str(database)) for _ in range(3)]
    try:
        history = History(stores[0])
        await history.play(15)
        assert await stores[0].link_accounts("u:a", "t:a", "id:1")
        assert await stores[0].rerate("dies", 0.5)  # one chunk, then the process is gone
        assert not await stores[1].rerate("lives", 60)  # held: nothing for another process now
        held = (await rows(stores[0], "SELECT lease_until FROM rating_epochs WHERE game='nim'"))[0]["lease_until"]
        async with asyncio.timeout(30):
            while await database_clock(stores[0]) <= held:
                await asyncio.sleep(0.05)
        await asyncio.gather(*(settle(s, f"p{n}") for n, s in enumerate(stores[1:])))  # two at once
        assert await stores[0].rerating() == set()
        after = await shown(stores[0])
        await stores[2].rebuild_ratings()
        assert await shown(stores[0]) == after
    finally:
        for s in stores:
            await s.close()


async def test_people_see_the_ratings_from_before_said_to_be_updated_meanwhile(table: Table) -> None:
    await nim_win(table, ALICE, BOB)
    table.clock.advance(100)
    await nim_win(table, ALICE, CAROL)
    table.clock.advance(100)
    await nim_win(table, BOB, CAROL)
    await table.host.rerater.stop()  # the background work held back, to look meanwhile
    assert await table.store.link_accounts(ALICE.id, BOB.id, "id:1")
    board = written(await table.say(CAROL, "/leaderboard nim"))
    assert "being recalculated" in board  # and as before: each account on its own, with its own games
    assert "Alice — " in board and "· 2 games · 100% won" in next(x for x in board.splitlines() if "Alice" in x)
    assert "being recalculated" in written(await table.say(ALICE, "/stats"))
    assert "console:" not in board
    table.host.rerater.start()
    await table.host.idle()
    board = written(await table.say(CAROL, "/leaderboard nim"))
    assert "being recalculated" not in board and "3 games · 100% won" in board  # one player now
    assert "being recalculated" not in written(await table.say(ALICE, "/stats"))
