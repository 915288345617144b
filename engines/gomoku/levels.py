"""The Gomoku AI's levels: how each one searches, beside the work it may spend on a move.

A level's `limit.work` is the number of nodes a move may search (easy: none, it scores one ply), the
same on an idle machine and a busy one; `limit.seconds` (CPU time; engines/budget.py) is only a safety
net for a stalled host, far above what a core takes. `Gomoku.levels` is made from these.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import Limit


@dataclass(frozen=True)
class Level:
    limit: Limit  # the nodes of one move, and the ceiling for a stalled host
    one_ply: bool = False  # score one ply and pick among the best few with some chance (no search)
    max_depth: int = 30  # plies of PVS at most
    width: int = 10  # moves searched at a quiet inner node
    root_width: int = 16
    vcf_depth: int = 16  # attacking moves
    vct_depth: int = 3  # attacking moves (0: no VCT)
    defend_vcf: bool = True  # keep only root moves that refute the opponent's VCF
    defend_vct: int = 0  # depth of the opponent-VCT check of the chosen move (0: none)
    hold_vct: int = 0  # depth of the check after PVS: the first move, in its order, that holds out longest (0: none)
    share_vcf: float = 0.15  # fractions of the node budget for each stage
    share_vct: float = 0.25
    share_pvs: float = 0.7  # PVS stops this far into the budget when the VCT check of its move follows
    qdepth: int = 4  # fours the side to move may play at a leaf
    w_self: int = 100  # evaluation weights (percent) of the mover's and the other side's potential
    w_opp: int = 100
    defend: float = 0.9  # move ordering: weight of the opponent's potential at a point
    qthree: bool = False  # quiescence answers open threes too
    lmr: bool = True  # late move reductions
    patient: bool = False  # deepen until the budget is spent (else stop when the next iteration would not finish)
    resume: float = 0.0  # after the VCT check: the PVS goes on until this fraction of the budget is left (0: no)


LEVELS = {
    "easy": Level(Limit(1, 2.0), one_ply=True),
    "medium": Level(
        Limit(12_000, 4.0),
        max_depth=2,
        width=8,
        root_width=12,
        vcf_depth=6,
        vct_depth=0,
        share_vct=0.0,
        qdepth=0,
        defend_vcf=False,
    ),
    "hard": Level(Limit(30_000, 10.0), defend_vct=3, patient=True, resume=0.05),
    "master": Level(
        Limit(100_000, 30.0),
        width=12,
        root_width=20,
        vcf_depth=20,
        vct_depth=5,
        hold_vct=7,
        share_vcf=0.12,
        share_vct=0.3,
        w_opp=85,
        share_pvs=0.6,
        qthree=True,
        patient=True,
        resume=0.05,
    ),
}
