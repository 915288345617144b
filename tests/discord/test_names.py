"""People's names in what the bot writes on Discord show as typed, through the real discord.py
client: a display name shaped like markdown or a mention (`**bold**`, `<@&123>`, `@everyone`,
`_x_`, a backquoted word) is neither formatted nor made a mention pill, in the channel's messages
and in the answers only one person sees."""

from __future__ import annotations

import re

import pytest

from bot.adapters.discord.messages import chunks, literal
from tests.discord.conftest import ESCAPED, Bot, board_saying, first_channel, run, said_to, shown
from tests.discord.fake import FakeDiscord, Message, Person

NAMES = ("**bold**", "<@&123>", "@everyone", "_x_", "`code`", "# big", "[link](https://example.org)")


def unpinged(content: str) -> str:
    """What Discord shows of `content`, the bot's own ping of the player to move left out."""
    return shown(re.sub(r"^(<@\d+> ?)+", "", content))


def formats(content: str) -> list[str]:
    """What Discord would not show as typed: markdown, a mention or a tag, @everyone (after the
    bot's own ping of the player to move)."""
    body = ESCAPED.sub("", re.sub(r"^(<@\d+> ?)+", "", content))  # an escaped character is plain text
    found = re.findall(r"\*\*.+?\*\*|_.+?_|`.+?`|<[@#:t/][^>]*>|@everyone|@here|^#{1,3} |\[.+?\]\(.+?\)", body,
                       re.MULTILINE)
    return found


def names_in(message: Message, *names: str) -> bool:
    return all(name in unpinged(message.content) for name in names)


@pytest.mark.parametrize("name", NAMES)
def test_literal_shows_text_as_typed(name: str) -> None:
    text = f"{name} took 2 stones. It is {name}'s turn."
    assert unpinged(literal(text)) == text and formats(literal(text)) == []
    long = f"{name} " * 500  # cut into messages, never between an escape and what it escapes
    assert "".join(unpinged(piece) for piece in chunks(literal(long))) == long


async def test_names_shaped_like_markdown_or_mentions_show_as_typed(fake: FakeDiscord, bot: Bot) -> None:
    channel = first_channel(fake)
    people = [Person(201 + i, name) for i, name in enumerate(NAMES)]
    for n, (first, second) in enumerate(zip(people[::2], [*people[1::2], people[0]], strict=True)):
        await run(fake, first, "nim challenge", channel, user=second)  # "X challenges Y to Nim"
        lobby = (await fake.wait(lambda n=n: [m for m in fake.channel(channel) if "challenges" in m.content][n:]))[0]
        assert names_in(lobby, first.name, second.name) and formats(lobby.content) == []
        await fake.click(second, lobby, "Accept")
        board = await board_saying(fake, channel, "your move")  # "Nim begins: X vs Y. X, your move."
        assert names_in(board, first.name, second.name) and formats(board.content) == []
        refused = await run(fake, second, "move", channel, move="1 1")  # to them alone
        told = await said_to(fake, refused, "turn")
        assert told.ephemeral and names_in(told, first.name) and formats(told.content) == []
        await run(fake, first, "resign", channel)
        over = await board_saying(fake, channel, "resigned")
        assert names_in(over, second.name) and formats(over.content) == []
