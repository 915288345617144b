"""The read-only web site: games, leaderboards, players and replays, off unless `--web-port`.

`access` says what may be shown and names it by unguessable ids, `pages` reads each page's data,
`replay` the positions and pictures of a finished game, `site` serves them (templates/, static/),
`chat` is the `/web on|off` command and the links chat messages carry to the site.
"""
