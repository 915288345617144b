"""The ratings' part of the storage contract (`Ratings`), on both databases with the same
expectations: a game rated with its results and exactly as the pure fold rates it, the reads
leaderboards and /stats are made of, link codes single use and guesses throttled, and several
processes on one database rating games one after the other, each game once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import pytest

from bot.rating_model import Entry, Ladder, Played
from bot.session import Change, Result, Seat, Session, SessionStatus
from bot.storage import MIGRATIONS, PLACE, Storage, Throttle, open_storage
from bot.storage.migrations import statements
from tests.conftest import BOTH
from tests.support.postgres import rows

BACKENDS = BOTH
NOW = 1_700_000_000.0
THROTTLE = Throttle(900.0, 2, 3)
CHANGES = ("SELECT session_id, player, game, rating_from, rating_to, at FROM rating_changes"
           " ORDER BY session_id, rating_to, player")


@pytest.fixture
async def store(database: Path | str):
    opened = await open_storage(str(database))
    yield opened
    await opened.close()


async def finished(store: Storage, channel: str, seats: list[tuple[str, int, str | None]], at: float,
                   game: str = "nim", handle: str | None = None) -> int:
    """A game that ended with `seats`: (player, rank, role); its session id. `handle`: the last seat's."""
    session = Session(channel=channel, game=game, status=SessionStatus.PLAYING, options={}, seed=1,
                      seats=[Seat(n, p, p.upper(), handle if n == len(seats) - 1 else None)
                             for n, (p, _, _) in enumerate(seats)], starter=seats[0][0],
                      turn_seconds=60, created_at=at, updated_at=at, state={})
    session = await store.create(session)
    session.status, session.updated_at = SessionStatus.FINISHED, at
    best = min(rank for _, rank, _ in seats)
    outcome = "draw" if all(rank == best for _, rank, _ in seats) else None
    results = [Result(n, p, p.upper(), rank, outcome or ("win" if rank == best else "loss"), None, role)
               for n, (p, rank, role) in enumerate(seats)]
    await store.save(session, Change(results=results))
    return session.id or 0


GAMES = [  # (game, seats): a duel, a draw, a free-for-all, Dou Dizhu with its parts, the same pair again
    ("nim", [("u:a", 1, None), ("u:b", 2, None)]),
    ("nim", [("u:a", 1, None), ("u:b", 1, None)]),
    ("checkers", [("u:c", 1, None), ("u:a", 2, None), ("ai:hard", 3, None)]),
    ("doudizhu", [("u:a", 2, "landlord"), ("u:b", 1, "farmer"), ("ai:easy", 1, "farmer")]),
    ("nim", [("u:b", 1, None), ("u:a", 2, None)]),
]


async def test_each_game_is_rated_with_its_results_exactly_as_the_fold_rates_it(store: Storage) -> None:
    await store.set_setting("c:0", PLACE, "server:1")
    ids = [await finished(store, f"c:{n}", seats, NOW + 60 * n, game) for n, (game, seats) in enumerate(GAMES)]
    fold = Ladder()
    for n, (sid, (game, seats)) in enumerate(zip(ids, GAMES, strict=True)):
        fold.play(Played(sid, game, NOW + 60 * n, tuple(Entry(p, r, role) for p, r, role in seats)))
    for game in ("nim", "checkers", "doudizhu"):
        want = {p: s for (g, p), s in fold.skills.items() if g == game}
        assert await store.skills(game, sorted(want)) == want  # to the last bit: doubles on both
    assert set(await store.skills("doudizhu")) == {"u:a", "u:b", "ai:easy"}  # the parts left out
    assert (await store.skills("doudizhu", ["role:farmer"]))["role:farmer"].mu > 0  # the farmers won
    assert await store.rated_counts() == {"nim": 3, "checkers": 1, "doudizhu": 1}
    assert await store.rate_unrated() == 0
    assert await store.players_at("server:1", "nim") == {"u:a", "u:b"}  # where game 0 was played
    assert await store.players_at("c:1", "nim") == {"u:a", "u:b"} and await store.players_at("c:2", "nim") == set()
    history = await store.rating_history("nim", "u:a", 2)
    assert len(history) == 2 and history[-1] == pytest.approx(fold.skills[("nim", "u:a")].ordinal)
    assert [(r["user_id"], r["result"]) for r in await store.game_results("nim")] == [
        ("u:a", "win"), ("u:b", "loss"), ("u:a", "draw"), ("u:b", "draw"), ("u:b", "win"), ("u:a", "loss")]
    mine = await store.results_with_opponents(["u:a"])
    assert [(r["game"], r["other"]) for r in mine][:4] == [("nim", "u:b"), ("nim", "u:b"), ("checkers", "u:c"),
                                                           ("checkers", "ai:hard")]
    before = await rows(store, CHANGES)
    assert await store.rebuild_ratings() == 5
    assert await rows(store, CHANGES) == before


async def test_a_handle_names_the_account_that_last_sat_down_with_it(store: Storage) -> None:
    await finished(store, "c:1", [("telegram:1", 1, None), ("telegram:2", 2, None)], NOW, handle="Ann")
    await finished(store, "c:2", [("telegram:3", 1, None), ("telegram:4", 2, None)], NOW + 1, handle="ann")
    assert await store.user_by_handle("ANN") == "telegram:4"
    assert await store.user_by_handle("nobody") is None


async def test_link_codes_are_single_use_and_wrong_ones_throttled(store: Storage) -> None:
    await store.issue_code("u:a", "AAAAAA", NOW, NOW + 600)
    assert (await store.redeem_code("u:a", "AAAAAA", NOW, THROTTLE)).owner == "u:a"  # one's own: kept, no guess
    await store.issue_code("u:a", "BBBBBB", NOW, NOW + 600)  # replaces the first
    assert (await store.redeem_code("u:b", "AAAAAA", NOW, THROTTLE)).owner is None  # guess 1 of u:b
    assert (await store.redeem_code("u:b", "BBBBBB", NOW + 601, THROTTLE)).owner is None  # expired: guess 2
    assert (await store.redeem_code("u:b", "BBBBBB", NOW + 1, THROTTLE)).wait == pytest.approx(899)
    assert (await store.redeem_code("u:c", "BBBBBB", NOW + 1, THROTTLE)).owner == "u:a"  # used up now
    assert (await store.redeem_code("u:d", "BBBBBB", NOW + 1, THROTTLE)).owner is None  # everyone's third
    assert (await store.redeem_code("u:e", None, NOW + 2, THROTTLE)).wait > 0  # everyone has waited enough
    assert (await store.redeem_code("u:e", None, NOW + 901, THROTTLE)).wait == 0


async def settle(store: Storage, owner: str = "test") -> int:
    """Every step of the re-rating asked for, here; how many."""
    steps = 0
    while await store.rerate(owner, 60):
        steps += 1
    return steps


async def test_linking_and_unlinking_ask_for_the_games_to_be_rated_again(store: Storage) -> None:
    await finished(store, "c:1", [("u:a", 1, None), ("u:b", 2, None)], NOW)
    await finished(store, "c:2", [("t:a", 1, None), ("u:c", 2, None)], NOW + 60)
    assert await store.link_accounts("u:a", "t:a", "id:1")
    assert await store.identities() == {"u:a": "id:1", "t:a": "id:1"}
    assert await store.rerating() == {"nim"}  # asked for; nothing rated on the command's path
    assert set(await store.skills("nim")) == {"u:a", "t:a", "u:b", "u:c"}  # as before, meanwhile
    assert await settle(store) > 0 and await store.rerating() == set()
    assert set(await store.skills("nim")) == {"id:1", "u:b", "u:c"}  # one player, two wins
    assert not await store.link_accounts("u:c", "t:a", "id:2")  # t:a shares another identity
    assert await store.link_accounts("u:a", "t:a", "id:3")  # the same again: fine
    assert await store.unlink_account("t:a") and await store.identities() == {}  # an identity of one is dissolved
    await settle(store)
    assert set(await store.skills("nim")) == {"u:a", "t:a", "u:b", "u:c"}
    assert not await store.unlink_account("t:a")


async def test_linking_rebuilds_only_the_games_the_linked_accounts_played(store: Storage) -> None:
    await finished(store, "c:1", [("u:a", 1, None), ("u:b", 2, None)], NOW)
    await finished(store, "c:2", [("t:a", 1, None), ("u:c", 2, None)], NOW + 60)
    await finished(store, "c:3", [("u:d", 1, None), ("u:e", 2, None)], NOW + 120, game="gomoku")
    async with store._writing() as tx:  # a mark a rebuild of Gomoku would wipe out
        await tx.run("UPDATE ratings SET mu=99 WHERE game='gomoku' AND player='u:d'")
    assert await store.link_accounts("u:a", "t:a", "id:1")
    await settle(store)
    assert set(await store.skills("nim")) == {"id:1", "u:b", "u:c"}
    assert (await store.skills("gomoku"))["u:d"].mu == 99  # not played by u:a nor t:a: left alone
    assert await store.unlink_account("t:a")
    await settle(store)
    assert set(await store.skills("nim")) == {"u:a", "t:a", "u:b", "u:c"}
    assert (await store.skills("gomoku"))["u:d"].mu == 99
    assert await store.rebuild_ratings() == 3  # every game again
    assert (await store.skills("gomoku"))["u:d"].mu != 99


async def test_processes_finishing_games_at_once_rate_them_one_after_the_other(database: Path | str) -> None:
    """Four processes' worth of stores finish four games of the same pair at the same moment:
    each game is rated from the ratings the one before left (no two from the same ratings),
    and the same pair's repeats count 1, 1/2, 1/3, 1/4."""
    stores = [await open_storage(str(database)) for _ in range(4)]
    try:
        await asyncio.gather(*(finished(s, f"c:{n}", [("u:a", 1, None), ("u:b", 2, None)], NOW)
                               for n, s in enumerate(stores)))
        changes = await rows(stores[0], "SELECT rating_from, rating_to FROM rating_changes WHERE player='u:a'")
        weights = await rows(stores[0], "SELECT weight FROM rated_games")
    finally:
        for s in stores:
            await s.close()
    assert len({c["rating_from"] for c in changes}) == 4  # a chain: each game started where another ended
    assert sorted(w["weight"] for w in weights) == pytest.approx([1 / 4, 1 / 3, 1 / 2, 1])


async def test_link_code_is_taken_by_one_process_only(database: Path | str) -> None:
    stores = [await open_storage(str(database)) for _ in range(4)]
    try:
        await stores[0].issue_code("u:a", "CCCCCC", NOW, NOW + 600)
        taken = await asyncio.gather(*(s.redeem_code(f"u:{n}", "CCCCCC", NOW, THROTTLE) for n, s in enumerate(stores)))
    finally:
        for s in stores:
            await s.close()
    assert sorted(str(t.owner) for t in taken) == ["None", "None", "None", "u:a"]


async def test_wrong_codes_typed_at_once_in_several_processes_are_all_counted(database: Path | str) -> None:
    stores = [await open_storage(str(database)) for _ in range(4)]
    try:
        tried = await asyncio.gather(*(s.redeem_code("u:b", f"WRONG{n}", NOW, THROTTLE) for n, s in enumerate(stores)))
    finally:
        for s in stores:
            await s.close()
    assert sorted(t.wait > 0 for t in tried) == [False, False, True, True]  # two guesses allowed, then a wait


@pytest.mark.backends("sqlite")
async def test_a_file_the_ratings_release_wrote_gains_the_leases_and_keeps_its_ratings(tmp_path: Path) -> None:
    """The ratings shipped as migration 3 on SQLite before the leases: a file at version 3 has
    the ratings' tables, and opening it adds the leases (4, and what came after) and keeps what was rated."""
    path = tmp_path / "from-the-ratings-release.db"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        for migration in MIGRATIONS[:3]:
            for statement in statements(migration.sqlite):
                await db.execute(statement)
        await db.execute("INSERT INTO ratings (game, player, mu, sigma) VALUES ('nim', 'u:a', 30.0, 5.0)")
        await db.execute("PRAGMA user_version=3")
    store = await open_storage(str(path))
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 8
        assert (await store.skills("nim"))["u:a"].mu == 30.0
        await finished(store, "c:1", [("u:a", 1, None), ("u:b", 2, None)], NOW)
        assert (await store.skills("nim"))["u:a"].mu > 30.0 and await store.claim(NOW, "me", 60) == []
    finally:
        await store.close()
