"""A knockout of Dou Dizhu (tables of three) in a Telegram group, people and bots: in a forum each
table of a round in a topic of its own, all at once (a table playing again after a tie in a new
topic too); in a group without topics the round's tables one after another in the group. The
people play with the ordinary /move typed where their table is."""

from __future__ import annotations

from bot.tournament import tables
from bot.tournament.model import EventStatus
from tests.telegram.conftest import CHANNEL, GROUP, World
from tests.telegram.test_tournament import FORUM, FORUM_CHANNEL, NOT_HERE, first_round_in_topics, play_out


async def open_knockout(world: World, chat: int) -> None:
    """Alice opens a Dou Dizhu knockout; Bob and four easy bots join (six: two tables of three)."""
    api = world.api
    await api.say(world.alice, chat, "/doudizhu tournament knockout")
    await api.wait(lambda: [m for m in api.to_chat(chat) if "opened a Dou Dizhu (斗地主) knockout" in m.text])
    await api.say(world.bob, chat, "/join")
    for _ in range(4):
        await api.say(world.alice, chat, "/join bot easy")
    await api.wait(lambda: [m for m in api.to_chat(chat) if "(6 entrants)" in m.text])
    await api.say(world.alice, chat, "/go")


def check_bracket(event: object) -> None:
    """Every table of the event decided by its games: who goes on finished above who did not."""
    bracket = tables.knockout(event.everyone(), event.played(), 3)  # type: ignore[attr-defined]
    assert bracket.champion is not None and len(bracket.rounds) == len(tables.plan(6, 3))
    for stage in bracket.rounds:
        for table in stage.tables:
            assert table.decided and len(table.games) >= 1


async def test_a_dou_dizhu_knockout_in_a_forum_plays_each_table_in_a_topic(world: World) -> None:
    api = world.api
    api.group(FORUM, "Club", forum=True)
    await open_knockout(world, FORUM)
    # Round 1: six at two tables of three, both at once, each in a topic of its own.
    await first_round_in_topics(world)
    said = [c.text for c in api.to_topic(FORUM, None) if "Round 1 of" in c.text]
    assert said and "the winner of each table goes on" not in said[0]  # six at tables of three: the top 2
    assert "the top 2 of each table go on" in said[0] and "Table 2:" in said[0]
    event = await play_out(world, FORUM, FORUM_CHANNEL)
    assert event.status == EventStatus.FINISHED and event.round == len(tables.plan(6, 3))
    check_bracket(event)
    games = [g for g in event.games if not g.bye]
    assert all(len(g.players) == 3 and g.points is not None for g in games)
    # Each table's game (and each game a tie made it play again) had a topic of its own, and ended there.
    assert len({g.place for g in games}) == len(games) == len(api.of("createForumTopic", chat_id=FORUM))
    assert {g.place for g in games} == {f"{FORUM_CHANNEL}:{t}" for c, t in api.topics if c == FORUM}
    # A tie at the place that goes on (a table's game twice in a round): announced as the same table playing again.
    if len({(g.round, frozenset(g.players)) for g in games}) < len(games):
        assert [c for c in api.to_topic(FORUM, None) if "plays again (tie for the place that goes on)" in c.text]
        assert [t for t in api.of("createForumTopic", chat_id=FORUM) if " again · " in t.params["name"]]
    await api.wait(lambda: [c for c in api.to_topic(FORUM, None) if "podium" in c.text])
    photos = [c for c in api.to_topic(FORUM, None) if c.method == "sendPhoto"]
    assert any("bracket" in c.text for c in photos) and any("final standings" in c.text for c in photos)
    assert not any(NOT_HERE in c.text for c in api.to_chat(FORUM))


async def test_a_dou_dizhu_knockout_in_a_group_without_topics_plays_the_tables_in_turn(world: World) -> None:
    api, host = world.api, world.table.host
    await open_knockout(world, GROUP)
    event = await play_out(world, GROUP, CHANNEL)
    assert event.status == EventStatus.FINISHED and event.round == len(tables.plan(6, 3))
    check_bracket(event)
    assert {g.place for g in event.games if not g.bye} == {CHANNEL}  # all in the group, one after another
    await api.wait(lambda: [m for m in api.of("sendPhoto", chat_id=GROUP) if "podium" in m.text])
    assert len([c for c in api.to_chat(GROUP) if NOT_HERE in c.text]) == 1
    assert not await host.legal_moves(CHANNEL, "telegram:101")
