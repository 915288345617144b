"""The console bot as a newcomer uses it: whole games, typed line by line."""

from __future__ import annotations

import asyncio
import os
import random
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

import engines
from bot.adapters.console import CHANNEL, Console
from bot.host import Host
from bot.storage import open_storage
from tests.conftest import Clock, close_table, open_table
from tests.support.running import ROOT, SLOW, environment
from tests.support.setups import deal, secret_of, to_move


async def lines(host: Host, *typed: str) -> AsyncIterator[str]:
    """Type each line once the bot has answered, as a person watching the screen would."""
    for line in typed:
        await host.idle()
        yield line + "\n"


async def play(tmp_path: Path, *typed: str) -> tuple[str, Path]:
    table = await open_table(tmp_path / "c.db", Clock())
    out: list[str] = []
    images = tmp_path / "pictures"
    console = Console(table.host, images, "alice", write=out.append)
    try:
        await console.run(lines(table.host, *typed))
    finally:
        await close_table(table)
    return "\n".join(out), images


async def test_a_whole_game_against_a_friend(tmp_path: Path) -> None:
    text, images = await play(
        tmp_path,
        "/nim start 1 2", "/as bob", "join", "/as alice", "take 2 1", "/as bob", "take 1 1", "/as alice",
        "take 2 1", "/stats", "/as bob", "/stats",
    )
    assert "alice opened a table for Nim." in text
    assert "Nim begins: alice vs bob." in text
    assert "🏆 alice wins: took the last stone." in text
    assert "1 won · 0 lost · 0 drawn" in text and "0 won · 1 lost · 0 drawn" in text
    pictures = sorted(images.glob("*.png"))
    assert len(pictures) == 6 and Image.open(pictures[3]).width == 800  # four boards, then two /stats cards
    assert all(str(p) in text for p in pictures) and pictures[-1].name.endswith("-stats.png")


async def test_a_whole_game_against_the_ai(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/nim solo hard 2 2", "take 1 1", "take 2 1", "/stats")
    assert "Bot (hard) took 1 stone from heap 2." in text  # it mirrors: the winning reply
    assert "🏆 Bot (hard) wins: took the last stone." in text
    assert "Nim: rating" in text and "0 won · 1 lost · 0 drawn" in text


async def test_buttons_are_shown_as_the_commands_they_stand_for(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/nim challenge @bob", "/as bob")
    assert "[Accept: /accept]   [Decline: /decline]" in text
    assert "Now typing: bob" in text


async def test_bad_lines_get_one_clear_answer(tmp_path: Path) -> None:
    text, _ = await play(tmp_path, "/as", "/dance", "dance", "/take 1 1")
    assert "Use /as <name>" in text
    assert "I don't know /dance." in text
    assert text.count("There is no game in this channel.") == 2  # "dance" is read as a move


async def test_the_console_resumes_a_game_on_start(tmp_path: Path) -> None:
    await play(tmp_path, "/nim solo 3 4 5")
    text, _ = await play(tmp_path)
    assert "A game was in progress here; it goes on:" in text and " 1 | ●●●  (3)" in text
    assert "only alice sees this" not in text  # Nim hides nothing: no hand asked for


async def test_a_resumed_dou_dizhu_game_shows_the_typists_hand_too(tmp_path: Path) -> None:
    await play(tmp_path, "/ddz solo easy")
    text, _ = await play(tmp_path)
    resumed = text.split("A game was in progress here; it goes on:")[1]
    # the board (the bots may have bid the game under way already), then alice's own hand
    assert "▶" in resumed.split("🔒")[0] and "🔒 only alice sees this:" in resumed and "🔒 hand: " in resumed


async def play_out(tmp_path: Path, opening: list[str], people: dict[int, str], choose,
                   after: tuple[str, ...] | list[str] = ("/stats",), language: str = "en") -> str:
    """Type the opening lines, then for each seat a person holds, `/as` them and type a move
    picked by `choose(moves, rng)` from the moves the host lists, until the game ends."""
    table = await open_table(tmp_path / "c.db", Clock(), language=language)
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", people[0], write=out.append)
    rng = random.Random(7)

    async def typed() -> AsyncIterator[str]:
        for line in opening:
            await table.host.idle()
            yield line + "\n"
        while True:
            await table.host.idle()
            session = await table.store.active(CHANNEL)
            if session is None:
                break
            seat = engines.get(session.game).to_move(engines.get(session.game).from_json(session.state))
            name = people[seat]
            yield f"/as {name}\n"
            moves = await table.host.legal_moves(CHANNEL, f"console:{name}")
            yield choose(moves, rng, session, seat) + "\n"
        for line in after:
            yield line + "\n"

    try:
        await console.run(typed())
    finally:
        await close_table(table)
    return "\n".join(out)


def dou_dizhu_player(moves: list[str], rng: random.Random, session, seat: int) -> str:
    """Bid 1 when possible; otherwise play the longest play (a person emptying their hand)."""
    if "bid 1" in moves:
        return "bid 1"
    return max(moves, key=lambda m: (len(m.replace(" ", "")) if m != "pass" else 0, rng.random()))


async def test_dou_dizhu_one_person_and_two_bots_to_the_settlement(tmp_path: Path) -> None:
    text = await play_out(tmp_path, ["/ddz solo easy"], {0: "alice"}, dou_dizhu_player)
    assert "Dou Dizhu (斗地主) begins: alice vs Bot (easy) vs Bot (easy)." in text
    assert "🔒 only alice sees this:" in text
    assert "Points: alice " in text
    assert re.search(r"Dou Dizhu \(斗地主\): rating -?[\d.]+ \([+-][\d.]+\), [01] won · [01] lost · 0 drawn", text)
    assert re.search(r"points [+-]\d+", text)


async def test_dou_dizhu_three_people_at_one_keyboard(tmp_path: Path) -> None:
    opening = ["/ddz start", "/as bob", "join", "/as carol", "join"]
    text = await play_out(tmp_path, opening, {0: "alice", 1: "bob", 2: "carol"}, dou_dizhu_player)
    assert "Dou Dizhu (斗地主) begins: alice vs bob vs carol." in text
    for name in ("alice", "bob", "carol"):
        assert f"🔒 only {name} sees this:" in text
    assert "🏆" in text and "Points: alice " in text


def checkers_player(moves: list[str], rng: random.Random, session, seat: int) -> str:
    """A person who plays like the seed's computer: the piece that goes farthest toward home."""
    game = engines.get("checkers")
    state = game.from_json(session.state)
    return game.move_text(state, game.ai(state, seat, "easy", game.levels["easy"], rng).move)


@pytest.mark.parametrize(("seats", "people"), [(2, 1), (3, 2), (4, 2), (6, 3)])
async def test_chinese_checkers_people_and_bots_play_to_the_end(tmp_path: Path, seats: int, people: int) -> None:
    names = ["alice", "bob", "carol"][:people]
    opening = [f"/checkers start {seats}"]
    for name in names[1:]:
        opening += [f"/as {name}", "join"]
    opening += ["/as alice", "/go"]
    text = await play_out(tmp_path, opening, dict(enumerate(names)), checkers_player)
    assert "Chinese Checkers begins:" in text
    assert "🏆" in text and "filled the goal point" in text.split("🏆")[-1].splitlines()[0]
    assert re.search(r"Chinese Checkers: rating .*[01] won · [01] lost · 0 drawn", text.split("Results of alice:")[-1])


def gomoku_player(moves: list[str], rng: random.Random, session, seat: int) -> str:
    """A person of modest strength: plays what the easy bot would."""
    game = engines.get("gomoku")
    state = game.from_json(session.state)
    return game.move_text(state, game.ai(state, seat, "easy", game.levels["easy"], rng).move)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "master"])
async def test_gomoku_a_whole_game_against_a_bot_then_its_record_replays(tmp_path: Path, level: str) -> None:
    opening = [f"/gomoku solo {level}"]
    text = await play_out(tmp_path, opening, {0: "alice"}, gomoku_player, after=["/record", "/replay"])
    assert f"Gomoku begins: alice vs Bot ({level})." in text
    assert "🏆" in text or "Draw" in text
    record = text.split("Gomoku: alice vs Bot")[-1].splitlines()[1].strip()
    moves = [part.split(". ")[1] for part in record.split(" · ")]
    assert len(moves) >= 9 and re.fullmatch(r"[a-o]\d{1,2}", moves[0])
    assert f"After move {len(moves)} of {len(moves)}: {moves[-1]}" in text


# --- in Chinese: `gamehost --language zh`, and the words people type in Chinese --------------------
def chinese(move: str) -> str:
    """A move as a Chinese player types it: 过 for pass, 2分 for a bid, 叫地主, 到 between holes."""
    words = {"pass": "过", "call": "叫地主"}
    if move in words:
        return words[move]
    if move.startswith("bid "):
        return move.split()[1] + "分"
    return move.replace("-", " 到 ")


async def in_chinese(tmp_path: Path, *typed: str) -> str:
    """What the console of a channel that speaks Chinese prints for `typed`, alice typing first."""
    table = await open_table(tmp_path / "zh.db", Clock(), language="zh")
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)
    try:
        await console.run(lines(table.host, *typed))
    finally:
        await close_table(table)
    return "\n".join(out)


async def test_nim_in_chinese_with_chinese_commands(tmp_path: Path) -> None:
    text = await in_chinese(tmp_path, "拈 开局 2 3", "/换人 bob", "加入", "/as alice", "第2堆取1颗", "悔棋",
                            "/as bob", "同意", "/as alice", "从第二堆取三颗", "/as bob", "取 1 1", "/as alice", "1 1",
                            "战绩", "棋谱", "再来一局", "/as bob", "接受", "认输", "规则 拈")
    assert "gamehost 控制台：你是 alice。" in text and "现在打字的是：bob" in text
    assert "alice 开了一桌拈。" in text and "拈 开始：alice 对 bob。" in text
    assert "alice 请求悔棋，收回上一步。bob：/accept（同意）还是 /decline（拒绝）？" in text
    assert "alice 悔了一步。" in text
    assert "alice 从第 2 堆取走 3 颗。" in text and "🏆 alice 获胜：取走了最后一颗石子。" in text
    assert "胜 1 · 负 0 · 和 0" in text and "拈：alice 对 bob（共 3 步）" in text
    assert "alice 想和 bob 再来一局。" in text and "拈 开始：bob 对 alice。" in text  # bob moves first now
    assert "🏆 alice 获胜：bob 认输。" in text
    assert "拈（取石子）：两人对局" in text
    assert not re.search(r"\b(your move|wins|begins|took|stones?)\b", text)


async def test_gomoku_in_chinese_against_the_bot(tmp_path: Path) -> None:
    opening = ["五子棋 人机 easy"]
    text = await play_out(tmp_path, opening, {0: "alice"}, gomoku_player, after=["棋谱", "复盘"], language="zh")
    assert "五子棋 开始：alice 对 机器人（easy）。" in text
    assert "🏆" in text or "和局" in text
    assert re.search(r"五子棋：alice 对 机器人（easy）（共 \d+ 步）", text) and "步）之后：" in text


async def test_dou_dizhu_in_chinese_three_people_at_one_keyboard(tmp_path: Path) -> None:
    def player(moves: list[str], rng: random.Random, session, seat: int) -> str:
        return chinese(dou_dizhu_player(moves, rng, session, seat))

    opening = ["斗地主 开局", "/as bob", "加入", "/as carol", "加入"]
    text = await play_out(tmp_path, opening, {0: "alice", 1: "bob", 2: "carol"}, player, language="zh")
    assert "斗地主 开始：alice 对 bob 对 carol。" in text
    for name in ("alice", "bob", "carol"):
        assert f"🔒 只有 {name} 看得到：" in text
    assert "🏆" in text and "得分：alice " in text
    assert re.search(r"斗地主：等级分 .*胜 [01] · 负 [01] · 和 0", text) and re.search(r"积分 [+-]\d+", text)


async def test_chinese_checkers_in_chinese_two_people_and_a_bot(tmp_path: Path) -> None:
    def player(moves: list[str], rng: random.Random, session, seat: int) -> str:
        return chinese(checkers_player(moves, rng, session, seat))

    opening = ["跳棋 开局 3", "/as bob", "加入", "/as alice", "开始"]
    text = await play_out(tmp_path, opening, {0: "alice", 1: "bob"}, player, language="zh")
    assert "跳棋 开始：alice 对 bob 对 机器人（normal）。" in text
    assert "🏆" in text and re.search(r"跳棋：等级分 .*胜 [01] · 负 [01] · 和 0", text)


async def test_every_private_reply_is_printed_marked_with_whose_it_is(tmp_path: Path) -> None:
    """One terminal for everyone: a hint, a refusal that tells what one holds, a link code and a
    hand are printed marked as only theirs; what anyone may see is not marked."""
    table = await open_table(tmp_path / "c.db", Clock())
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)
    try:
        for line in ("/ddz start", "/as bob", "join", "/as carol", "join"):
            await console.say(line)
        names = ("alice", "bob", "carol")
        bidder = names[secret_of(await table.store.latest(CHANNEL)).seat]
        await console.say(f"/as {bidder}")
        await console.say("/move 3")
        secret = secret_of(await table.store.latest(CHANNEL))
        for line, said in (("/hint", "Hint: "), (secret.typed, secret.refusal), ("/link", "code:"),
                           ("/hand", "Your hand")):
            out.clear()
            await console.say(line)
            shown = "\n".join(out)
            assert said in shown, (line, shown)
            assert shown.startswith(f"  🔒 only {bidder} sees this:\n"), (line, shown)
            assert all(row.startswith("  🔒 ") for row in shown.splitlines()), (line, shown)
        out.clear()
        await console.say("/as dave")
        await console.say("/hint")  # not a player: a refusal that hides nothing, not marked
        assert out[-1] == "  You are not playing in this game."
    finally:
        await close_table(table)


async def test_after_all_passed_every_player_sees_the_new_hand_at_once(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "c.db", Clock())
    out: list[str] = []
    console = Console(table.host, tmp_path / "pictures", "alice", write=out.append)
    try:
        for line in ("/ddz start", "/as bob", "join", "/as carol", "join"):
            await console.say(line)
        for _ in range(3):
            out.clear()
            await console.say(f"/as {('alice', 'bob', 'carol')[to_move(await table.store.latest(CHANNEL))]}")
            await console.say("/move pass")
        assert deal(await table.store.latest(CHANNEL)) == 1  # nobody bid: dealt again
        shown = "\n".join(out)
        assert "nobody bid, so the cards are dealt again" in shown
        assert all(f"🔒 only {name} sees this:" in shown for name in ("alice", "bob", "carol")), shown
    finally:
        await close_table(table)


# --- Gomoku's swap2 opening -------------------------------------------------------------------------
SWAP2_OPENING = ["/gomoku start swap2", "/as bob", "join", "/as alice", "h8", "h9", "j10"]


async def test_gomoku_swap2_two_more_stones_then_the_first_player_picks_white_and_wins(tmp_path: Path) -> None:
    white_wins = ["a1", "o3", "b1", "o5", "c1", "o7", "d1", "o9", "e1"]  # alice (white) moves first
    turns = [f"/as {'alice' if i % 2 == 0 else 'bob'}\n{move}" for i, move in enumerate(white_wins)]
    text, _ = await play(
        tmp_path, *SWAP2_OPENING, "/swap black", "/as bob", "/swap", "/swap more", "/swap black", "k11", "g7",
        "/as alice", "c3", "/swap white", *"\n".join(turns).split("\n"), "/stats",
    )
    assert "alice, swap2 opening: place stone 1 of 3 (black), e.g. /move h8." in text
    assert "alice placed a white stone at h9." in text
    assert "alice, swap2 opening: place stone 2 of 3 (white), e.g. /move g7." in text  # a free point
    assert "First place the three opening stones; the colours are chosen after them." not in text  # j10 was placed
    assert "bob, choose: /swap black (you play black, your opponent moves now), /swap white (you play white and " \
           "move now) or /swap more (place a white and a black stone, then your opponent picks)." in text
    assert "It is bob's turn." in text  # alice's /swap black before bob chose
    assert "Use /swap black, /swap white or /swap more." in text
    assert "bob will place two more stones, then the other player picks a colour." in text
    assert "First place the two extra stones; then your opponent picks a colour." in text
    assert "bob, place extra stone 1 of 2 (white)" in text and "bob, place extra stone 2 of 2 (black)" in text
    assert "alice, pick your colour: /swap black (your opponent moves now, as white) or /swap white (you move now)." \
        in text
    assert "[Play black: /move swap black]   [Play white: /move swap white]" in text
    assert "Pick your colour: /swap black or /swap white." in text  # alice typed a point
    assert "alice picks white." in text and "alice, your move (white)." in text and "bob, your move (black)." in text
    assert "swap2: the second player plays black" in text  # under the text board
    assert "🏆 alice wins: five in a row: a1 b1 c1 d1 e1" in text
    assert "1 won · 0 lost · 0 drawn" in text.split("Results of alice")[-1]


async def test_gomoku_swap2_opening_goes_on_after_a_restart(tmp_path: Path) -> None:
    await play(tmp_path, *SWAP2_OPENING)
    text, _ = await play(tmp_path, "/as bob", "swap black", "/as alice", "h7", "/record")
    assert "A game was in progress here; it goes on:" in text and "swap2: the colours are not chosen yet" in text
    assert "bob takes black: the other player plays white and moves now." in text
    assert "alice, your move (white)." in text and "alice played h7." in text and "bob, your move (black)." in text
    assert "1. h8 · 2. h9 · 3. j10 · 4. swap black · 5. h7" in text


async def test_gomoku_swap2_against_the_bot(tmp_path: Path) -> None:
    after = ["/record", "/replay"]
    text = await play_out(tmp_path, ["/gomoku solo easy swap2"], {0: "alice"}, gomoku_player, after=after)
    assert "alice, swap2 opening: place stone 1 of 3 (black)" in text
    decided = re.search(r"Bot \(easy\) (takes black|takes white and plays [a-o]\d+|will place two more stones)", text)
    assert decided is not None
    assert "🏆" in text or "Draw" in text
    assert re.search(r"After move (\d+) of \1: ", text)


async def test_gomoku_swap2_in_chinese(tmp_path: Path) -> None:
    text = await in_chinese(tmp_path, "五子棋 开局 交换", "/换人 bob", "加入", "/as alice", "h8", "h9", "j10",
                            "/as bob", "交换 紫", "交换 执黑", "/as alice", "h7")
    assert "alice，二次交换开局：请放第 1/3 枚棋子（黑棋），例如 /move h8。" in text
    assert "bob，请选择：/swap black（你执黑，对手立即执白落子）" in text
    assert "用法：/swap black（执黑）、/swap white（执白）或 /swap more（再放两子）。" in text
    assert "bob 选择执黑：对方执白，现在落子。" in text and "alice，轮到你了（白棋）。" in text
    assert "alice 走了 h7。" in text and "bob，轮到你了（黑棋）。" in text
    assert "二次交换：第二位玩家执黑" in text


async def test_a_reader_that_leaves_stops_no_game(tmp_path: Path) -> None:
    """`gamehost | head -1`: what it prints has no reader after the first line. The lines typed after
    are played and saved all the same, and gamehost ends at the end of its input, without a traceback
    (no BrokenPipeError at the next prompt)."""
    read, write = os.pipe()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.main", stdin=asyncio.subprocess.PIPE, stdout=write,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=environment(tmp_path),
    )
    os.close(write)
    assert await asyncio.to_thread(os.read, read, 10)  # the welcome begins; then the reader leaves
    os.close(read)
    assert process.stdin is not None
    process.stdin.write("\n".join(["/nim start 3 4 5", "/as bob", "/join", "/as alice", "1 3", "/as bob", "2 1"])
                        .encode() + b"\n")
    process.stdin.close()
    _, errors = await asyncio.wait_for(process.communicate(), SLOW)
    assert process.returncode == 0 and b"Traceback" not in errors, errors.decode()
    store = await open_storage(str(tmp_path / "g.db"))
    try:
        session = await store.latest(CHANNEL)
        assert session is not None and [m.move for m in await store.moves(session.id or 0)] == ["1 3", "2 1"]
    finally:
        await store.close()
