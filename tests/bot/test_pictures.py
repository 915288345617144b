"""Pictures are drawn in worker processes (`bot.pictures`), off the event loop's GIL; a picture
the worker cannot draw still costs no reply: the text board goes instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import render.nim
from bot import replies
from bot.i18n import Translator
from bot.model import EVERYONE
from bot.pictures import Pictures
from engines.nim import Nim
from render.base import RenderContext
from tests.conftest import ALICE, BOB, Clock, close_table, open_table, until

PNG = b"\x89PNG\r\n\x1a\n"


def broken(*args: object) -> bytes:
    raise RuntimeError("this process cannot draw")


async def test_the_board_is_drawn_in_another_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Drawing in this process is broken: a picture still comes, so it was drawn elsewhere.
    monkeypatch.setattr(render.nim, "render", broken)
    pictures = Pictures(1)
    table = await open_table(tmp_path / "g.db", Clock(), pictures=pictures)
    try:
        await until(lambda: not pictures.warming)  # while the worker starts, pictures are drawn here
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        [board] = await table.say(ALICE, "/take 2 1")
        assert board.image is not None and board.image.startswith(PNG), board.text
        assert "●" not in board.text  # the picture, not the text board in its place
        [worker] = pictures.processes()
        assert worker != os.getpid()
    finally:
        await close_table(table)
        pictures.close()


async def test_in_threads_the_same_break_gives_the_text_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The converse of the test above: with no worker process, the broken drawing is the one used.
    monkeypatch.setattr(render.nim, "render", broken)
    table = await open_table(tmp_path / "g.db", Clock())
    try:
        await table.say(ALICE, "/nim start 3 4 5")
        await table.say(BOB, "/join")
        [board] = await table.say(ALICE, "/take 2 1")
        assert board.image is None and " 2 | ●●●○" in board.text, board.text
    finally:
        await close_table(table)


async def test_a_picture_the_worker_cannot_draw_gives_the_text_board(tmp_path: Path) -> None:
    pictures = Pictures(1)
    table = await open_table(tmp_path / "g.db", Clock(), pictures=pictures)
    try:
        nim = Nim()
        view = nim.view(nim.new_state({"heaps": [3, 4, 5], "max": None, "misere": False}, 2, 1), None)
        tr = Translator("en")
        names_it_cannot_draw = RenderContext((None, None), 0, None, tr)  # type: ignore[arg-type]
        reply = await replies.drawn(table.host.core, nim, view, names_it_cannot_draw, tr, "alice's move",
                                    audience=EVERYONE)
        assert reply.image is None
        assert reply.text.startswith("alice's move\n") and " 3 | ●●●●●" in reply.text, reply.text
        good = RenderContext(("alice", "bob"), 0, None, tr)
        assert (await replies.drawn(table.host.core, nim, view, good, tr, "", audience=EVERYONE)).image.startswith(PNG)
    finally:
        await close_table(table)
        pictures.close()


def test_worker_processes_draw_only_with_the_renderers() -> None:
    # A function of the test's own cannot be sent to the workers: it is refused at once, not at the first picture.
    with pytest.raises(ValueError):
        Pictures(1, broken)
