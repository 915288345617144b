"""Ratings, /leaderboard, /stats and watch mode through the real discord.py client against the
stand-in Discord: the slash options, the server as the leaderboard's "here", a board posted
on every move of a watched game. On SQLite and on PostgreSQL."""

from __future__ import annotations

from bot.session import SessionStatus
from tests.conftest import BOTH, Clock
from tests.discord.conftest import PNG, Bot, board_saying, boards, run
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord
from tests.support.postgres import rows

BACKENDS = BOTH


async def test_leaderboard_here_is_the_server_and_stats_are_a_picture(fake: FakeDiscord, bot: Bot) -> None:
    one, two = list(fake.channels)[:2]  # two channels of one server
    await run(fake, ALICE, "nim start", one, heaps="1")
    await run(fake, BOB, "join", one)
    await run(fake, ALICE, "take", one, args="1 1")
    await board_saying(fake, one, "Alice wins")
    await run(fake, CAROL, "leaderboard", two, game="nim", scope="here")
    shown = fake.channel(two)[-1]
    assert shown.png is not None and shown.png.startswith(PNG) and shown.files[0][0] == "leaderboard.png"
    assert "Leaderboard · Nim" in shown.content and "This server or group" in shown.content
    places = await rows(bot.host.store, "SELECT place FROM rated_games")
    assert places == [{"place": f"discord:guild:{fake.channels[one]}"}]
    await run(fake, CAROL, "nim leaderboard", two, scope="global")
    assert "Everyone" in fake.channel(two)[-1].content
    await run(fake, BOB, "stats", two, user=ALICE)
    card = fake.channel(two)[-1]
    assert "Results of Alice" in card.content and card.png is not None and card.files[0][0] == "stats.png"


async def test_watch_mode_posts_a_board_on_every_move_and_anyone_may_cancel(fake: FakeDiscord, bot: Bot) -> None:
    clock = Clock()
    bot.host.core.clock = clock  # the host's clock moves only when the test moves it
    channel = next(iter(fake.channels))
    await run(fake, ALICE, "nim watch", channel, level="easy", level2="hard", every=2, heaps="2 3")
    await board_saying(fake, channel, "The bots play each other")
    for moves in range(1, 20):
        clock.advance(2)
        await bot.host.expire_due()
        await bot.host.idle()
        await fake.wait(lambda n=moves: len(fake.channel(channel)) > n or None)
        if (await bot.host.store.latest(f"discord:{channel}")).status == SessionStatus.FINISHED:
            break
    session = await bot.host.store.latest(f"discord:{channel}")
    assert session.status == SessionStatus.FINISHED
    posted = fake.channel(channel)
    assert len(posted) == session.ply + 1  # the first board, then a new one for every move
    assert all("took" in m.content for m in posted[1:]) and "wins" in posted[-1].content
    # Each new board takes the picture from the one before (an edit that follows the post: wait for it).
    await fake.wait(lambda: boards(fake, channel) == [posted[-1]] or None)
    await run(fake, ALICE, "gomoku watch", channel, level="master", every=60)
    await board_saying(fake, channel, "The bots play each other")
    await run(fake, BOB, "cancel", channel)
    assert (await bot.host.store.latest(f"discord:{channel}")).status == SessionStatus.CANCELLED
