"""The relay test game's picture (render.draw looks renderers up by module)."""

from tests.support.relay import render_relay as render

__all__ = ["render"]
