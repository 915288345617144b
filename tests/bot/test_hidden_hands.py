"""Hidden cards never reach the channel: many random Dou Dizhu games through the host."""

from __future__ import annotations

import json
import random
from pathlib import Path

import engines
from bot.ai import AIRunner
from bot.host import Host
from bot.i18n import Translator
from bot.model import Event, Reply
from bot.storage.sqlite import SQLiteStorage as Store
from render.base import RenderContext
from tests.conftest import ALICE, BOB, CAROL, Clock

PEOPLE = (ALICE, BOB, CAROL)


def draw_as_data(game: str, view, ctx: RenderContext) -> bytes:
    """Instead of a picture, the data the picture would be drawn from, to check what it shows."""
    return json.dumps({"view": view, "viewer": ctx.viewer}).encode()


async def test_no_channel_reply_ever_carries_a_players_cards(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "h.db"))
    host = Host(store, AIRunner(0), clock=Clock(), draw=draw_as_data)
    game = engines.get("doudizhu")
    rng = random.Random(11)
    channel_replies = private_replies = 0

    def check(replies: list[Reply], hands: dict[str, str]) -> None:
        nonlocal channel_replies, private_replies
        for reply in replies:
            shown = json.loads(reply.image) if reply.image else None
            words = reply.text + "\n" + (reply.text_board or "") + " ".join(b.label + b.command for b in reply.buttons)
            if not reply.private:
                channel_replies += 1
                assert shown is None or (shown["viewer"] is None and "hand" not in shown["view"])
                assert "hand:" not in words and not any(hand in words for hand in hands.values())
            else:
                private_replies += 1
                seat = PEOPLE.index(next(p for p in PEOPLE if p.id == reply.reader))
                if reply.session is not None:  # a hand (hints and refusals are private too: text only)
                    assert shown is not None and shown["viewer"] == seat and shown["view"]["seat"] == seat
                assert not any(hand in words for p, hand in hands.items() if p != reply.reader)

    try:
        for number in range(12):
            channel = f"console:ddz{number}"
            replies = await host.handle(Event(channel, ALICE, "/ddz start"))
            replies += await host.handle(Event(channel, BOB, "/join"))
            replies += await host.handle(Event(channel, CAROL, "/join"))
            check(replies, {})
            for _ in range(400):
                session = await store.active(channel)
                if session is None:
                    break
                state = game.from_json(session.state)
                hands = {p.id: _hand_line(game, state, s) for s, p in enumerate(PEOPLE)}
                seat = game.to_move(state)
                person = PEOPLE[seat]
                moves = await host.legal_moves(channel, person.id)
                text = rng.choice(["/hand", "/board", "/hint"]) if rng.random() < 0.1 else "/move " + rng.choice(moves)
                check(await host.handle(Event(channel, person, text)), hands)
                outsider = rng.choice(PEOPLE)
                check(await host.handle(Event(channel, outsider, "/move pass")), hands)  # often refused
            assert (await store.latest(channel)).status == "finished"
        assert channel_replies > 500 and private_replies > 300
    finally:
        await host.stop()
        host.ai.close()
        await store.close()


def _hand_line(game, state, seat: int) -> str:
    lines = [line for line in game.private_lines(state, seat, Translator()) if line.startswith("hand:")]
    return lines[0] if lines else "\x00"
