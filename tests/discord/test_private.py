"""Every private reply kind through the real discord.py client: a hint, a refusal that tells what one
holds, a link code, a hand (their own, and the next player's), always an ephemeral message to its
owner, never the channel. And the type that guards it: the channel's poster takes only a `Public`."""

from __future__ import annotations

import pytest

from bot.model import EVERYONE, NotSecret, Private, Public, Reply
from tests.discord.conftest import Bot, board_saying, first_channel, run, said_to
from tests.discord.fake import ALICE, BOB, CAROL, FakeDiscord, Person
from tests.support.setups import secret_of

PEOPLE = (ALICE, BOB, CAROL)


async def ddz_landlord(fake: FakeDiscord, bot: Bot, channel: int) -> tuple[Person, str, str]:
    """Alice, Bob and Carol play Dou Dizhu; the first bidder bids 3 and leads. The landlord, a play
    of theirs that is refused, and the refusal (which tells what they hold)."""
    await run(fake, ALICE, "doudizhu start", channel)
    await run(fake, BOB, "join", channel)
    await run(fake, CAROL, "join", channel)
    await board_saying(fake, channel, "begins")
    bidder = PEOPLE[secret_of(await bot.host.store.active(f"discord:{channel}")).seat]
    await run(fake, bidder, "move", channel, move="3")
    await board_saying(fake, channel, "is the landlord")
    secret = secret_of(await bot.host.store.active(f"discord:{channel}"))
    assert PEOPLE[secret.seat] is bidder
    return bidder, secret.typed, secret.refusal


async def test_a_hint_a_refusal_about_ones_cards_a_link_code_and_hands_are_ephemeral(fake: FakeDiscord,
                                                                                    bot: Bot) -> None:
    channel = first_channel(fake)
    landlord, typed, refusal = await ddz_landlord(fake, bot, channel)
    hint = await said_to(fake, await run(fake, landlord, "hint", channel), "Hint: ")
    refused = await said_to(fake, await run(fake, landlord, "move", channel, move=typed), refusal)
    code = await said_to(fake, await run(fake, landlord, "link", channel), "code:")
    hand = await said_to(fake, await run(fake, landlord, "hand", channel), "Your hand")
    for shown in (hint, refused, code, hand):
        assert shown.ephemeral and shown.visible_to == landlord.id
    everyone = " ".join(m.content for m in fake.channel(channel))
    assert "Hint:" not in everyone and refusal not in everyone and "code:" not in everyone
    assert "Your hand" not in everyone and not any(name == "hand.png" for m in fake.channel(channel)
                                                   for name, _ in m.files)


async def test_a_private_reply_for_someone_not_acting_goes_to_them_or_nowhere(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    asked = await run(fake, BOB, "rules", channel)  # Bob's latest interaction here
    before = len(fake.channel(channel))
    bob, carol = f"discord:{BOB.id}", f"discord:{CAROL.id}"
    await bot.discord.deliver(f"discord:{channel}", [Reply("Bob's cards: 3 3 K", audience=Private(bob)),
                                                     Reply("Carol's cards: 4 4", audience=Private(carol)),
                                                     Reply("Not secret", audience=NotSecret(bob))])
    shown = await said_to(fake, asked, "Bob's cards")
    assert shown.ephemeral and shown.visible_to == BOB.id
    await said_to(fake, asked, "Not secret")
    assert len(fake.channel(channel)) == before  # Carol did nothing here lately: her cards go nowhere


async def test_the_channel_poster_takes_no_private_reply(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    secret = Reply("Alice's cards", audience=Private(f"discord:{ALICE.id}"))
    with pytest.raises(TypeError):
        await bot.discord.post(f"discord:{channel}", Public(secret))
    await bot.discord.post(f"discord:{channel}", Public(Reply("for all", audience=EVERYONE)))
    assert [m.content for m in fake.channel(channel)] == ["for all"]
