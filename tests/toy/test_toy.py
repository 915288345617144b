"""The fifth game, added the way the README says (engine, renderer, catalogs, one registry line),
played to the end on every platform: nothing in the host or the adapters knows it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

import engines
from bot.adapters.console import Console
from tests.conftest import ALICE, BOB, Clock, close_table, open_table
from tests.console.test_console import lines
from tests.discord.conftest import board_saying, run, start_bot
from tests.discord.fake import ALICE as D_ALICE
from tests.discord.fake import BOB as D_BOB
from tests.discord.fake import FakeDiscord
from tests.telegram.conftest import GROUP, make_world
from tests.toy import NAME, install, uninstall


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    install()
    yield
    uninstall()


def test_the_registry_and_the_renderer_know_it() -> None:
    assert NAME in engines.all_games()


def picture_ok(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.width == 800 and len(image.convert("L").getcolors(1 << 16) or ()) > 2
    return image


async def test_console_two_people_play_it_to_a_win(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "c.db", Clock())
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)
    try:
        await console.run(lines(
            table.host, "/tictactoe start first=o", "/as bob", "join", "b2", "/as alice", "a1", "/as bob", "a2",
            "/as alice", "c3", "/as bob", "c2", "/help", "/rules tictactoe",
        ))
    finally:
        await close_table(table)
    text = "\n".join(out)
    assert "Tic-tac-toe begins: alice vs bob." in text
    assert "🏆 bob wins: three in a row." in text
    assert "/tictactoe Tic-tac-toe" in text  # /help lists it among the games
    assert "Squares are named a1 (bottom left) to c3 (top right)" in text
    picture_ok((sorted((tmp_path / "pictures").glob("*.png"))[-1]).read_bytes())


async def test_its_own_word_is_read_in_both_languages_from_its_catalog(tmp_path: Path) -> None:
    """/mark is the game's (`move_words`), 画 its Chinese word (`word_mark` in its catalog): the host lists neither."""
    table = await open_table(tmp_path / "w.db", Clock())
    try:
        await table.say(ALICE, "/tictactoe start")
        await table.say(BOB, "/join")
        await table.say(ALICE, "/画 b2")
        await table.say(BOB, "/mark a1")
        session = await table.session()
        assert [m.move for m in await table.store.moves(session.id)] == ["b2", "a1"]
    finally:
        await close_table(table)


async def test_discord_its_slash_commands_and_a_game_against_the_bot(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    bot = await start_bot(fake, tmp_path / "d.db")
    try:
        commands = {c["name"]: c for c in next(iter(fake.commands.values()))}
        assert commands["mark"]["name_localizations"]["zh-CN"] == "画"
        channel = next(iter(fake.channels))
        await run(fake, D_ALICE, "tictactoe solo", channel, level="easy", first="x")
        await board_saying(fake, channel, "Alice, your move.")
        for square in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"):
            session = await bot.store.active(f"discord:{channel}")
            if session is None:
                break
            if square in (await bot.host.legal_moves(f"discord:{channel}", f"discord:{D_ALICE.id}")):
                await run(fake, D_ALICE, "move", channel, move=square)
                await bot.host.idle()
        finished = await bot.store.latest(f"discord:{channel}")
        assert finished.status == "finished" and finished.game == NAME
        picture_ok(fake.channel(channel)[-1].png)
        await run(fake, D_BOB, "tictactoe rules", channel)
    finally:
        await bot.stop()
        await fake.close()


async def test_telegram_a_challenge_played_to_a_draw(tmp_path: Path) -> None:
    world = await make_world(tmp_path, Clock())
    api = world.api
    try:
        await api.say(world.alice, GROUP, "/tictactoe challenge @bob")
        await api.wait(lambda: api.to_chat(GROUP))
        await api.say(world.bob, GROUP, "/accept")
        await api.wait(lambda: api.of("sendPhoto", chat_id=GROUP))
        # X: b2 c3 a2 b3 c1, O: a1 a3 c2 b1: nobody has three in a row.
        moves = [("alice", "b2"), ("bob", "a1"), ("alice", "c3"), ("bob", "a3"), ("alice", "a2"), ("bob", "c2"),
                 ("alice", "b3"), ("bob", "b1"), ("alice", "c1")]
        for played, (who, square) in enumerate(moves, 1):
            await api.say(getattr(world, who), GROUP, f"/move {square}")
            # Each move edits the table message in place.
            await api.wait(lambda n=played: len(api.of("editMessageMedia", chat_id=GROUP)) >= n)
        done = await world.table.store.latest(f"telegram:{GROUP}")
        assert done.status == "finished" and done.outcome.draw
        last = api.of("editMessageMedia", chat_id=GROUP)[-1]
        assert "Draw: the grid is full." in last.text
        picture_ok(last.photo)
    finally:
        await world.stop()
