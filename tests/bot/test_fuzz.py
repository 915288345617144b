"""The fuzzer's short version (`bench/fuzz.py`; the long runs are in docs/benchmarks.md): random events,
hostile text and legal play against a real host on a real SQLite file; nothing escapes, every
reply is well-formed, every session replays from its moves."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from bench import fuzz


def arguments(db: Path, events: int = 1200, seed: int = 1) -> fuzz.argparse.Namespace:
    return fuzz.arguments_parser().parse_args(["--events", str(events), "--seed", str(seed), "--db", str(db)])


async def test_a_short_fuzz_run_finds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok = await fuzz.run(arguments(tmp_path / "fuzz.db"))
    out = capsys.readouterr().out
    assert ok, out
    assert "escaped exceptions: 0" in out and "invariants: " in out and " 0 failures" in out


async def test_the_same_seed_plays_the_same_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    randbits = secrets.randbits
    for name in ("a.db", "b.db"):
        await fuzz.run(arguments(tmp_path / name, events=200, seed=5))
    assert secrets.randbits is randbits  # the fuzzer's seeded secrets are put back
    out = capsys.readouterr().out
    first, second = ([line for line in run.splitlines() if line.startswith(("sessions:", "moves:", "pictures:"))]
                     for run in out.split("events/s")[1:])
    assert first == second and first
