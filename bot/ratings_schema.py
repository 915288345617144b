"""The tables of ratings (`bot.ladder`) and linked accounts (`bot.links`): the store's
third migration, in SQL that SQLite and PostgreSQL both read; and each result's part in
its game (`Game.roles`), which the ratings need to rate sides fairly."""

MIGRATION = """
    ALTER TABLE results ADD COLUMN role TEXT;
    CREATE TABLE ratings (
        game TEXT NOT NULL,
        player TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        PRIMARY KEY (game, player)
    );
    CREATE TABLE rated_games (
        session_id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        players TEXT NOT NULL,
        place TEXT NOT NULL,
        weight REAL NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX rated_games_by_players ON rated_games(game, players, at);
    CREATE INDEX rated_games_by_place ON rated_games(place, game);
    CREATE TABLE rating_changes (
        session_id INTEGER NOT NULL,
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        rating_from REAL NOT NULL,
        rating_to REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (session_id, player)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes(game, player, at);
    CREATE TABLE links (
        user_id TEXT PRIMARY KEY,
        identity TEXT NOT NULL
    );
    CREATE INDEX links_by_identity ON links(identity);
    CREATE TABLE link_codes (
        code TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE TABLE link_guesses (
        who TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX link_guesses_by_who ON link_guesses(who, at);
    """
