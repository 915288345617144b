"""Pictures of games: `draw(game, view, ctx)` -> PNG bytes, by the game's renderer."""

from __future__ import annotations

from importlib import import_module

from engines.base import JSON
from render.base import RenderContext

# game -> renderer module, where it is not render.<game>
MODULES: dict[str, str] = {}


def draw(game: str, view: JSON, ctx: RenderContext) -> bytes:
    picture: bytes = import_module(MODULES.get(game, f"render.{game}")).render(view, ctx)
    return picture


def load_all() -> None:
    """Import every registered game's renderer and open the fonts (a picture worker does this at start)."""
    import engines
    from render.text import text_width

    for game in engines.REGISTRY:
        import_module(MODULES.get(game, f"render.{game}"))
    text_width("Aa 中文 😀", 20)
    text_width("Aa", 20, bold=True)
