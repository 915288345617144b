"""Mutation testing by hand: a curated list of mutations of bot/ and the adapters, each a small
change that breaks one thing the README promises or a platform requires. Each is applied alone
to a copy of the repository and the tests that should notice run there (pytest -x); a mutation
whose tests still pass survived, and shows a gap in the tests. Not part of the test run.

Why a curated list rather than a tool (mutmut, cosmic-ray): over bot/ those generate thousands
of mutants, most of which every test of the host reaches, so a run takes many hours on a 2-core
machine; these mutations are the breaks that matter (each breaks one promise or one platform
rule), and the whole list runs in about half an hour.

    nice -n 10 .venv/bin/python -m bench.mutations            # every mutation
    .venv/bin/python -m bench.mutations --list                # what they are
    .venv/bin/python -m bench.mutations store.version conflict  # some, by name (a prefix is enough)

A mutation whose text is no longer in its file is reported "stale" (the code moved on: update
the list), one that does not compile "broken"; neither is counted.
"""

# ruff: noqa: E501  (the mutations quote code: splitting them would make them harder to read)
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600  # seconds one mutation's tests may take (a hang counts as killed)


@dataclass(frozen=True)
class Mutation:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    why: str


def m(name: str, path: str, old: str, new: str, tests: str, why: str) -> Mutation:
    return Mutation(name, path, old, new, tuple(tests.split()), why)


MUTATIONS = [
    # --- storage and the order of commit and reply ---
    m("store.version", "bot/storage/grouped.py", " WHERE id=? AND version=?\")", " WHERE id=? AND ?>=0\")",
      "tests/bot/test_promises.py tests/bot/test_conflict.py", "a stale write overwrites (no version check)"),
    m("store.pg_version", "bot/storage/pgsave.py", " WHERE id=$12 AND version=$13 RETURNING id)", " WHERE id=$12 AND $13>=0 RETURNING id)",
      "tests/bot/test_promises.py", "PostgreSQL: a stale write overwrites (no version check)"),
    m("store.conflict", "bot/storage/grouped.py", "    if conn.execute(UPDATE, update).rowcount != 1:\n        return False",
      "    conn.execute(UPDATE, update)", "tests/bot/test_promises.py tests/bot/test_conflict.py", "a write that found nothing passes"),
    m("store.move_row", "bot/storage/grouped.py", "    if move is not None:\n        conn.execute(MOVE, move)", "    if False:\n        conn.execute(MOVE, move)",
      "tests/bot/test_persistence.py tests/bot/test_promises.py", "moves are not recorded"),
    m("store.group_one_by_one", "bot/storage/grouped.py", "self._waiting[:MOST], self._waiting[MOST:]", "self._waiting[:1], self._waiting[1:]",
      "tests/bot/test_storage_contract.py", "SQLite: saves that arrive together are committed one by one (no group commit)"),
    m("store.group_one_fails_all", "bot/storage/grouped.py", "                    outcomes.append(error)\n", "                    raise\n",
      "tests/bot/test_storage_contract.py", "SQLite: one save's error fails every save of its transaction"),
    m("core.commit_after_reply", "bot/core.py", "        await self.store.save(session, change)\n",
      "        async def later() -> None:\n            await asyncio.sleep(0.2)\n            await self.store.save(session, "
      "change)\n        self._later = asyncio.ensure_future(later())\n",
      "tests/bot/test_promises.py tests/telegram/test_promises.py tests/discord/test_promises.py",
      "the move is saved in the background after the reply"),
    m("core.no_wake", "bot/core.py", "        self.changed(session)\n", "",
      "tests/bot/test_timers.py tests/bot/test_supervision.py", "a commit tells neither the bots nor the timers"),
    m("host.no_lock", "bot/host.py", "        async with self.core.locks[event.channel], self.outbox.collect():",
      "        async with asyncio.Lock(), self.outbox.collect():", "tests/bot/test_concurrency.py",
      "commands of one channel run at once"),
    m("host.stale_buttons", "bot/host.py", "    return version == \"*\" or int(version) == session.version",
      "    return True", "tests/bot/test_flows.py tests/discord/test_running.py", "an old button still acts"),
    m("host.conflict_escapes", "bot/host.py", "        except Conflict:\n            replies = [notice(event.user, reader, "
      "t(\"host.try_again\"))]\n", "", "tests/bot/test_conflict.py", "a Conflict escapes Host.handle"),
    # --- background play ---
    m("autoplay.no_timer_loop", "bot/autoplay.py", "        self.spawn(self._timer_loop())", "        pass",
      "tests/bot/test_timers.py", "the timer loop never starts"),
    m("supervised.backoff_constant", "bot/supervised.py", "FIRST_BACKOFF * 2 ** min(failures - 1, 30)", "FIRST_BACKOFF",
      "tests/bot/test_supervision.py", "the back-off does not double"),
    m("autoplay.three_forfeit", "bot/autoplay.py", "        if len(session.seats) == 2:", "        if True:",
      "tests/bot/test_timers.py tests/bot/test_flows.py", "in a game of three a time-out loses the game"),
    m("autoplay.stale_ai_move", "bot/autoplay.py",
      "                if current is None or current.version != session.version:",
      "                if current is None:", "tests/bot/test_bot_turns.py tests/bot/test_flows.py "
      "tests/bot/test_concurrency.py tests/bot/test_supervision.py", "the bot plays a move thought for a game that changed meanwhile"),
    m("autoplay.no_fallback", "bot/autoplay.py", "            return game.legal_moves(state, seat)[0]",
      "            raise", "tests/bot/test_supervision.py", "a failing AI leaves the game stuck"),
    m("ai.thread", "bot/workers.py", "        if self.count == 0:\n            return ThreadPoolExecutor",
      "        if True:\n            return ThreadPoolExecutor", "tests/bot/test_ai_process.py tests/bot/test_pictures.py",
      "the AI thinks and the pictures are drawn in threads of the host"),
    m("ai.no_new_pool", "bot/workers.py", "                self._pool = self._new_pool()", "                pass",
      "tests/bot/test_ai_pool.py", "a pool whose worker died is not replaced"),
    # --- the rules of the table ---
    m("play.no_deadline", "bot/play.py",
      "    session.deadline = core.clock() + session.turn_seconds if waits else None",
      "    session.deadline = session.deadline if waits else None",
      "tests/bot/test_flows.py tests/bot/test_timers.py", "the timer does not restart with each move"),
    m("offers.no_consent", "bot/offers.py", "    if not others:  # against the AI", "    if True:  # against the AI",
      "tests/bot/test_flows.py", "an undo against people needs nobody's consent"),
    m("offers.own_offer", "bot/offers.py", "    if seat.seat == offer.seat:\n        raise Refusal(\"host.own_offer\")",
      "    if False:\n        pass",
      "tests/bot/test_flows.py", "one may accept one's own request"),
    m("lobby.anyone_accepts", "bot/lobby.py", "        if seat is None:\n            raise Refusal(\"host.not_invited\")",
      "        if seat is None:\n            seat = next(s for s in session.seats if s.user_id is None or True)",
      "tests/bot/test_flows.py tests/discord/test_play.py", "anyone may accept a challenge"),
    m("lobby.cancel_anyone", "bot/lobby.py", "        if r.user.id != session.starter:", "        if False:",
      "tests/bot/test_flows.py", "anyone may cancel a table"),
    m("lobby.cancel_after_moves", "bot/lobby.py", "        if session.ply > 0:", "        if False:",
      "tests/bot/test_flows.py", "the starter may cancel a game under way"),
    m("commands.too_long", "bot/parser.py", "    if len(text) > MAX_TEXT:", "    if False:",
      "tests/bot/test_input.py tests/bot/test_commands.py", "a command of any length is read"),
    # --- what is shown to whom ---
    m("info.hint_public", "bot/info.py", "    return [secret(r.user, r.reader, t(\"host.hint\", move=text))]",
      "    return [Reply(r.tr(t(\"host.hint\", move=text)), audience=EVERYONE)]",
      "tests/bot/test_flows.py tests/discord/test_play.py tests/telegram/test_private.py",
      "a hint is shown to the whole channel"),
    m("info.hints_off", "bot/info.py", "    if await core.store.setting(session.channel, HINTS) == \"off\":", "    if False:",
      "tests/bot/test_flows.py", "hints are given where the channel turned them off"),
    m("info.hint_out_of_turn", "bot/info.py", "    if game.to_move(game.from_json(session.state)) != seat.seat:\n"
      "        raise Refusal(\"host.not_your_turn\")", "", "tests/bot/test_flows.py",
      "a hint for a player whose turn it is not"),
    m("clean.quote_length", "bot/clean.py", "QUOTE_MAX = 40", "QUOTE_MAX = 400", "tests/bot/test_input.py",
      "a refusal quotes all that was typed"),
    m("replies.board_seat_view", "bot/replies.py", "    view = game.view(state, None)\n    mentions",
      "    view = game.view(state, to_move)\n    mentions", "tests/bot/test_hidden_pictures.py",
      "the public board is drawn from the player's view"),
    m("replies.hand_public", "bot/replies.py", "                       audience=Private(player.user_id or \"\"),",
      "                       audience=EVERYONE,", "tests/bot/test_hidden_hands.py",
      "a hidden hand goes to the channel"),
    m("clean.bidi", "bot/clean.py", "    return BIDI.sub(\"\", BREAKING.sub(", "    return (\"\" + BREAKING.sub(",
      "tests/bot/test_input.py", "bidi overrides reach the names and texts"),
    m("clean.name_length", "bot/clean.py", "    return cleaned if len(cleaned) <= NAME_MAX else", "    return cleaned if True else",
      "tests/bot/test_input.py", "names are not cut (NAME_MAX = 320 survives: the tests follow the constant)"),
    m("languages.person_ignored", "bot/languages.py",
      "        return translator(language) if language is not None else channel", "        return channel",
      "tests/bot/test_languages.py", "what one person sees ignores their language"),
    m("host.card_refusal_public", "bot/host.py", "            told = secret if self._holds_hidden(session, event.user.id) else notice",
      "            told = notice", "tests/bot/test_audience.py tests/console/test_console.py tests/telegram/test_private.py",
      "a refusal that tells a player's cards ('You have no second 7') is not secret"),
    m("model.public_takes_private", "bot/model.py", "        if isinstance(self.reply.audience, Private):\n            raise TypeError",
      "        if False:\n            raise TypeError", "tests/bot/test_audience.py tests/discord/test_private.py",
      "a Private reply can be made Public (posted to a channel)"),
    m("replies.redeal_hands_wait", "bot/replies.py", "            concerned = {moves[-1].seat} | _hands_changed(game, session, moves[-1].state_before, tr)",
      "            concerned = {moves[-1].seat}", "tests/console/test_console.py tests/telegram/test_hands.py tests/discord/test_hand.py",
      "after all passed, the new hands reach the players only when they move"),
    # --- Telegram ---
    m("telegram.ping_stays", "bot/adapters/telegram/outgoing.py",
      "        if reply.over and reply.session is not None and origin.private_chat is None:",
      "        if False:", "tests/telegram/test_games.py", "the last 'your move' ping stays after the game ends"),
    m("telegram.record_as_text", "bot/adapters/telegram/outgoing.py",
      "        if reply.image is None and reply.document and len(body) > TEXT_MAX:",
      "        if False:", "tests/telegram/test_limits.py", "a long record is sent as many messages"),
    m("telegram.private_answer_to_group", "bot/adapters/telegram/outgoing.py",
      "        if isinstance(reply.audience, Private):\n            await self._send_private(origin, reply)\n        elif",
      "        if isinstance(reply.audience, Private):\n            await self._send_text(origin.chat_id, reply.text, None)\n        elif",
      "tests/telegram/test_private.py", "a Private answer (a hint) goes to the group"),
    m("telegram.caption_cut", "bot/adapters/telegram/outgoing.py", "caption = _fit_html(caption, CAPTION_MAX)",
      "caption = _fit(caption, CAPTION_MAX)", "tests/telegram/test_limits.py",
      "a long caption is cut inside its HTML"),
    m("telegram.no_split", "bot/adapters/telegram/outgoing.py", "        chunks = _chunks(body, TEXT_MAX)",
      "        chunks = [body]", "tests/telegram/test_limits.py", "a text over 4,096 characters is sent whole"),
    m("telegram.buttons_100", "bot/adapters/telegram/outgoing.py", "[:BUTTONS_MAX]", "",
      "tests/telegram/test_limits.py", "more than 100 buttons"),
    m("telegram.callback_64", "bot/adapters/telegram/outgoing.py", "1 <= len(b.id.encode()) <= CALLBACK_DATA_MAX and ",
      "", "tests/telegram/test_limits.py", "callback data over 64 bytes"),
    m("telegram.hand_to_group", "bot/adapters/telegram/outgoing.py",
      "        if isinstance(reply.audience, Private):\n            await self._send_private(origin, reply)",
      "        if False:\n            pass",
      "tests/telegram/test_private.py tests/telegram/test_hidden_pictures.py", "a hidden hand goes to the group"),
    m("telegram.board_not_edited", "bot/adapters/telegram/outgoing.py",
      "        if not ids and board is not None and board.session == session and not origin.fresh_board:",
      "        if False:", "tests/telegram/test_games.py", "every board is a new message"),
    m("telegram.board_not_kept", "bot/adapters/telegram/outgoing.py",
      "        await self.notes.put(f\"{TELEGRAM}:{chat_id}\", BOARD_NOTE, asdict(board))", "        pass",
      "tests/telegram/test_games.py", "the board's message id is not kept across a restart"),
    m("telegram.no_ping", "bot/adapters/telegram/outgoing.py",
      "            if board is not None and target is not None and target != board.pinged:", "            if False:",
      "tests/telegram/test_games.py tests/telegram/test_boards.py", "an edited board pings nobody"),
    m("telegram.no_retry", "bot/adapters/telegram/adapter.py", "    max_retries: int = 10", "    max_retries: int = 0",
      "tests/telegram/test_games.py", "a 429 is not waited out"),
    m("telegram.typing_throttled", "bot/adapters/telegram/plumbing.py",
      "            data = {k: v for k, v in data.items() if k != \"chat_id\"}", "            pass",
      "tests/telegram/test_flood.py", "a typing action waits for the group's message budget"),
    m("telegram.chat_order", "bot/adapters/telegram/plumbing.py", "            async with lock:\n                await coroutine",
      "            await coroutine", "tests/telegram", "updates of one chat run at once"),
    m("telegram.inline_someone_elses", "bot/adapters/telegram/inline.py",
      "    user_id = f\"{TELEGRAM}:{query.from_user.id}\"", "    user_id = f\"{TELEGRAM}:101\"",
      "tests/telegram/test_hands.py", "inline mode shows one player's hand to everyone"),
    # --- Discord ---
    m("discord.record_as_text", "bot/adapters/discord/messages.py",
      "    if reply.document is None or len(text) <= MAX_CONTENT:", "    if True:",
      "tests/discord/test_limits.py", "a long record is sent as many messages"),
    m("discord.followup_public", "bot/adapters/discord/messages.py",
      "    await interaction.followup.send(last or \"\", ephemeral=True,",
      "    await interaction.followup.send(last or \"\", ephemeral=False,",
      "tests/discord/test_hand.py tests/discord/test_play.py", "a private answer is posted for everyone"),
    m("discord.no_split", "bot/adapters/discord/messages.py", "    while len(text) > MAX_CONTENT:",
      "    while len(text) > 20 * MAX_CONTENT:", "tests/discord/test_limits.py", "content over 2,000 characters"),
    m("discord.label", "bot/adapters/discord/messages.py", "label=button.label[:MAX_LABEL]", "label=button.label",
      "tests/discord/test_limits.py", "labels over 80 characters"),
    m("discord.private_to_channel", "bot/adapters/discord/bot.py",
      "            if isinstance(reply.audience, Everyone):\n                try:",
      "            if True:\n                try:",
      "tests/discord/test_hand.py tests/discord/test_hidden_pictures.py",
      "one's own hand is posted to the channel"),
    m("discord.ping_everyone", "bot/adapters/discord/channels.py",
      "        allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,",
      "        allowed = discord.AllowedMentions(everyone=True, roles=True, replied_user=False,",
      "tests/discord/test_play.py", "a board may ping everyone"),
    m("discord.old_board_kept", "bot/adapters/discord/channels.py",
      "                await edit(target, old_board, attachments=[], view=None)", "                pass",
      "tests/discord/test_play.py", "old boards keep their pictures and buttons"),
    m("discord.messages_not_kept", "bot/adapters/discord/channels.py",
      "            await self.notes.put(channel, MESSAGES, known)\n            if old_board", "            if old_board",
      "tests/discord/test_running.py tests/discord/test_restart_buttons.py", "the board's id is not kept across a restart"),
    m("discord.no_defer", "bot/adapters/discord/bot.py", "        if not await defer(interaction, thinking=False):\n"
      "            return\n", "", "tests/discord/test_play.py", "a click is not acknowledged"),
    m("discord.restart_clicks", "bot/adapters/discord/bot.py", "        custom_id = str(data.get(\"custom_id\", \"\"))\n",
      "        custom_id = str(data.get(\"custom_id\", \"\"))\n        if channel_key(interaction.channel_id or 0) not in "
      "self._messages:\n            return\n", "tests/discord/test_restart_buttons.py",
      "buttons work only for messages this process posted"),
    # --- logs, metrics, health, deploy ---
    m("logs.no_filter", "bot/logs.py", "    handler.addFilter(_redact)", "    pass",
      "tests/bot/test_logs.py tests/telegram/test_secrets_in_logs.py", "the token reaches the logs (httpx's request URLs)"),
    m("logs.traceback", "bot/logs.py", "            record.exc_text = self.clean(self._plain.formatException(record.exc_info))\n            record.exc_info = None", "            pass",
      "tests/bot/test_logs.py", "a token in an exception's text is printed in its traceback"),
    m("logs.shapes", "bot/logs.py", "        for pattern, replacement in SHAPES:", "        for pattern, replacement in []:",
      "tests/bot/test_logs.py tests/discord/test_secrets_in_logs.py", "interaction tokens and unknown tokens are not masked"),
    m("metrics.moves", "bot/play.py", "    metrics.moved(game.name, by_ai)", "    pass",
      "tests/bot/test_ops.py", "moves are not counted"),
    m("metrics.stale_gauge", "bot/metrics.py", "            gauge.labels(sample.labels[\"game\"]).set(0)", "            pass",
      "tests/bot/test_ops.py", "a game nobody plays any more keeps its last count"),
    m("ops.always_ready", "bot/ops.py", 'return {"ready": all(v == "up" for v in found.values()), **found}', 'return {"ready": True, **found}',
      "tests/bot/test_ops.py", "/readyz says ready with the storage or a platform down"),
    m("ops.telegram_reach", "bot/adapters/telegram/plumbing.py", "            self.reach.up = False", "            pass",
      "tests/telegram/test_ops.py", "Telegram unreachable, yet ready"),
    m("ops.discord_429", "bot/adapters/discord/bot.py", "            metrics.rate_limited(DISCORD, float(wait or 0))", "            pass",
      "tests/discord/test_ops.py", "Discord's 429 waits are not counted"),
    m("main.sigterm", "bot/main.py", "    loop.add_signal_handler(signal.SIGTERM, stopped.set)", "    pass",
      "tests/telegram/test_ops.py", "SIGTERM (docker stop, systemd) kills gamehost without closing the platforms and the store"),
]


def copy_repository(into: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)


def run(mutation: Mutation, tree: Path) -> tuple[str, float]:
    """"killed", "survived", "stale" or "broken", and the seconds its tests took."""
    target = tree / mutation.path
    original = target.read_text()
    if original.count(mutation.old) != 1:
        return "stale", 0.0
    mutated = original.replace(mutation.old, mutation.new)
    try:
        compile(mutated, str(target), "exec")
    except SyntaxError:
        return "broken", 0.0  # a mutation that does not even compile proves nothing
    target.write_text(mutated)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p",
                               "no:warnings", *mutation.tests], cwd=tree, capture_output=True, timeout=TIMEOUT)
        outcome = "survived" if done.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        outcome = "killed"
    finally:
        target.write_text(original)
    return outcome, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="run only these (a prefix of the name is enough)")
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    args = parser.parse_args()
    chosen = [mu for mu in MUTATIONS if not args.names or any(mu.name.startswith(n) for n in args.names)]
    if args.list:
        for mu in chosen:
            print(f"{mu.name:30} {mu.why}")
        return
    outcomes: dict[str, list[str]] = {"killed": [], "survived": [], "stale": [], "broken": []}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gamehost-mutants-") as scratch:
        tree = Path(scratch)
        copy_repository(tree)
        for mu in chosen:
            outcome, seconds = run(mu, tree)
            outcomes[outcome].append(mu.name)
            print(f"{outcome:8} {seconds:6.1f} s  {mu.name:30} {mu.why}", flush=True)
    counted = len(outcomes["killed"]) + len(outcomes["survived"])
    rate = len(outcomes["survived"]) / counted if counted else 0.0
    print(f"\n{counted} mutations, {len(outcomes['killed'])} killed, {len(outcomes['survived'])} survived "
          f"(survival rate {rate:.0%}), {len(outcomes['stale'])} stale, {len(outcomes['broken'])} broken; "
          f"{time.monotonic() - started:.0f} s")
    for name in outcomes["survived"]:
        print(f"  survived: {name}")


if __name__ == "__main__":
    main()
