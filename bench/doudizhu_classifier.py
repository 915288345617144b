"""The Dou Dizhu classifier checked against the brute force further than the test run affords.

    nice -n 10 .venv/bin/python -m bench.doudizhu_classifier [--most 16]

Exhaustive: every multiset of at most `--most` cards one deck holds (16: 97,778,455 multisets),
and every multiset one card away from a legal play (one card added, removed or replaced by
another rank). Prints the counts checked and the mismatches found (there must be none).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time

from engines.doudizhu.cards import ranks_of_counts, ranks_text
from engines.doudizhu.rules import classify
from tests.engines.ddz_bruteforce import all_multisets, legal_plays

LIMIT = (4,) * 13 + (1, 1)


def label(counts: tuple[int, ...]) -> tuple[str, int, int] | None:
    combo = classify(counts)
    return None if combo is None else (combo.kind, combo.rank, combo.chain)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--most", type=int, default=16)
    args = parser.parse_args()
    with contextlib.suppress(OSError):
        os.nice(10)
    plays = legal_plays()
    bad: list[tuple[int, ...]] = []
    started = time.perf_counter()
    checked = 0
    for counts in all_multisets(args.most):
        checked += 1
        if label(counts) != plays.get(counts):
            bad.append(counts)
    print(f"all multisets of at most {args.most} cards: {checked:,} checked, {len(bad)} wrong "
          f"({time.perf_counter() - started:.0f} s)")
    started = time.perf_counter()
    near: set[tuple[int, ...]] = set()
    for counts in plays:
        for a in range(15):
            for delta in (1, -1):
                n = counts[a] + delta
                if 0 <= n <= LIMIT[a]:
                    near.add(counts[:a] + (n,) + counts[a + 1 :])
            if counts[a]:
                for b in range(15):
                    if b != a and counts[b] < LIMIT[b]:
                        c = list(counts)
                        c[a] -= 1
                        c[b] += 1
                        near.add(tuple(c))
    near = {c for c in near if 0 < sum(c) <= 20}
    wrong = [c for c in near if label(c) != plays.get(c)]
    bad.extend(wrong)
    print(f"multisets one card from a legal play (added, removed, replaced): {len(near):,} checked, "
          f"{len(wrong)} wrong ({time.perf_counter() - started:.0f} s)")
    print(f"legal plays of up to 20 cards in one deck: {len(plays):,}")
    for counts in bad[:10]:
        print("  mismatch:", ranks_text(ranks_of_counts(counts)), label(counts), plays.get(counts))


if __name__ == "__main__":
    main()
