"""The web server: a small read-only site (aiohttp, Jinja2 templates), off unless `--web-port`.

Its own port, apart from `/metrics` (`bot.ops`), so a reverse proxy can publish the one without
the other. GET (and HEAD) only; every page is bounded (a page of rows, a page number capped);
every string in a page is escaped by Jinja2's autoescape (hostile names stay text); the
Content-Security-Policy allows only the site's own script and style. The language is the one
asked for (`?lang=`, then kept in a cookie), else the browser's (`Accept-Language`), else
English. Links start with the path of `--web-url`, so the site may live under a prefix
(`https://example.org/games/`) that the proxy strips.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from aiohttp import web

from bot.core import Core
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, language_of, translator
from bot.ops import Served
from bot.storage import StorageUnavailable
from bot.web import access, events, pages, replay
from engines.base import msg

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
PAGE_SECONDS = 60  # how long a browser or proxy may keep a page
PICTURE_SECONDS = 86400  # a finished game's picture does not change
LANG_COOKIE = "lang"
NATIVE = {"en": "English", "zh": "中文"}  # each language by its own name, in the switch
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self';"
                               " base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a page's URL (its web id) goes nowhere else
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def chosen_language(request: web.Request) -> tuple[str, bool]:
    """The reader's language, and whether they asked for it just now (`?lang=`: kept in a cookie)."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked, True
    kept = request.cookies.get(LANG_COOKIE, "")
    if kept in LANGUAGES:
        return kept, False
    return accepted(request.headers.get("Accept-Language", "")), False


def accepted(header: str) -> str:
    """The first language of an `Accept-Language` header that there are catalogs for, by its weight."""
    choices = []
    for n, part in enumerate(header.split(",")[:20]):
        locale, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            continue
        language = language_of(locale.strip())
        if language is not None and q > 0:
            choices.append((-q, n, language))
    return min(choices)[2] if choices else DEFAULT_LANGUAGE


class Site(Served):
    """The site of `core`'s store; `url`: its public address (the links' prefix is its path)."""

    what = "the web site"

    def __init__(self, core: Core, url: str | None = None, listen: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(listen, port)
        self.core = core
        self.root = urlsplit(url or "").path.rstrip("/")
        self.pictures = replay.Pictures(core)
        self.templates = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                            undefined=jinja2.StrictUndefined)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/leaderboard/{game}", self._leaderboard)
        app.router.add_get("/player/{token}", self._player)
        app.router.add_get("/game/{token}", self._game)
        app.router.add_get("/tournament/{token}", self._tournament)
        app.router.add_get(r"/game/{token}/{lang:[a-z]{2}}/{ply:\d{1,6}}.png", self._picture)
        app.router.add_get(r"/game/{token}/{lang:[a-z]{2}}/review.png", self._picture)
        app.router.add_static("/static", HERE / "static")
        return app

    # --- pages ---------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.StreamResponse:
        return await self._page(request, "index.html", lambda tr: pages.index(self.core, tr, self._page_of(request)))

    async def _leaderboard(self, request: web.Request) -> web.StreamResponse:
        game = self.core.game_words.get(request.match_info["game"].lower(), "")
        return await self._page(request, "leaderboard.html", lambda tr: pages.leaderboard(
            self.core, tr, game, self._page_of(request), request.query.get("place")))

    async def _player(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        return await self._page(request, "player.html",
                                lambda tr: pages.player(self.core, tr, token, self._page_of(request)))

    async def _game(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        ply = request.query.get("ply")
        return await self._page(request, "game.html", lambda tr: pages.game(self.core, tr, token, ply))

    async def _tournament(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        return await self._page(request, "event.html", lambda tr: events.tournament(self.core, tr, token))

    async def _picture(self, request: web.Request) -> web.StreamResponse:
        language, ply = request.match_info["lang"], request.match_info.get("ply")
        image = None
        try:
            session = await access.shown_game(self.core.store, request.match_info["token"])
            if session is not None and language in LANGUAGES:
                tr = translator(language)
                image = await (self.pictures.picture(session, int(ply), tr) if ply is not None
                               else self.pictures.review(session, tr))
        except StorageUnavailable:
            raise web.HTTPServiceUnavailable(text="unavailable\n") from None
        if image is None:
            raise web.HTTPNotFound(text="not found\n")
        return web.Response(body=image, content_type="image/png",
                            headers={"Cache-Control": f"public, max-age={PICTURE_SECONDS}"})

    @staticmethod
    def _page_of(request: web.Request) -> int:
        return pages.page_number(request.query.get("page"))

    async def _page(self, request: web.Request, template: str,
                    read: Callable[[Translator], Awaitable[dict[str, Any]]]) -> web.StreamResponse:
        language, asked = chosen_language(request)
        tr = translator(language)
        try:
            data, status = await read(tr), 200
        except access.NotFound:
            data, status, template = {}, 404, "missing.html"
        except StorageUnavailable:
            data, status, template = {}, 503, "missing.html"
        html = self.render(template, tr, request, data | {"status": status})
        response = web.Response(text=html, status=status, content_type="text/html", headers={
            "Cache-Control": f"public, max-age={PAGE_SECONDS}" if status == 200 else "no-store",
            "Vary": "Accept-Language, Cookie", "Content-Language": language})
        if asked:
            response.set_cookie(LANG_COOKIE, language, max_age=365 * 86400, samesite="Lax", path=self.root or "/")
        return response

    def render(self, template: str, tr: Translator, request: web.Request, data: dict[str, Any]) -> str:
        def say(key: str, **params: Any) -> str:
            return tr(msg(f"web.{key}", **params))

        switch = {language: self.root + str(request.rel_url.update_query(lang=language)) for language in LANGUAGES}
        return self.templates.get_template(template).render(
            **data, _=say, tr=tr, lang=tr.language, switch=switch, native=NATIVE, root=self.root,
        )

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as error:
            response = error
        for name, value in SECURITY.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/static/"):
            response.headers.setdefault("Cache-Control", f"public, max-age={PAGE_SECONDS * 60}")
        if isinstance(response, web.HTTPException):
            raise response
        return response
