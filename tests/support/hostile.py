"""One hostile alphabet, for the property tests (hypothesis strategies) and the fuzzer
(`bench/fuzz.py`, with a `random.Random`): what people and attackers type that broke, or
could break, the host.

Plain `st.text()` almost never draws these: digits
that `str.isdigit()` takes and `int()` refuses, line breaks and separators that Pillow's
text layout refuses, bidi overrides, zero-width characters, right-to-left scripts, emoji
sequences, lone surrogates (which cannot even be encoded as UTF-8), and plain command
words and options, so that hostile text lands where the parser reads it.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

# Digits that are not ASCII: superscripts, circled, full-width (NFKC reads them as ASCII),
# other scripts' digits (NFKC keeps them; `isdigit` is true, `int` takes some of them).
DIGITS = ("²", "³", "¹", "⁰", "①", "⑳", "２", "０", "９", "٣", "۷", "४", "৫", "๓", "𝟙", "𝟘", "Ⅻ", "½", "⅞",
          "¼", "⁹", "₂", "〇", "三", "十")
# Control characters, line and paragraph separators, and others Pillow's raqm refuses in a line.
CONTROLS = ("\x00", "\x07", "\x08", "\t", "\n", "\x0b", "\x0c", "\r", "\x1b", "\x1c", "\x1d", "\x1e", "\x1f",
            "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\r\n")
# Bidi overrides and isolates, marks, and right-to-left text.
BIDI = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
        "\u200f", "\u061c", "مرحبا", "שלום", "ك", "ע")
# Zero-width and invisible characters, combining marks (alone and piled up), variation selectors.
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u0301", "\u0336" * 8,
             "e\u0301\u0302\u0303\u0304", "\ufe0f", "\ufe0e", "\U000e0001", "\u180e", "\u3000", "\u00a0")
# Emoji: single, with skin tones, ZWJ families, flags, keycaps.
EMOJI = ("😀", "🂡", "👍🏽", "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "🇨🇳", "🇺🇸", "1️⃣", "#️⃣", "🀄", "♠", "♥️")
# Lone surrogates, private use, noncharacters, the replacement character.
BROKEN = ("\ud800", "\udfff", "\udc00x", "\ue000", "\U000f0000", "\uffff", "\ufffe", "\ufffd", "\U0010ffff")
# Wide and tall scripts, look-alikes, full-width ASCII.
SCRIPTS = ("五子棋", "斗地主", "跳棋", "拈", "认输", "第2堆取3颗", "大王", "Ａ", "ｈ８", "／ｍｏｖｅ", "ꙮ", "𒐫", "ﷺ",
           "ǅ", "İ", "ß", "ﬃ", "Ω", "ǆ", "ᾟ", "\u0e47" * 5)
# Words the host reads, so hostile text sits next to them where they matter.
WORDS = ("/", "/move", "/nim", "/gomoku", "/ddz", "/checkers", "start", "solo", "watch", "challenge", "@bob",
         "<@1>", "max=", "timer=", "size=", "every=", "=", "@", ".", "-", "*", " ", "  ", "0", "1", "9",
         "999999999999999999999", "-1", "h8", "c4", "pass", "BJ", "10")

PIECES: tuple[str, ...] = (*DIGITS, *CONTROLS, *BIDI, *INVISIBLE, *EMOJI, *BROKEN, *SCRIPTS, *WORDS)


def text(rng: random.Random, most: int = 40) -> str:
    """Up to `most` pieces: hostile ones, command words and ordinary characters, mixed."""
    out = []
    for _ in range(rng.randint(0, most)):
        roll = rng.random()
        if roll < 0.6:
            out.append(rng.choice(PIECES))
        elif roll < 0.8:
            out.append(chr(rng.randint(0x20, 0x7E)))
        else:
            out.append(chr(rng.randint(0, 0x10FFFF)))  # anything, surrogates included
    return "".join(out)


def long_text(rng: random.Random, length: int) -> str:
    """About `length` characters of hostile text (up to 100k), cheaply: a short sample repeated."""
    sample = text(rng, 60) or "x"
    return (sample * (length // len(sample) + 1))[:length]


def name(rng: random.Random) -> str:
    """A display name: empty, blank, all invisible, over-long, or ordinary with hostile pieces."""
    kind = rng.random()
    if kind < 0.05:
        return ""
    if kind < 0.1:
        return rng.choice((" ", "\n", "\u200b\u200b", "\u202e", "\r\n\t", "\ud800"))
    if kind < 0.15:
        return long_text(rng, rng.choice((33, 100, 5000)))
    return rng.choice(("Ann", "李雷", "Bob", "")) + text(rng, 8)


# --- the same alphabet for hypothesis -------------------------------------------------------
pieces = st.sampled_from(PIECES)
# Any code point, surrogates (category Cs) and controls included.
anything = st.characters(codec=None, exclude_categories=())


def hostile_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Text made of hostile pieces, command words and any characters."""
    return st.lists(st.one_of(pieces, pieces, anything), max_size=max_size).map("".join)


def hostile_names() -> st.SearchStrategy[str]:
    return st.one_of(
        hostile_text(8),
        st.sampled_from(("", " ", "\n", "Ann\nBob", "\u202eevil", "a\u2029b", "\x1c", "\u0085", "\ud800")),
        st.tuples(st.sampled_from(("Ann", "李雷", "Bob")), hostile_text(6)).map("".join),
    )


def hostile_numbers() -> st.SearchStrategy[str]:
    """Numbers as people and attackers type them: ASCII, other digits, huge, signed, mixed."""
    return st.one_of(
        st.integers(-5, 120).map(str),
        st.sampled_from(DIGITS),
        st.lists(st.sampled_from(("1", "2", *DIGITS)), min_size=1, max_size=4).map("".join),
        st.integers(1, 1000).map(lambda n: "9" * n),
    )
