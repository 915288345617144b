"""Session flows through the host, as people in a channel see them, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from bot.info import replay
from bot.model import NotSecret, Private, User
from tests.conftest import ALICE, BOB, BOTH, CAROL, Clock, Table, close_table, open_table, person
from tests.support.postgres import scalar
from tests.support.relay import install as install_relay

BACKENDS = BOTH


async def nim_game(table: Table, heaps: str = "3 4 5") -> None:
    await table.say(ALICE, f"/nim start {heaps}")
    await table.say(BOB, "/join")


def state_of(session) -> list[int]:
    return session.state["heaps"]


# --- lobby and joining --------------------------------------------------------------------
async def test_start_then_join_begins_the_game(table: Table) -> None:
    opened = await table.say(ALICE, "/nim start 3 4 5")
    assert "Alice opened a table for Nim" in opened[0].text
    assert [b.command for b in opened[0].buttons] == ["/join"]
    begun = await table.say(BOB, "/join")
    assert "Nim begins: Alice vs Bob" in begun[0].text and begun[0].image[:8] == b"\x89PNG\r\n\x1a\n"
    assert begun[0].mentions == (ALICE.id,)
    session = await table.session()
    assert session.status == "playing" and state_of(session) == [3, 4, 5]


async def test_one_game_per_channel(table: Table) -> None:
    await table.say(ALICE, "/nim start")
    assert "already has a game of Nim" in await table.text(BOB, "/nim start 1 2")
    assert "already has a game" in await table.text(BOB, "/nim solo")


async def test_no_double_seats_and_a_full_table(table: Table) -> None:
    await table.say(ALICE, "/nim start")
    assert "already have a seat" in await table.text(ALICE, "/join")
    await table.say(BOB, "/join")
    assert "already started" in await table.text(CAROL, "/join")


async def test_bad_options_are_refused_in_one_line(table: Table) -> None:
    text = await table.text(ALICE, "/nim start 3 banana")
    assert text.count("\n") == 0 and "banana" in text
    assert await table.session() is None


# --- moving --------------------------------------------------------------------------------
async def test_only_the_seated_player_to_move_may_move(table: Table) -> None:
    await nim_game(table)
    assert await table.text(BOB, "/take 1 1") == "It is Alice's turn."
    assert await table.text(CAROL, "/take 1 1") == "You are not playing in this game."
    assert await table.text(ALICE, "/take 2 9") == "Heap 2 has only 4 stones."
    moved = await table.say(ALICE, "/take 2 3")
    assert moved[0].text.startswith("Alice took 3 stones from heap 2.")
    assert state_of(await table.session()) == [3, 1, 5]
    await table.say(BOB, "/move 1 3")
    assert state_of(await table.session()) == [0, 1, 5]


async def test_a_whole_game_between_friends_is_recorded(table: Table) -> None:
    await nim_game(table, "1 2")
    await table.say(ALICE, "/take 2 1")
    await table.say(BOB, "/take 1 1")
    last = await table.say(ALICE, "/take 2 1")
    assert "🏆 Alice wins: took the last stone." in last[0].text
    assert [b.command for b in last[0].buttons] == ["/rematch", "/review"]
    assert "1 won · 0 lost" in await written(table, ALICE, "/stats")
    assert "0 won · 1 lost" in await written(table, ALICE, "/stats @bob", bob=BOB)
    board = await written(table, CAROL, "/leaderboard nim")
    assert board.index("Alice") < board.index("Bob")
    assert "3 moves" in await table.text(CAROL, "/record")


async def test_a_whole_game_against_the_ai(table: Table) -> None:
    await table.say(ALICE, "/nim solo hard 1 2")
    await table.say(ALICE, "/take 2 2")  # a losing move: the bot takes the last stone
    await table.host.idle()
    assert "Bot (hard) took 1 stone from heap 1" in table.delivered[-1].text
    assert "Bot (hard) wins" in table.delivered[-1].text
    assert "0 won · 1 lost" in await written(table, ALICE, "/stats")


async def test_the_ai_moves_first_when_it_sits_first(table: Table) -> None:
    await table.say(ALICE, "/nim solo 1 2")
    await table.say(ALICE, "/resign")
    await table.say(ALICE, "/rematch")  # seats swap: the bot opens
    await table.host.idle()
    session = await table.session()
    assert session.seats[0].ai_level and session.ply == 1 and "Alice, your move." in table.delivered[-1].text


# --- challenges ------------------------------------------------------------------------------
async def test_challenge_is_accepted_by_the_challenged_only(table: Table) -> None:
    sent = await table.say(ALICE, "/nim challenge @bob 3 4", bob=BOB)
    assert "Alice challenges Bob to Nim" in sent[0].text and sent[0].mentions == (BOB.id,)
    assert "not for you" in await table.text(CAROL, "/accept")
    assert "kept for Bob" in await table.text(CAROL, "/join")
    assert "Nim begins" in await table.text(BOB, "/accept")


async def test_challenge_by_username_only_is_matched_on_accept(table: Table) -> None:
    await table.say(ALICE, "/nim challenge @Bob")  # no mention resolved: a Telegram-style @username
    assert "not for you" in await table.text(CAROL, "/accept")
    assert "Nim begins" in await table.text(BOB, "/accept")
    assert (await table.session()).seats[1].user_id == BOB.id


async def test_decline_closes_the_table(table: Table) -> None:
    await table.say(ALICE, "/nim challenge @bob", bob=BOB)
    assert "Bob declined" in await table.text(BOB, "/decline")
    assert (await table.session()).status == "cancelled"
    assert "Carol opened" in await table.text(CAROL, "/nim start")


async def test_challenge_needs_someone_else(table: Table) -> None:
    assert "Say whom you challenge" in await table.text(ALICE, "/nim challenge")
    assert "cannot challenge yourself" in await table.text(ALICE, "/nim challenge @alice", alice=ALICE)


# --- undo, offers, resign ------------------------------------------------------------------------
async def test_undo_against_the_ai_is_immediate(table: Table) -> None:
    await table.say(ALICE, "/nim solo hard 3 4 5")
    await table.say(ALICE, "/take 1 3")
    await table.host.idle()
    assert (await table.session()).ply == 2
    undone = await table.say(ALICE, "/undo")
    assert "took back 2 moves" in undone[0].text
    session = await table.session()
    assert session.ply == 0 and state_of(session) == [3, 4, 5]


async def test_undo_against_a_person_needs_consent(table: Table) -> None:
    await nim_game(table)
    await table.say(ALICE, "/take 1 1")
    offer = await table.say(ALICE, "/undo")
    assert "Alice asks to take back" in offer[0].text and offer[0].mentions == (BOB.id,)
    assert "cannot answer your own" in await table.text(ALICE, "/accept")
    assert "not playing" in await table.text(CAROL, "/accept")
    assert "Bob said no" in await table.text(BOB, "/decline")
    assert state_of(await table.session()) == [2, 4, 5]
    await table.say(ALICE, "/undo")
    await table.say(BOB, "/accept")
    assert state_of(await table.session()) == [3, 4, 5]


async def test_a_move_withdraws_a_pending_offer(table: Table) -> None:
    await nim_game(table)
    await table.say(ALICE, "/take 1 1")
    await table.say(ALICE, "/undo")
    await table.say(BOB, "/take 2 1")
    assert "nothing to accept" in await table.text(BOB, "/accept")


async def test_nim_has_no_draw_offers(table: Table) -> None:
    await nim_game(table)
    assert "no draw offers" in await table.text(ALICE, "/draw")


async def test_restart_by_consent(table: Table) -> None:
    await nim_game(table, "3 4")
    await table.say(ALICE, "/take 1 1")
    await table.say(BOB, "/restart")
    await table.say(ALICE, "/accept")
    session = await table.session()
    assert session.ply == 0 and state_of(session) == [3, 4] and session.status == "playing"


async def test_resign_gives_the_win_to_the_other(table: Table) -> None:
    await nim_game(table)
    resigned = await table.say(BOB, "/resign")
    assert "Alice wins: Bob resigned" in resigned[0].text
    assert "1 won" in await written(table, ALICE, "/stats")


# --- cancel and rematch ---------------------------------------------------------------------------
async def test_cancel_only_by_the_starter_before_any_move(table: Table) -> None:
    await nim_game(table)
    assert "Only the one who opened" in await table.text(BOB, "/cancel")
    await table.say(ALICE, "/take 1 1")
    assert "has begun" in await table.text(ALICE, "/cancel")
    moderator = person("mod", moderator=True)
    assert "cancelled" in await table.text(moderator, "/cancel")
    assert (await table.session()).status == "cancelled"


async def test_rematch_swaps_who_moves_first(table: Table) -> None:
    await nim_game(table, "1")
    await table.say(ALICE, "/take 1 1")
    offered = await table.say(BOB, "/rematch")
    assert "Bob wants a rematch with Alice" in offered[0].text
    assert "not for you" in await table.text(CAROL, "/accept")
    begun = await table.say(ALICE, "/accept")
    assert "Nim begins: Bob vs Alice" in begun[0].text
    assert await table.text(ALICE, "/take 1 1") == "It is Bob's turn."


# --- buttons ------------------------------------------------------------------------------------
async def test_buttons_do_what_they_say(table: Table) -> None:
    opened = await table.say(ALICE, "/nim challenge @bob", bob=BOB)
    accept = next(b for b in opened[0].buttons if b.command == "/accept")
    assert "not for you" in (await table.press(CAROL, accept.id))[0].text
    assert "Nim begins" in (await table.press(BOB, accept.id))[0].text


async def test_stale_and_foreign_buttons_are_refused(table: Table) -> None:
    await nim_game(table)
    await table.say(ALICE, "/take 1 1")
    offer = await table.say(ALICE, "/undo")
    agree = offer[0].buttons[0]
    await table.say(BOB, "/decline")
    await table.say(ALICE, "/undo")  # a new offer: the old Agree button must not answer it
    stale = await table.press(BOB, agree.id)
    assert stale[0].text == "That button is out of date; use the latest message."
    assert isinstance(stale[0].audience, NotSecret)
    assert "not one of mine" in (await table.press(BOB, "garbage"))[0].text
    session = await table.session()
    assert "out of date" in (await table.press(BOB, f"{session.id + 5}.*.join"))[0].text
    assert state_of(await table.session()) == [2, 4, 5]


# --- timers -------------------------------------------------------------------------------------
async def test_a_player_who_lets_the_timer_run_out_loses(table: Table, clock: Clock) -> None:
    await nim_game(table)
    clock.advance(299)
    await table.host.expire_due()
    assert (await table.session()).status == "playing"
    clock.advance(2)
    await table.host.expire_due()
    session = await table.session()
    assert session.status == "finished" and "Bob wins: Alice ran out of time" in table.delivered[-1].text


async def test_timer_is_per_session_and_restarts_each_move(table: Table, clock: Clock) -> None:
    await table.say(ALICE, "/nim start 5 5 timer=1m")
    await table.say(BOB, "/join")
    clock.advance(50)
    await table.say(ALICE, "/take 1 1")
    clock.advance(50)
    await table.host.expire_due()
    assert (await table.session()).status == "playing"
    clock.advance(11)
    await table.host.expire_due()
    assert "Alice wins: Bob ran out of time" in table.delivered[-1].text
    assert "between 10 seconds" in await table.text(ALICE, "/nim start timer=1")


async def test_an_empty_table_closes_after_a_while(table: Table, clock: Clock) -> None:
    await table.say(ALICE, "/nim start")
    clock.advance(901)
    await table.host.expire_due()
    assert (await table.session()).status == "cancelled" and "Nobody came" in table.delivered[-1].text


async def test_in_games_of_three_a_timed_out_seat_is_played_by_the_ai_until_back(database: Path | str) -> None:
    install_relay()
    clock = Clock()
    table = await open_table(database, clock)
    try:
        await table.say(ALICE, "/relay start")
        await table.say(BOB, "/join")
        await table.say(CAROL, "/join")
        await table.say(ALICE, "/move 1")
        clock.advance(301)  # Bob sleeps
        await table.host.expire_due()
        await table.host.idle()
        assert "Bob ran out of time; a bot plays for them" in table.delivered[0].text
        session = await table.session()
        assert session.seats[1].away and session.ply == 2  # the bot moved for Bob
        assert "Carol, your move." in table.delivered[-1].text
        await table.say(CAROL, "/move 1")
        await table.say(ALICE, "/move 1")
        await table.host.idle()
        assert (await table.session()).ply == 5  # Bob's seat was played again
        assert "is back" in await table.text(BOB, "/back")
        await table.say(CAROL, "/move 1")
        await table.say(ALICE, "/move 1")
        assert (await table.session()).seats[1].away is False
        assert await table.text(CAROL, "/move 1") == "It is Bob's turn."
    finally:
        await close_table(table)


async def test_go_fills_open_seats_with_bots(database: Path | str) -> None:
    install_relay()
    table = await open_table(database, Clock())
    try:
        opened = await table.say(ALICE, "/relay start 4")
        assert "/go" in {b.command for b in opened[0].buttons}
        await table.say(BOB, "/join")
        assert "Only the one who opened" in await table.text(BOB, "/go")
        await table.say(ALICE, "/go")
        session = await table.session()
        assert [bool(s.ai_level) for s in session.seats] == [False, False, True, True]
    finally:
        await close_table(table)


# --- look-ups ---------------------------------------------------------------------------------
async def test_help_rules_board_record(table: Table) -> None:
    assert "/nim Nim · /gomoku Gomoku · /doudizhu Dou Dizhu (斗地主)" in await table.text(ALICE, "/help")
    assert "whoever takes the last stone wins" in await table.text(ALICE, "/rules nim")
    assert "There is no game chess" in await table.text(ALICE, "/rules chess")
    assert "no game in this channel" in await table.text(ALICE, "/board")
    assert "no game in this channel" in await table.text(ALICE, "/take 1 1")
    await nim_game(table)
    board = await table.say(CAROL, "/board")
    assert board[0].image and board[0].text_board.startswith(" 1 | ●●●")
    assert "No moves yet" in await table.text(CAROL, "/record")


async def test_hints_can_be_switched_off(table: Table) -> None:
    await nim_game(table, "1 2")
    hint = await table.say(ALICE, "/hint")
    assert hint[0].text == "Hint: 2 1 (this game will not be rated for you: you asked for a hint)"
    assert hint[0].audience == Private(ALICE.id)
    assert (await table.text(ALICE, "/hint")) == "Hint: 2 1"  # told once
    assert "not your turn" in await table.text(BOB, "/hint")
    assert "Only a moderator" in await table.text(ALICE, "/hints off")
    await table.say(person("mod", moderator=True), "/hints off")
    assert "switched off" in await table.text(ALICE, "/hint")


async def test_every_reply_is_one_clear_line_for_bad_input(table: Table) -> None:
    for text in ["/nope", "/move", "/accept", "/decline", "/undo", "/resign", "/back", "/rematch", "/go", "/hand"]:
        replies = await table.say(ALICE, text)
        assert len(replies) == 1 and "\n" not in replies[0].text and replies[0].text.endswith((".", "?")), text


async def test_outcome_is_stored_as_data(table: Table) -> None:
    await nim_game(table, "1")
    await table.say(ALICE, "/take 1 1")
    outcome = await scalar(table.store, "SELECT outcome FROM sessions")
    assert json.loads(outcome)["reason"]["key"] == "nim.normal_end"


@pytest.mark.parametrize("name", ["张伟", "😀 Ana", "Ünïcødé"])
async def test_any_name_plays(table: Table, name: str) -> None:
    someone = User("console:x", name, "x")
    await table.say(someone, "/nim solo 1")
    assert f"{name}, your move." in await table.text(someone, "/board")


async def test_a_finished_game_replays_from_its_record(table: Table) -> None:
    await table.say(ALICE, "/gomoku challenge @bob", bob=BOB)
    await table.say(BOB, "/accept")
    for i, (a, b) in enumerate(zip(["h8", "h9", "h10", "h11"], ["a1", "a2", "a3", "a4"], strict=True)):
        await table.say(ALICE, f"/move {a}")
        await table.say(BOB, f"/move {b}")
        assert (await table.session()).ply == 2 * (i + 1)
    finished = await table.say(ALICE, "/move h12")
    assert "Alice wins" in finished[0].text
    record = await table.text(CAROL, "/record")
    assert record.splitlines()[1] == "1. h8 · 2. a1 · 3. h9 · 4. a2 · 5. h10 · 6. a3 · 7. h11 · 8. a4 · 9. h12"
    session = await table.session()
    game = engines.get("gomoku")
    final = replay(game, session, await table.store.moves(session.id))
    assert game.to_json(final) == session.state and game.outcome(final).winners == (0,)
    shown = await table.say(CAROL, "/replay 3")
    assert shown[0].text == "After move 3 of 9: h9" and shown[0].image
    assert "from 0 to 9" in await table.text(CAROL, "/replay 10")


async def test_the_rematch_button_of_a_finished_game_works(table: Table) -> None:
    await nim_game(table, "1")
    finished = await table.say(ALICE, "/take 1 1")
    rematch = finished[0].buttons[0]
    assert rematch.command == "/rematch"
    assert "Bob wants a rematch" in (await table.press(BOB, rematch.id))[0].text
    assert "out of date" in (await table.press(BOB, rematch.id))[0].text  # a new table is open now


async def written(table: Table, user, text: str, **mentions) -> str:
    """What the console shows of the answer: its text and the picture's text twin."""
    return "\n".join(r.text_board or r.text for r in await table.say(user, text, **mentions))
