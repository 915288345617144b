"""The stand-in Discord refuses what Discord refuses, seen through plain HTTP requests (the
adapter's tests are only as strict as it is)."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.discord.fake import TOKEN, FakeDiscord
from tests.support.pictures import png


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        yield session


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def rows(*counts: int) -> list[dict[str, Any]]:
    n = iter(range(1000))
    return [{"type": 1, "components": [button(f"b{next(n)}") for _ in range(count)]} for count in counts]


async def post(http: aiohttp.ClientSession, fake: FakeDiscord, payload: dict[str, Any],
               files: dict[str, tuple[str, bytes]] | None = None) -> tuple[int, dict[str, Any]]:
    url = f"{fake.api}/channels/{next(iter(fake.channels))}/messages"
    if files is None:
        async with http.post(url, json=payload) as response:
            return response.status, await response.json()
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for name, (filename, data) in files.items():
        form.add_field(name, data, filename=filename, content_type="image/png")
    async with http.post(url, data=form) as response:
        return response.status, await response.json()


@pytest.mark.parametrize(("payload", "why"), [
    ({"content": "x" * 2001}, "content: Must be 2000 or fewer"),
    ({}, "Cannot send an empty message"),
    ({"content": "hi", "components": rows(5, 5, 5, 5, 5, 1)}, "components: Must be 5 or fewer"),
    ({"content": "hi", "components": rows(6)}, "Must be between 1 and 5"),
    ({"content": "hi", "components": [{"type": 1, "components": [button("a", "L" * 81)]}]}, "label: Must be 80"),
    ({"content": "hi", "components": [{"type": 1, "components": [button("i" * 101)]}]}, "custom_id: Must be between"),
    ({"content": "hi", "components": [{"type": 1, "components": [button("a"), button("a")]}]}, "cannot be duplicated"),
    ({"content": "hi", "components": [{"type": 1, "components": [button("a", "")]}]}, "needs a label"),
    ({"embeds": [{"title": "t" * 257}]}, "title: Must be 256"),
    ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "Embed size exceeds"),
])
async def test_messages_discord_refuses(fake: FakeDiscord, http: aiohttp.ClientSession, payload: dict[str, Any],
                                        why: str) -> None:
    status, body = await post(http, fake, payload)
    assert status == 400 and why in body["message"], body
    fake.refused.clear()  # refused on purpose: not a fault of the bot


async def test_attachments_must_match_the_payload(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    picture = png()
    status, body = await post(http, fake, {"content": "a"}, {"files[0]": ("board.png", picture)})
    assert status == 400 and "not declared" in body["message"]
    declared = {"content": "a", "attachments": [{"id": 0, "filename": "other.png"}]}
    status, body = await post(http, fake, declared, {"files[0]": ("board.png", picture)})
    assert status == 400 and "filename does not match" in body["message"]
    status, body = await post(http, fake, {"content": "a", "attachments": [{"id": 1, "filename": "b.png"}]})
    assert status == 400 and "no file for attachment" in body["message"]
    fake.refused.clear()
    good = {"content": "a", "attachments": [{"id": 0, "filename": "board.png"}]}
    status, body = await post(http, fake, good, {"files[0]": ("board.png", picture)})
    assert status == 200 and body["attachments"][0]["filename"] == "board.png"


async def test_a_retry_before_retry_after_is_refused_again(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = next(iter(fake.channels))
    fake.rate_limit("POST", rf"channels/{channel}/messages", count=1, retry_after=0.5)
    url = f"{fake.api}/channels/{channel}/messages"
    async with http.post(url, json={"content": "one"}) as first:
        assert first.status == 429 and first.headers["Via"] and first.headers["X-RateLimit-Remaining"] == "0"
        assert float(first.headers["X-RateLimit-Reset-After"]) == 0.5 and first.headers["Retry-After"] == "1"
        assert (await first.json())["retry_after"] == 0.5
        limited_at = time.monotonic()
    async with http.post(url, json={"content": "two"}) as early:  # at once: still limited, though no 429 is queued
        assert early.status == 429
    assert len(fake.early) == 1
    while time.monotonic() - limited_at < 0.55:
        async with http.get(f"{fake.api}/users/@me") as other:  # another bucket: not limited
            assert other.status == 200
    async with http.post(url, json={"content": "three"}) as later:
        assert later.status == 200
