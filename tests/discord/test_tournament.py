"""A tournament through the real discord.py client: each game in a thread of its own under the
channel, played there with the ordinary commands; where Discord makes no thread, the games follow
one another in the channel."""

from __future__ import annotations

from bot.tournament.model import EventStatus
from tests.discord.conftest import Bot, first_channel, run
from tests.discord.fake import ALICE, BOB, FakeDiscord


async def play_out(fake: FakeDiscord, bot: Bot, channel: int) -> None:
    """The people play their games of the round wherever they are, first legal move each time."""
    while True:
        session = await bot.host.store.active(f"discord:{channel}")
        if session is None:
            return
        for person in (ALICE, BOB):
            moves = await bot.host.legal_moves(f"discord:{channel}", f"discord:{person.id}")
            if moves:
                await run(fake, person, "move", channel, move=moves[0])
                break
        else:
            await bot.host.idle()


async def test_a_swiss_with_a_thread_per_game(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "nim tournament", channel, format="swiss", rounds=2)
    await run(fake, BOB, "join", channel)
    await run(fake, BOB, "join", channel, bot="easy")
    await run(fake, ALICE, "join", channel, bot="hard")
    assert fake.last(channel, "(4 entrants)") is not None
    await run(fake, ALICE, "go", channel)
    assert fake.last(channel, "Round 1 of 2") is not None
    for round_ in (1, 2):
        def threads(r: int = round_) -> list[int] | None:
            found = [t for t, name in fake.thread_names.items() if name.startswith(f"Round {r} ")]
            return found if len(found) == 2 else None

        for thread in await fake.wait(threads):
            assert fake.threads[thread] == channel
            await fake.wait(lambda t=thread: fake.channel(t))  # its first board, in the thread
            await play_out(fake, bot, thread)
    final = await fake.wait(lambda: fake.last(channel, "final standings"))
    assert final.png is not None
    await fake.wait(lambda: fake.last(channel, "podium"))
    event = await bot.host.store.event_latest(f"discord:{channel}")
    assert event is not None and event.status == EventStatus.FINISHED
    assert {g.place for g in event.games} == {f"discord:{t}" for t in fake.threads}
    assert all(" wins" not in m.content for m in fake.channel(channel))  # no game was played in the channel


async def test_where_discord_makes_no_thread_the_games_follow_in_the_channel(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    fake.no_threads.add(channel)
    await run(fake, ALICE, "nim tournament", channel, format="knockout")
    await run(fake, BOB, "join", channel)
    await run(fake, ALICE, "go", channel)
    await fake.wait(lambda: fake.last(channel, "Nim begins"))
    await play_out(fake, bot, channel)
    await fake.wait(lambda: fake.last(channel, "podium"))
    assert fake.threads == {} and fake.refused == [f"a thread under {channel}"]
    fake.refused.clear()  # (the stand-in refused it as Discord does; the bot took the answer)


async def test_a_checkers_knockout_of_bots_at_tables_of_three_in_threads(fake: FakeDiscord, bot: Bot) -> None:
    """Four bots at tables of three: the top seed has a bye, the top two of the other three go on
    to the final table. Every game (a table played again after a tie too) in a thread of its own."""
    channel = first_channel(fake)
    await run(fake, ALICE, "checkers tournament", channel, format="knockout", players=3)
    await run(fake, ALICE, "withdraw", channel)
    for _ in range(4):
        await run(fake, BOB, "join", channel, bot="easy")
    await run(fake, ALICE, "go", channel)
    assert fake.last(channel, "the top 2 of each table go on") is not None
    podium = await fake.wait(lambda: fake.last(channel, "podium"))
    assert podium.png is not None
    event = await bot.host.store.event_latest(f"discord:{channel}")
    assert event is not None and event.status == EventStatus.FINISHED and event.round == 2
    assert all(len(g.players) == 3 for g in event.games)
    assert {g.place for g in event.games} == {f"discord:{t}" for t in fake.threads}
    assert len(fake.threads) == len(event.games)  # a thread a game
    bracket = fake.last(channel, "bracket")
    assert bracket is not None and bracket.png is not None  # (the picture alone: Discord shows no text twin)
