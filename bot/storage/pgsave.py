"""A save on PostgreSQL in one round trip: the session's UPDATE with its version check, and its
seats, dropped moves, new move and outbox row written only when that UPDATE found the row, as one statement
(a CTE), which is its own transaction: no BEGIN and COMMIT trips. Saves with results (a game
rated in the transaction) are written by the store in a transaction, as before."""

from __future__ import annotations

import json
from typing import Any

from bot.session import Change, Session
from bot.storage.contract import aided_dump, dump, offer_outcome


def one_statement(session: Session, change: Change) -> tuple[str, list[Any]]:
    """A save without results as one statement (its own transaction): the session's UPDATE with
    its version check, and its seats, dropped moves and new move only if that UPDATE found the
    row; the statement returns whether it did."""
    params: list[Any] = [
        str(session.status), json.dumps(session.options), session.seed, dump(session.state), session.version + 1,
        session.deadline, *offer_outcome(session), session.ply, session.updated_at, session.bot_turn, session.id,
        session.version, aided_dump(session),
    ]
    sql = ["WITH u AS (UPDATE sessions SET status=$1, options=$2, seed=$3, state=$4, version=$5, deadline=$6,"
           " offer=$7, outcome=$8, ply=$9, updated_at=$10, bot_turn=$11, aided=$14 WHERE id=$12 AND version=$13"
           " RETURNING id)"]
    if session.seats != session.saved_seats:
        n = len(params)
        params += [[getattr(s, column) for s in session.seats] for column in SEAT_COLUMNS]
        sql.append(
            ", s AS (INSERT INTO seats (session_id, seat, user_id, name, handle, ai_level, away, accepted)"
            f" SELECT u.id, x.* FROM u, unnest(${n + 1}::int[], ${n + 2}::text[], ${n + 3}::text[], ${n + 4}::text[],"
            f" ${n + 5}::text[], ${n + 6}::bool[], ${n + 7}::bool[]) AS x ON CONFLICT (session_id, seat) DO UPDATE SET"
            " user_id=excluded.user_id, name=excluded.name, handle=excluded.handle, ai_level=excluded.ai_level,"
            " away=excluded.away, accepted=excluded.accepted)"
        )
    if change.drop_moves_from is not None:
        params.append(change.drop_moves_from)
        sql.append(f", d AS (DELETE FROM moves WHERE session_id IN (SELECT id FROM u) AND ply>=${len(params)})")
    if (m := change.move) is not None:
        n = len(params)
        params += [m.ply, m.seat, m.move, m.by_ai, json.dumps(m.state_before), m.at]
        sql.append(", m AS (INSERT INTO moves (session_id, ply, seat, move, by_ai, state_before, at)"
                   f" SELECT id, ${n + 1}, ${n + 2}, ${n + 3}, ${n + 4}, ${n + 5}, ${n + 6} FROM u)")
    if (notice := change.notice) is not None:
        n = len(params)
        params += [notice.key, notice.channel, notice.due, notice.owner, notice.lease]
        sql.append(", o AS (INSERT INTO outbox (key, channel, session_id, due, created_at, lease_owner,"
                   f" lease_until) SELECT ${n + 1}, ${n + 2}, id, ${n + 3}, ${n + 3}, ${n + 4}, {NOW} + ${n + 5}"
                   " FROM u)")
    sql.append(" SELECT count(*) = 1 FROM u")
    return "".join(sql), params


NOW = "date_part('epoch', clock_timestamp())"  # the lease clock: the server's, seconds since 1970
NOTICE = ("INSERT INTO outbox (key, channel, session_id, due, created_at, lease_owner, lease_until)"
          f" VALUES ($1, $2, $3, $4, $4, $5, {NOW} + $6)")
SEAT_COLUMNS = ("seat", "user_id", "name", "handle", "ai_level", "away", "accepted")
