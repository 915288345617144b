"""Hidden cards (Dou Dizhu): only ever in ephemeral messages to their owner, never in the channel."""

from __future__ import annotations

from tests.discord.conftest import Bot, board_saying, boards, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord, Message
from tests.support.setups import deal, to_move


def hands(messages: list[Message]) -> list[Message]:
    return [m for m in messages if any(name == "hand.png" for name, _ in m.files)]


async def test_hands_are_ephemeral_to_their_owner_and_my_hand_shows_a_fresh_one(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    await run(fake, ALICE, "doudizhu challenge", channel, user=BOB)
    lobby = fake.last(channel, "Alice challenges Bob")
    assert lobby is not None
    accepted = await fake.click(BOB, lobby, "Accept")
    await fake.wait(lambda: fake.last(channel, "Bob joined."))
    begun = await run(fake, ALICE, "go", channel)  # the open seat goes to a bot; the cards are dealt
    await fake.wait(lambda: fake.last(channel, "Dou Dizhu (斗地主) begins"))

    # Alice started it: her hand is the answer to her /go, only she sees it.
    alice_hand = await said_to(fake, begun, "Your hand, Alice")
    assert alice_hand.ephemeral and alice_hand.visible_to == ALICE.id and alice_hand.png is not None
    # Bob's hand reaches him through his own latest interaction here (his Accept click).
    bob_hand = await said_to(fake, accepted, "Your hand, Bob")
    assert bob_hand.ephemeral and bob_hand.visible_to == BOB.id and bob_hand.png is not None
    assert bob_hand.png != alice_hand.png

    # "My hand" always answers with a fresh ephemeral picture, for whoever presses it.
    await board_saying(fake, channel, "")
    again = await fake.click(BOB, boards(fake, channel)[-1], "My hand")  # the latest board, whoever is to move
    fresh = await said_to(fake, again, "Your hand, Bob")
    assert fresh.ephemeral and fresh.visible_to == BOB.id and fresh.png is not None and fresh is not bob_hand
    stranger = await fake.click(CAROL, boards(fake, channel)[-1], "My hand")
    refusal = await said_to(fake, stranger, "You are not playing in this game.")
    assert refusal.ephemeral and refusal.files == []

    # Nothing of anyone's hand ever reached the channel.
    assert hands(fake.channel(channel)) == []
    assert {m.visible_to for m in hands(list(fake.messages.values()))} == {ALICE.id, BOB.id}


async def test_after_all_passed_every_player_gets_the_new_hand_at_once(fake: FakeDiscord, bot: Bot) -> None:
    channel, people = first_channel(fake), (ALICE, BOB, CAROL)
    await run(fake, ALICE, "doudizhu start", channel)
    await run(fake, BOB, "join", channel)
    await run(fake, CAROL, "join", channel)
    for passes in range(1, 4):
        before = {p.id: len(hands(fake.private(p))) for p in people}
        passer = people[to_move(await bot.host.store.active(f"discord:{channel}"))]
        await run(fake, passer, "move", channel, move="pass")
        now = await bot.host.store.active(f"discord:{channel}")
        # The one who passed and the one to bid now get their hand (the others' follow-ups may come
        # after the passer's own answer); after the third pass (nobody bid: the cards are dealt again)
        # all three get their new one at once, nobody has to move first.
        told = people if passes == 3 else (passer, people[to_move(now)])
        await fake.wait(lambda b=before, t=told: all(len(hands(fake.private(p))) > b[p.id] for p in t))
    assert deal(now) == 1
    assert {p.name: len(hands(fake.private(p))) - before[p.id] for p in people} == {p.name: 1 for p in people}
