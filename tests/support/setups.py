"""Games set up for the adapters' tests: what only one player of a Dou Dizhu game may
see, worked out from the game's state (who is to move, a play whose refusal tells what they hold:
"You have no second 7" says they hold exactly one), and a game with a long record."""

from __future__ import annotations

from dataclasses import dataclass

from bot.host import Host
from bot.i18n import Translator
from bot.model import Event, User
from bot.session import Session
from engines.base import Refusal
from engines.doudizhu import DouDizhu
from engines.doudizhu.cards import LABELS, TEN, counts_of_cards


@dataclass(frozen=True)
class Secret:
    seat: int  # the seat to move
    typed: str  # a play they cannot make (ranks 3 to 10, one more than they hold of one)
    refusal: str  # what the host answers to it, in English: it tells how many they hold
    hand: str  # their hand, as the text board writes it ("hand: 3 3 4 ...")


def secret_of(session: Session) -> Secret:
    game = DouDizhu()
    state = game.from_json(session.state)
    seat = game.to_move(state)
    assert seat is not None
    counts = counts_of_cards(state.hands[seat])
    rank = max(range(TEN + 1), key=lambda r: (0 < counts[r] < 4, counts[r]))  # one they hold if they can
    typed = " ".join([LABELS[rank]] * (counts[rank] + 1))
    try:
        game.parse_move(state, seat, typed)
    except Refusal as refusal:
        said = Translator("en")(refusal.msg)
    else:
        raise AssertionError(f"{typed} was not refused")
    hand = next(line for line in game.private_lines(state, seat, Translator("en")) if line.startswith("hand:"))
    return Secret(seat, typed, said, hand)


def to_move(session: Session) -> int:
    """The seat to move (to bid, while bidding)."""
    seat = DouDizhu().to_move(DouDizhu().from_json(session.state))
    assert seat is not None
    return seat


def deal(session: Session) -> int:
    """How many times the cards were dealt again (all passed)."""
    return DouDizhu().from_json(session.state).deal


async def long_nim(host: Host, channel: str, first: User, second: User, moves: int) -> None:
    """A Nim game of `moves` moves in `channel`, played through `host` directly (the adapter is
    not what is tested here): four heaps of 100, one stone a move. Its record is long."""
    await host.handle(Event(channel, first, "/nim start 100 100 100 100 max=1"))
    await host.handle(Event(channel, second, "/join"))
    for ply in range(moves):
        said = await host.handle(Event(channel, (first, second)[ply % 2], f"/take {ply // 100 + 1} 1"))
        assert "took 1 stone" in said[0].text, said
