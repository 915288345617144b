"""The web site's handlers, through aiohttp's test client, on a SQLite file of real games
(`tests.web.games`): what each page shows, in which language, what it never shows (a private
channel's games, an unfinished game, hands before the end, account ids), escaping, bounds,
methods and headers."""

from __future__ import annotations

import io
import re

from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot import review
from bot.model import Event, User
from bot.session import SessionStatus
from bot.storage import PLACE
from bot.web import access
from bot.web.access import WEB
from bot.web.site import Site
from tests.conftest import Table
from tests.support.hostile import BIDI, BROKEN, CONTROLS, DIGITS, EMOJI, INVISIBLE, SCRIPTS
from tests.web.games import CONSOLE, GUILD, HOSTILE, PRIVATE, SHOWN, Played

TOKEN = re.compile(r"/game/([A-Za-z0-9_-]{22})\"")


async def page(client: TestClient, path: str, status: int = 200, **headers: str) -> str:
    response = await client.get(path, headers=headers)
    text = await response.text()
    assert response.status == status, (path, response.status, text[:500])
    return text


async def token_of(played: Played, channel: str, index: int = -1) -> str:
    session = played.sessions[channel][index]
    return (await access.game_ids(played.store, [session]))[session.id or 0]


async def test_the_start_page_lists_the_shown_channels_games_newest_first(client: TestClient, played: Played) -> None:
    html = await page(client, "/")
    tokens = TOKEN.findall(html)
    shown = [s for c in (CONSOLE, SHOWN) for s in played.sessions[c]]
    assert len(tokens) == len(shown) == 10
    private = await access.game_ids(played.store, played.sessions[PRIVATE])
    assert not set(private.values()) & set(tokens)
    assert html.count("<li") >= 10 and "Dou Dizhu" in html and "Gomoku" in html
    # newest first: the last game played is the first listed
    assert tokens[0] == await token_of(played, SHOWN)
    for name in ("nim", "gomoku", "doudizhu", "checkers"):
        assert f'href="/leaderboard/{name}"' in html


async def test_hostile_names_are_text_everywhere(client: TestClient, played: Played) -> None:
    for path in ("/", "/leaderboard/nim", f"/game/{await token_of(played, CONSOLE, 0)}"):
        html = await page(client, path)
        assert HOSTILE not in html and "<script>alert" not in html, path
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;amp;" in html, path


async def test_a_replay_has_every_position_and_its_pictures(client: TestClient, played: Played) -> None:
    session = played.sessions[CONSOLE][0]
    moves = await played.store.moves(session.id or 0)
    token = await token_of(played, CONSOLE, 0)
    html = await page(client, f"/game/{token}")
    assert html.count('data-ply="') == len(moves) + 1
    assert "wins" in html and f"Move {len(moves)} of {len(moves)}" in html
    for ply in (0, len(moves)):
        response = await client.get(f"/game/{token}/en/{ply}.png")
        assert response.status == 200 and response.content_type == "image/png"
        assert "max-age" in response.headers["Cache-Control"]
        image = Image.open(io.BytesIO(await response.read()))
        assert image.width >= 400 and image.getextrema() != ((255, 255),) * 3
    await page(client, f"/game/{token}/en/{len(moves) + 1}.png", 404)
    await page(client, f"/game/{token}/xx/0.png", 404)
    html = await page(client, f"/game/{token}?ply=1")
    assert 'data-ply="1" aria-current="step"' in html and "Move 1 of" in html


async def test_dou_dizhu_hands_show_once_the_game_is_over_and_never_before(client: TestClient,
                                                                            played: Played) -> None:
    finished = played.sessions[CONSOLE][-1]
    assert finished.game == "doudizhu" and finished.status == SessionStatus.FINISHED
    html = await page(client, f"/game/{await token_of(played, CONSOLE, -1)}")
    assert html.count("hand:") >= 3  # every seat's hand at the shown position, and in the steps' data
    assert "hand: no cards left" in html  # the winner's, at the end, said in words
    zh = await page(client, f"/game/{await token_of(played, CONSOLE, -1)}?lang=zh")
    assert "。得分：" in zh and "。 得分" not in zh  # a Chinese full stop wants no space after it
    assert "手牌：已出完" in zh and "手牌：<" not in zh and not re.search(r"手牌：\s*[<\"]", zh)
    active = played.active
    assert active is not None and active.status == SessionStatus.PLAYING
    token = (await access.game_ids(played.store, [active]))[active.id or 0]  # as if a link had leaked
    await page(client, f"/game/{token}", 404)
    await page(client, f"/game/{token}/en/0.png", 404)


async def test_a_private_channels_games_cannot_be_reached(client: TestClient, played: Played) -> None:
    token = await token_of(played, PRIVATE, 0)  # even knowing its web id
    html = await page(client, f"/game/{token}", 404)
    assert "Not found" in html and "Nim" not in html
    await page(client, f"/game/{token}/en/0.png", 404)
    await page(client, f"/game/{played.sessions[PRIVATE][0].id}", 404)  # a session's number is no id
    await page(client, "/game/AAAAAAAAAAAAAAAAAAAAAA", 404)
    # /web off hides what was shown; on again shows it
    shown = await token_of(played, SHOWN, 0)
    await page(client, f"/game/{shown}")
    await played.store.set_setting(SHOWN, WEB, "off")
    await page(client, f"/game/{shown}", 404)
    await page(client, f"/game/{shown}/en/0.png", 404)
    assert shown not in await page(client, "/")
    await played.store.set_setting(PRIVATE, WEB, "on")
    await page(client, f"/game/{token}")


async def test_the_leaderboard_pages_and_places(client: TestClient, played: Played) -> None:
    html = await page(client, "/leaderboard/nim")
    assert "Page 1 of 1" in html and html.count('href="/player/') >= 4
    assert "console:" not in html and "discord:" not in html  # display names only
    await page(client, "/leaderboard/chess", 404)
    assert "Page 1 of 1" in await page(client, "/leaderboard/nim?page=99999999999")
    assert "Page 1 of 1" in await page(client, "/leaderboard/nim?page=-3")
    assert "排行榜" in await page(client, "/leaderboard/五子棋?lang=zh")
    places = await access.ids(played.store, access.PLACE_KIND, [GUILD, "console", "discord:guild:99"])
    assert await played.store.setting(SHOWN, PLACE) == GUILD
    assert "One Discord server" in await page(client, f"/leaderboard/nim?lang=en&place={places[GUILD]}")
    await page(client, f"/leaderboard/nim?place={places['discord:guild:99']}", 404)  # no channel of it allows
    await page(client, "/leaderboard/nim?place=nothing", 404)
    await played.store.set_setting(SHOWN, WEB, "off")  # the guild's only channel that allowed it
    await page(client, f"/leaderboard/nim?place={places[GUILD]}", 404)


async def test_a_players_page(client: TestClient, played: Played) -> None:
    board = await page(client, "/leaderboard/nim")
    link = re.search(r'href="(/player/[^"]+)"><bdi>Erin 小红</bdi><', board)
    assert link is not None
    html = await page(client, link.group(1))
    assert "<h1 class=\"player\">Erin 小红</h1>" in html and "discord:erin" not in html
    assert "<polyline points=" in html and "Nim" in html and "Dou Dizhu" in html
    games = TOKEN.findall(html)
    private = set((await access.game_ids(played.store, played.sessions[PRIVATE])).values())
    assert games and not private & set(games)  # Erin played in PRIVATE too: not listed
    await page(client, "/player/nobody", 404)


async def test_languages_from_the_browser_the_switch_and_the_cookie(client: TestClient) -> None:
    assert "最近的对局" in await page(client, "/", **{"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert "Recent games" in await page(client, "/", **{"Accept-Language": "fr-FR, en;q=0.5, zh;q=0.4"})
    assert "Recent games" in await page(client, "/")
    response = await client.get("/?lang=zh", headers={"Accept-Language": "en"})
    assert "最近的对局" in await response.text() and response.cookies["lang"].value == "zh"
    assert "最近的对局" in await page(client, "/", **{"Accept-Language": "en"})  # the cookie, kept by the client
    html = await page(client, "/?lang=en")
    assert 'href="/?lang=zh"' in html and "Recent games" in html


async def test_get_only_bounded_and_with_headers(client: TestClient) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = await client.request(method, "/")
        assert response.status == 405, method
    response = await client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Cache-Control"] == "public, max-age=60" and "Accept-Language" in response.headers["Vary"]
    assert response.headers["Referrer-Policy"] == "no-referrer"
    response = await client.get("/static/replay.js")
    assert response.status == 200 and "max-age" in response.headers["Cache-Control"]
    assert (await client.get("/static/../site.py")).status in (403, 404)
    assert (await client.get("/metrics")).status == 404
    assert "Page 1" not in await page(client, "/?page=100000")  # past the last: an empty list, not an error


async def test_a_store_that_cannot_answer_is_a_503(client: TestClient, played: Played) -> None:
    token = await token_of(played, CONSOLE, 0)
    await played.store.close()
    assert "The game storage is unavailable" in await page(client, "/", 503)
    await page(client, f"/game/{token}", 503)
    await page(client, f"/game/{token}/en/0.png", 503)


async def test_hostile_names_of_every_kind(table: Table) -> None:
    """People named with every kind of hostile text (cleaned where events come in, as in chat): each
    page answers, in UTF-8, with no bidi override, and the pictures are drawn."""
    names = ["".join(kind) for kind in (DIGITS, CONTROLS, BIDI, INVISIBLE, EMOJI, BROKEN, SCRIPTS)]
    for n, name in enumerate(names):
        a, b = User(f"console:h{n}", name), User(f"console:o{n}", name[::-1])
        await table.host.handle(Event(table.channel, a, "/nim start 1 1"))
        await table.host.handle(Event(table.channel, b, "/join"))
        await table.host.handle(Event(table.channel, a, "/take 1 1"))
        await table.host.handle(Event(table.channel, b, "/take 2 1"))
    async with TestClient(TestServer(Site(table.host.core).app())) as client:
        home = await page(client, "/")
        tokens = TOKEN.findall(home)
        assert len(tokens) == len(names)
        board = await page(client, "/leaderboard/nim")
        players = re.findall(r'href="(/player/[^"]+)"', board)
        assert len(players) == 2 * len(names)
        for html in [home, board] + [await page(client, p) for p in players[:4]] + [
            await page(client, f"/game/{t}") for t in tokens
        ]:
            assert not set(html) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
            html.encode("utf-8")
        for token in tokens:
            response = await client.get(f"/game/{token}/zh/2.png")
            assert response.status == 200 and (await response.read())[:4] == b"\x89PNG"


async def test_a_reviewed_game_shows_its_review_and_the_site_never_starts_one(client: TestClient, site: Site,
                                                                             played: Played) -> None:
    token, other = await token_of(played, CONSOLE, 0), await token_of(played, CONSOLE, 1)
    assert 'id="review"' not in await page(client, f"/game/{token}")
    await page(client, f"/game/{token}/en/review.png", 404)  # not reviewed: nothing made on a web request
    assert await played.store.review(played.sessions[CONSOLE][0].id or 0) is None
    await review.reviewed(site.core, played.sessions[CONSOLE][0])  # as /review in chat does
    html = await page(client, f"/game/{token}?lang=zh")
    assert 'id="review"' in html and "复盘分析" in html
    response = await client.get(f"/game/{token}/zh/review.png")
    assert response.status == 200 and Image.open(io.BytesIO(await response.read())).width >= 400
    assert 'id="review"' not in await page(client, f"/game/{other}")
