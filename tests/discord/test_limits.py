"""Discord's limits, kept by the adapter: the stand-in refuses what Discord refuses (content over
2,000 characters, more than 25 buttons or 5 rows, labels over 80 characters), so a reply that
broke one would be lost and these tests (and the fixture, which fails on any refusal) fail; and
429s are waited out for as long as Discord says."""

from __future__ import annotations

import time

from bot.model import EVERYONE, Button, Reply, User
from tests.discord.conftest import Bot, board_saying, first_channel, run, shown
from tests.discord.fake import ALICE, BOB, FakeDiscord
from tests.discord.refusals import CONTENT_MAX, LABEL_MAX
from tests.support.pictures import png
from tests.support.setups import long_nim


async def test_rules_longer_than_a_message_arrive_in_messages_discord_takes(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "rules", channel, game="checkers")
    said = fake.channel(channel)
    assert len(said) >= 2 and all(len(m.content) <= CONTENT_MAX for m in said)
    text = "\n".join(m.content for m in said)
    assert len(text) > CONTENT_MAX and "Chinese Checkers" in said[0].content and not fake.refused


async def test_a_long_post_with_many_long_buttons_fits_discord(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    buttons = tuple(Button(f"play {i} " + "♠" * 100, f"b:{i}", f"/move {i}") for i in range(30))
    text = "\n".join(f"line {i}: " + "x" * 90 for i in range(50))  # 5,000 characters
    post = Reply(text, image=png(400, 300), buttons=buttons, mentions=(f"discord:{BOB.id}",), audience=EVERYONE)
    await bot.discord.deliver(f"discord:{channel}", [post])
    last = await fake.wait(lambda: next((m for m in fake.channel(channel) if m.buttons), None))
    posted = fake.channel(channel)
    assert len(posted) >= 3 and all(len(m.content) <= CONTENT_MAX for m in posted)
    assert posted[0].content.startswith(f"<@{BOB.id}> line 0: ")
    assert "".join(m.content for m in posted).count("line ") == 50  # nothing lost
    assert len(last.buttons) == 25 and len(last.components) == 5
    assert all(len(b["label"]) <= LABEL_MAX for b in last.buttons) and last.png is not None
    assert not fake.refused


async def test_a_429_on_posting_is_waited_out_and_the_board_still_arrives(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim start", channel, heaps="3 4")
    limit = fake.rate_limit("POST", rf"channels/{channel}/messages", count=2, retry_after=0.6)
    started = time.monotonic()
    await run(fake, BOB, "join", channel)
    board = await board_saying(fake, channel, "Nim begins: Alice vs Bob")
    assert limit.count == 0 and len(fake.limited) == 2 and board.png is not None
    assert not fake.early, f"retried before retry_after had passed: {fake.early}"
    assert time.monotonic() - started >= 1.2  # two waits of 0.6 s


async def test_a_global_429_holds_every_request_until_it_is_over(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim start", channel, heaps="3 4")
    fake.rate_limit("POST", rf"channels/{channel}/messages", count=1, retry_after=0.6, is_global=True)
    await run(fake, BOB, "join", channel)
    await board_saying(fake, channel, "Nim begins: Alice vs Bob")
    assert len(fake.limited) == 1 and not fake.early


async def test_a_long_record_is_a_file_and_a_short_one_a_message(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    alice, bob = User(f"discord:{ALICE.id}", "Alice"), User(f"discord:{BOB.id}", "Bob")
    await long_nim(bot.host, f"discord:{channel}", alice, bob, 250)  # a record of about 2,700 characters
    before = len(fake.channel(channel))
    await run(fake, ALICE, "record", channel)
    [sent] = fake.channel(channel)[before:]  # one message, not two
    assert sent.content == "Nim: Alice vs Bob (250 moves)"
    [(name, data)] = sent.files
    record = data.decode()
    assert name == "record.txt" and len(record) > CONTENT_MAX
    assert record.startswith("Nim: Alice vs Bob (250 moves)\n1. 1 1 · 2. 1 1") and record.endswith("250. 3 1")
    # A record that fits one message is that message.
    await run(fake, ALICE, "resign", channel)
    await run(fake, ALICE, "nim start", channel, heaps="2 2")
    await run(fake, BOB, "join", channel)
    await run(fake, ALICE, "take", channel, args="1 1")
    await run(fake, BOB, "record", channel)
    short = fake.channel(channel)[-1]
    assert shown(short.content) == "Nim: Alice vs Bob (1 move)\n1. 1 1" and short.files == []
