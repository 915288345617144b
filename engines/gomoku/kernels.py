"""Compiled `make` and `unmake` of the AI's board (numba), on flat int64 buffers; see fastpos.py.

Only fastpos.py imports this module, and only when the compiled core is wanted: importing numba
takes seconds, so it happens in the AI workers' warm-up, never in the host. The kernels are
jitted functions of three integers (numba's dispatcher calls those faster than ctypes calls a C
callback), cached on disk (`cache=True`): the buffer's address, the point and the colour.

The buffer `d`: d[1], d[2] the totals of black and white, d[3] the undo log's top, d[6] = n (cells
of the padded board), d[7] where the static part starts, d[8], d[9] how many empty points are five
points of black, of white (the code has F5), d[10], d[11] how many are open-four points (F4, or two
B4: `Position.flex_points`); then from d[HEADER]: the cells, 4n keys, n codes of black, n codes of
white, OPS slots for the threat-set changes of the last make, the undo log (pairs (index in d, old
value), a frame per make: the totals and counts first, the frame's start last), and the static
part `s` (the same for every board of a size and rule, indices relative to its start):
s[0] / s[1] where black's / white's pattern table starts (65536 entries each), s[2] where the
update lists start: for colour c (1, 2) and point p, entries s[s[2] + (c - 1) * n + p] to
s[s[2] + (c - 1) * n + p + 1] (exclusive) of triples (q * 4 + d, q, key delta), the same as
`_Static.update`.
"""

# numba has no type information: this module is left out of mypy (see pyproject.toml), and
# fastpos.py gives the rest of the engine a typed boundary.

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

HEADER = 12
OPS = 512
BIG = 1 << 40  # carray's length (no bounds checks: the buffers are as long as the layout says)

F5_BIT = 1 << 27
F3_BIT = 1 << 18
B4_BIT = 1 << 21
F4_BIT = 1 << 24


@intrinsic
def _pointer(typingctx, address):
    """The buffer at an address given as an integer."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(types.int64), codegen


@njit(cache=True, inline="always")
def flex(code):
    """1 if a stone there makes an open four or two fours (`Position.flex_points`), else 0."""
    return 1 if code >= F4_BIT or ((code >> 21) & 7) >= 2 else 0


@njit(cache=True, inline="always")
def five(code):
    return 1 if code >= F5_BIT else 0


@njit(cache=True, inline="always")
def value(code):
    """`patterns.value_of`: class values by count, plus the bonus of the threat the code makes."""
    v = 0
    v += 1 * ((code >> 3) & 7)
    v += 3 * ((code >> 6) & 7)
    v += 6 * ((code >> 9) & 7)
    v += 16 * ((code >> 12) & 7)
    v += 20 * ((code >> 15) & 7)
    f3 = (code >> 18) & 7
    b4 = (code >> 21) & 7
    f4 = (code >> 24) & 7
    f5 = (code >> 27) & 7
    v += 70 * f3 + 80 * b4 + 400 * f4 + 2000 * f5
    if f5:
        v += 8000
    elif f4 or b4 >= 2:
        v += 1200
    elif b4 and f3:
        v += 600
    elif b4:
        pass
    elif f3 >= 2:
        v += 250
    return v


@njit(cache=True)
def make(address, p, c):
    """Place c on p. Writes the threat-set changes of `Position.make` to d[ops:] in their order (op
    = q * 8 + set * 2 + added, set 0 / 1 black's fours / threes, 2 / 3 white's), and after them those
    of `Position.unmake`: the same changes undone, in the same order, then p back into the sets it
    leaves. Returns how many of the first (the low 16 bits) and of the second (above them)."""
    d = carray(_pointer(address), (BIG,), dtype=np.int64)
    n = d[6]
    base = d[7]
    tb = base + d[base]
    tw = base + d[base + 1]
    cells = HEADER
    keys = cells + n
    cb = keys + 4 * n
    cw = cb + n
    ops = cw + n
    lp = d[3]
    frame = lp
    sb = d[1]
    sw = d[2]
    fiveb, fivew, flexb, flexw = d[8], d[9], d[10], d[11]
    d[lp] = sb
    d[lp + 1] = sw
    d[lp + 2] = fiveb
    d[lp + 3] = fivew
    d[lp + 4] = flexb
    d[lp + 5] = flexw
    lp += 6
    d[cells + p] = c
    # p is taken: out of the sets it was in (fours within threes: a code of B4 is one of F3 and more)
    nops = 0
    vb = d[cb + p]
    sb -= value(vb)
    if vb >= F3_BIT:
        fiveb -= five(vb)
        flexb -= flex(vb)
        if vb >= B4_BIT:
            d[ops + nops] = p * 8
            nops += 1
        d[ops + nops] = p * 8 + 2
        nops += 1
    vw = d[cw + p]
    sw -= value(vw)
    if vw >= F3_BIT:
        fivew -= five(vw)
        flexw -= flex(vw)
        if vw >= B4_BIT:
            d[ops + nops] = p * 8 + 4
            nops += 1
        d[ops + nops] = p * 8 + 6
        nops += 1
    first = nops
    at = base + d[base + 2] + (c - 1) * n + p
    for e in range(base + d[at], base + d[at + 1], 3):
        q = d[e + 1]
        if d[cells + q] != 0:
            continue
        qd = keys + d[e]
        old_key = d[qd]
        key = old_key + d[e + 2]
        d[lp] = qd
        d[lp + 1] = old_key
        lp += 2
        d[qd] = key
        delta = d[tb + key] - d[tb + old_key]
        if delta != 0:
            oc = d[cb + q]
            nc = oc + delta
            d[lp] = cb + q
            d[lp + 1] = oc
            lp += 2
            d[cb + q] = nc
            sb += value(nc) - value(oc)
            if nc >= F3_BIT or oc >= F3_BIT:
                fiveb += five(nc) - five(oc)
                flexb += flex(nc) - flex(oc)
                if (nc >= B4_BIT) != (oc >= B4_BIT):
                    d[ops + nops] = q * 8 + (1 if nc >= B4_BIT else 0)
                    nops += 1
                if (nc >= F3_BIT) != (oc >= F3_BIT):
                    d[ops + nops] = q * 8 + 2 + (1 if nc >= F3_BIT else 0)
                    nops += 1
        delta = d[tw + key] - d[tw + old_key]
        if delta != 0:
            oc = d[cw + q]
            nc = oc + delta
            d[lp] = cw + q
            d[lp + 1] = oc
            lp += 2
            d[cw + q] = nc
            sw += value(nc) - value(oc)
            if nc >= F3_BIT or oc >= F3_BIT:
                fivew += five(nc) - five(oc)
                flexw += flex(nc) - flex(oc)
                if (nc >= B4_BIT) != (oc >= B4_BIT):
                    d[ops + nops] = q * 8 + 4 + (1 if nc >= B4_BIT else 0)
                    nops += 1
                if (nc >= F3_BIT) != (oc >= F3_BIT):
                    d[ops + nops] = q * 8 + 6 + (1 if nc >= F3_BIT else 0)
                    nops += 1
    d[lp] = frame
    d[3] = lp + 1
    d[1] = sb
    d[2] = sw
    d[8] = fiveb
    d[9] = fivew
    d[10] = flexb
    d[11] = flexw
    # what unmake plays: the changes of the lines undone, in their order, then p back
    m = nops
    for i in range(first, nops):
        d[ops + m] = d[ops + i] ^ 1
        m += 1
    for v, sets in ((vb, 0), (vw, 4)):  # black's sets' ops are 0-3, white's 4-7
        if v >= F3_BIT:
            d[ops + m] = p * 8 + sets + 3
            m += 1
            if v >= B4_BIT:
                d[ops + m] = p * 8 + sets + 1
                m += 1
    return nops | (m - nops) << 16


@njit(cache=True)
def unmake(address, p):
    """Take the stone off p: put back what the last `make` logged."""
    d = carray(_pointer(address), (BIG,), dtype=np.int64)
    lp = d[3] - 1
    frame = d[lp]
    i = lp - 2
    while i >= frame + 6:
        d[d[i]] = d[i + 1]
        i -= 2
    d[1] = d[frame]
    d[2] = d[frame + 1]
    d[8] = d[frame + 2]
    d[9] = d[frame + 3]
    d[10] = d[frame + 4]
    d[11] = d[frame + 5]
    d[3] = frame
    d[HEADER + p] = 0
    return 0
