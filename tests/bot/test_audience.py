"""Who each reply is for is its type: `Everyone`, `NotSecret(user)` or `Private(user)`. Every reply
says which (there is no default), what tells a player's hidden cards is Private, and a `Public`
(what the adapters' channel posters take) cannot be made of a Private reply."""

from __future__ import annotations

import pytest

from bot.model import EVERYONE, NotSecret, Private, Public, Reply
from tests.conftest import ALICE, BOB, CAROL, Table, person
from tests.support.setups import secret_of

DAVE = person("dave")


def test_a_reply_says_whom_it_is_for_and_a_private_one_never_becomes_public() -> None:
    with pytest.raises(TypeError):
        Reply("who sees this?")  # type: ignore[call-arg]
    secret = Reply("Your hand: 3 3 K", audience=Private(ALICE.id))
    with pytest.raises(TypeError):
        Public(secret)
    assert Public(Reply("everyone", audience=EVERYONE)).reply.text == "everyone"
    assert Public(Reply("harmless", audience=NotSecret(ALICE.id))).reply.reader == ALICE.id
    assert secret.private and secret.reader == ALICE.id and Reply("x", audience=EVERYONE).reader is None


async def test_what_tells_a_players_cards_is_private_and_the_rest_is_not(table: Table) -> None:
    people = (ALICE, BOB, CAROL)
    await table.say(ALICE, "/ddz start")
    await table.say(BOB, "/join")
    begun = await table.say(CAROL, "/join")
    assert begun[0].audience == EVERYONE and [r.audience for r in begun[1:]] == [Private(p.id) for p in people]
    bidder = people[secret_of(await table.session()).seat]
    await table.say(bidder, "/move 3")
    secret = secret_of(await table.session())
    landlord = people[secret.seat]
    other = next(p for p in people if p is not landlord)

    hint = await table.say(landlord, "/hint")
    refused = await table.say(landlord, f"/move {secret.typed}")
    hand = await table.say(landlord, "/hand")
    code = await table.say(landlord, "/link")
    for replies in (hint, refused, hand, code):
        assert [r.audience for r in replies] == [Private(landlord.id)]
    assert refused[0].text == secret.refusal and hint[0].text.startswith("Hint: ")
    # What a player of the game is refused that does not depend on their cards is not secret: the
    # host's refusals, and the game's that come before it looks at the hand.
    for who, typed, said in ((other, "/hint", "It is not your turn"), (other, "/move 3 3", "It is "),
                             (landlord, "/bid 2", "The bidding is over"), (landlord, "/back", "You")):
        [answer] = await table.say(who, typed)
        assert answer.audience == NotSecret(who.id) and answer.text.startswith(said), (typed, answer.text)

    # Someone not in the game holds nothing: their refusals are not secret; the board is everyone's.
    assert [r.audience for r in await table.say(DAVE, "/hint")] == [NotSecret(DAVE.id)]
    assert [r.audience for r in await table.say(DAVE, "/board")] == [EVERYONE]
    assert [r.audience for r in await table.say(DAVE, "/frobnicate")] == [NotSecret(DAVE.id)]


async def test_refusals_in_a_game_without_hidden_cards_are_not_secret(table: Table) -> None:
    await table.say(ALICE, "/nim start 3 4")
    await table.say(BOB, "/join")
    assert [r.audience for r in await table.say(BOB, "/take 1 1")] == [NotSecret(BOB.id)]  # not his turn
    assert [r.audience for r in await table.say(ALICE, "/take 1 9")] == [NotSecret(ALICE.id)]
    assert [r.audience for r in await table.say(ALICE, "/hint")] == [Private(ALICE.id)]  # a hint is always theirs
