"""Compiled `make` and `unmake` of the AI's board (numba), on flat int64 buffers; see fastpos.py.

Only fastpos.py imports this module, and only when the compiled core is wanted: importing numba
takes seconds, so it happens in the AI workers' warm-up, never in the host. The kernels are C
callbacks (`cfunc`), cached on disk (`cache=True`), called through ctypes with the address of
one buffer (a call with one argument costs a fraction of one with four); the point and the colour
are written into the buffer before the call.

The buffer `d`: d[1], d[2] the totals of black and white, d[3] the undo log's top, d[4] the point,
d[5] the colour, d[6] = n (cells of the padded board), d[7] where the static part starts; then from
d[HEADER]: the cells, 4n keys, n codes of black, n codes of white, OPS slots for the threat-set
changes of the last make, the undo log (pairs (index in d, old value), a frame per make), and the
static part `s` (the same for every board of a size and rule, indices relative to its start):
s[0] / s[1] where black's / white's pattern table starts (65536 entries each), s[2] where the
update lists start: for colour c (1, 2) and point p, entries s[s[2] + (c - 1) * n + p] to
s[s[2] + (c - 1) * n + p + 1] (exclusive) of triples (q * 4 + d, q, key delta), the same as
`_Static.update`.
"""

# numba has no type information: this module is left out of mypy (see pyproject.toml), and
# fastpos.py gives the rest of the engine a typed boundary.

import numpy as np
from numba import carray, cfunc, njit, types

HEADER = 8
OPS = 512
BIG = 1 << 40  # carray's length (no bounds checks: the buffers are as long as the layout says)
SIGNATURE = types.int64(types.voidptr)

F5_BIT = 1 << 27
F3_BIT = 1 << 18
B4_BIT = 1 << 21


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


@cfunc(SIGNATURE, cache=True)
def make(dp):
    """Place c on p; returns how many threat-set changes it wrote to d[ops:] (q * 8 + set * 2 + added,
    set 0 / 1 black's fours / threes, 2 / 3 white's, in the order of the Python `make`)."""
    d = carray(dp, (BIG,), dtype=np.int64)
    p = d[4]
    c = d[5]
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
    d[lp] = sb
    d[lp + 1] = sw
    lp += 2
    d[cells + p] = c
    sb -= value(d[cb + p])
    sw -= value(d[cw + p])
    nops = 0
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
    return nops


@cfunc(SIGNATURE, cache=True)
def unmake(dp):
    """Take the stone off d[4]: put back what the last `make` logged."""
    d = carray(dp, (BIG,), dtype=np.int64)
    lp = d[3] - 1
    frame = d[lp]
    i = lp - 2
    while i >= frame + 2:
        d[d[i]] = d[i + 1]
        i -= 2
    d[1] = d[frame]
    d[2] = d[frame + 1]
    d[3] = frame
    d[HEADER + d[4]] = 0
    return 0
