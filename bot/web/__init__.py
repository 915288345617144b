"""The read-only web site: games, leaderboards, players and replays (`Site`, off unless `--web-port`).

`access` says what may be shown and names it by unguessable ids, `pages` reads each page's data,
`replay` the positions and pictures of a finished game, `site` serves them (templates/, static/).
"""

from bot.web.site import Site

__all__ = ["Site"]
