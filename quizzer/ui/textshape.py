"""Display preparation for scripts a terminal can't lay out on its own.

Two problems, two fixes:

* **Arabic** is stored in logical order with unjoined letters. Textual does no
  bidi reordering or shaping and neither do most terminals (tmux, kitty,
  alacritty, Windows Terminal). In ``app`` mode :func:`visual_lines` wraps the
  text to the width first (wrapping must see logical order), then shapes each
  line with ``arabic_reshaper`` (contextual presentation forms, Persian and Urdu
  letters too; every mark kept) and reorders it with python-bidi's algorithm (every
  right-to-left script). ``terminal`` mode passes
  logical text through for terminals that do bidi themselves (VTE-based ones).
* **Bengali and Hindi** spacing vowel signs (category Mc, e.g. া ি ো ং) take a cell
  in every terminal we tried (tmux asks glibc's ``wcwidth``, which gives 1), but
  Rich's tables give them 0. :func:`cells` measures as the terminal draws, and
  :mod:`quizzer.ui.drawn_cells` fits the lines Rich and Textual lay out to it.

``arabic_reshaper`` and ``python-bidi`` are imported where a line with right-to-left
letters is first shaped: about 15 ms of imports that a session without Arabic or Hebrew
text never pays.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Literal, Protocol

import wcwidth

RtlMode = Literal["auto", "app", "terminal"]
RTL_MODES: tuple[str, ...] = ("auto", "app", "terminal")


class _Reshaper(Protocol):
    """What this module uses of ``arabic_reshaper.ArabicReshaper`` (it has no type hints)."""

    def reshape(self, text: str) -> str:
        """``text`` with its Arabic-script letters in presentation forms."""


def resolve_rtl_mode(mode: str, env: Mapping[str, str] | None = None) -> Literal["app", "terminal"]:
    """``auto`` becomes ``terminal`` when the terminal is known to do bidi (VTE), else ``app``.

    Inside tmux or GNU screen (``TMUX`` / ``STY`` set) the multiplexer draws the
    screen and does no bidi, even when it runs in a VTE terminal whose
    ``VTE_VERSION`` it inherited: ``app`` there.
    """
    if mode not in RTL_MODES:
        raise ValueError(f"--rtl must be one of {', '.join(RTL_MODES)}, not {mode!r}")
    if mode == "auto":
        env = os.environ if env is None else env
        if env.get("TMUX") or env.get("STY"):
            return "app"
        return "terminal" if env.get("VTE_VERSION") else "app"
    return "terminal" if mode == "terminal" else "app"


@lru_cache(maxsize=4096)
def _char_cells(ch: str) -> int:
    if unicodedata.category(ch) == "Mc":
        return 1
    return max(0, wcwidth.wcwidth(ch))


@lru_cache(maxsize=8192)
def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: CJK and other wide characters two, combining
    marks (Mn) and joiners none, spacing marks (Mc: Devanagari ि ी, Bengali া) one.

    Widths come from ``wcwidth`` (Unicode's tables), and a grapheme cluster takes the cells
    of its code points as the terminals we draw in lay them out: tmux, xterm and VTE ask the
    C library's ``wcwidth`` for each code point, which gives a spacing mark its own cell (so
    हिन्दी is 5 cells there, though ``wcwidth.wcswidth``, for terminals that lay out whole
    clusters, says 4). Rich's tables count none for a spacing mark; the lines Textual lays
    out are fitted to this count by :mod:`quizzer.ui.drawn_cells`.
    """
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(_char_cells(ch) for ch in text)


def clusters(text: str) -> list[str]:
    """``text`` cut into grapheme clusters (Unicode's extended clusters, by ``wcwidth``):
    a letter with its marks, a Devanagari or Bengali conjunct with its vowel sign (क्ष, স্ত্রী),
    an emoji sequence. Joined again they give ``text`` unchanged."""
    return list(wcwidth.iter_graphemes(text))


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells between grapheme clusters, "…" marking the cut."""
    if cells(text) <= width:
        return text
    out = ""
    for cluster in clusters(text):
        if cells(out + cluster) > width - 1:
            break
        out += cluster
    return out + "…"


def is_rtl_char(ch: str) -> bool:
    """A strong right-to-left character (Arabic or Hebrew letter)."""
    return unicodedata.bidirectional(ch) in ("R", "AL")


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds any right-to-left letter."""
    return any(is_rtl_char(ch) for ch in text)


def base_direction(text: str) -> Literal["L", "R"]:
    """The paragraph direction: that of the first strong character (Unicode rule P2)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return "R"
        if kind == "L":
            return "L"
    return "L"


#: Where a line may break: runs of whitespace, but not the no-break spaces
#: (U+00A0, U+2007, U+202F) that French puts before « % » or « : ».
_BREAKS = re.compile(r"[^\S\u00a0\u2007\u202f]+")


def _chop_clusters(word: str, width: int) -> list[str]:
    """A word too long for a line, cut into pieces of at most ``width`` cells between
    grapheme clusters, so no vowel sign or combining mark starts a piece and no conjunct
    is split (a cluster wider than the line is a piece of its own)."""
    pieces: list[str] = []
    piece = ""
    for cluster in clusters(word):
        if piece and cells(piece + cluster) > width:
            pieces.append(piece)
            piece = cluster
        else:
            piece += cluster
    pieces.append(piece)
    return pieces


def wrap_cells(text: str, width: int) -> list[str]:
    """Word-wrap ``text`` (logical order) to lines of at most ``width`` cells.

    Lines break at spaces (never at a no-break space) and existing line breaks
    are kept; a word longer than a line is cut between grapheme clusters
    (:func:`clusters`), widths measured by :func:`cells`. The one wrapping function:
    the app's widgets and ``quizzer show`` both use it (through :func:`visual_lines`).
    """
    width = max(1, width)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = [word for word in _BREAKS.split(paragraph) if word]
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if cells(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            if cells(word) <= width:
                line = word
            else:
                pieces = _chop_clusters(word, width)
                lines.extend(pieces[:-1])
                line = pieces[-1]
        lines.append(line)
    return lines


#: A run of characters a line may not break inside: anything but the break spaces.
_WORD = re.compile(r"(?:[^\s]|[\u00a0\u2007\u202f])+")


def line_spans(text: str, width: int) -> list[tuple[int, int]]:
    """Where ``text`` breaks into lines of at most ``width`` cells: (start, end) offsets of
    each line in ``text``, the spaces at a break left out (a paragraph's indent kept).

    The breaks of :func:`wrap_cells` (at spaces, never a no-break space; existing line
    breaks kept; a word longer than a line cut between grapheme clusters), given as
    offsets so a styled text can be cut at them.
    """
    width = max(1, width)
    spans: list[tuple[int, int]] = []
    offset = 0
    for paragraph in text.split("\n"):
        line: tuple[int, int] | None = None
        for match in _WORD.finditer(paragraph):
            start = offset if line is None else match.start() + offset
            end = match.end() + offset
            if line is not None and cells(text[line[0] : end]) <= width:
                line = (line[0], end)
                continue
            if line is not None:
                start = match.start() + offset
                spans.append(line)
            if cells(text[start:end]) <= width:
                line = (start, end)
                continue
            for piece in _chop_clusters(text[start:end], width):
                spans.append((start, start + len(piece)))
                start += len(piece)
            line = spans.pop()
        spans.append(line if line is not None else (offset, offset))
        offset += len(paragraph) + 1
    return spans


@lru_cache(maxsize=2)
def _reshaper(ligatures: bool) -> _Reshaper:
    """An ``ArabicReshaper`` that keeps every mark.

    Its default configuration deletes the harakat (tanween, shadda, the short vowels:
    مسبقًا would lose its tanween, تحسّن its shadda), so they are kept here. Its
    ``Arabic`` language shapes the Persian and Urdu letters too (پ چ ژ گ ی ک ٹ ڈ ڑ ں ے ہ ھ).
    Without ligatures the shaping is letter for letter, which :func:`shape_runs` needs
    to keep each letter's style.
    """
    import arabic_reshaper

    configuration = {"delete_harakat": False, "support_ligatures": ligatures}
    reshaper: _Reshaper = arabic_reshaper.ArabicReshaper(configuration=configuration)
    return reshaper


#: Letters the reshaper has no forms for that decompose (canonically) into a letter it
#: shapes and a mark: Urdu's heh goal with hamza above (ۂ, the izafat of نقطۂ نظر).
_DECOMPOSE = str.maketrans({"\u06c2": "\u06c1\u0654"})


def _decomposed(text: str) -> str:
    return text.translate(_DECOMPOSE)


def reshape(text: str, *, ligatures: bool = True) -> str:
    """Arabic-script letters of ``text`` in their joined presentation forms, marks kept.

    Text without Arabic-script letters (Hebrew, Thaana…) comes back unchanged: those
    scripts don't join, and their points are combining marks that stay where they are.
    ۂ is shaped as ہ with its hamza (the same text, decomposed), not left unjoined.
    """
    return _reshaper(ligatures).reshape(_decomposed(text))


def shape_line(line: str, base_dir: Literal["L", "R"] | None = None) -> str:
    """One line in visual order with joined Arabic letters (no-op without RTL letters).

    Every right-to-left script is reordered (Arabic, Hebrew, Syriac, Thaana, N'Ko…);
    combining marks (harakat, Hebrew points) are kept and stay after their letter.
    """
    if not has_rtl(line):
        return line
    # The pure-Python algorithm, not python-bidi's Rust ``get_display``: that one does
    # not mirror brackets, so "(PEFT)" in an Arabic line would come out as ")PEFT(".
    visual = _bidi_visual(reshape(line), base_dir or base_direction(line))
    return "".join(ch for ch, _index, _level in visual)


@lru_cache(maxsize=2048)
def _visual_lines_cached(text: str, width: int, mode: str) -> tuple[str, ...]:
    lines = wrap_cells(text, width) if width > 0 else text.split("\n")
    if mode != "app" or not has_rtl(text):
        return tuple(lines)
    direction = base_direction(text)
    return tuple(shape_line(line, direction) for line in lines)


def visual_lines(text: str, width: int, mode: str = "app") -> list[str]:
    """``text`` wrapped to ``width`` cells and, in ``app`` mode, shaped and reordered per line.

    ``width`` of 0 or less means no wrapping. ``mode`` is ``app`` or
    ``terminal`` (resolve ``auto`` first with :func:`resolve_rtl_mode`).
    """
    return list(_visual_lines_cached(text, width, mode))


def display_text(text: str, mode: str = "app") -> str:
    """A one-line text prepared for display (no wrapping)."""
    return "\n".join(visual_lines(text, 0, mode))


def _bidi_visual(text: str, base_dir: Literal["L", "R"]) -> list[tuple[str, int, int]]:
    """(character, logical index, level) in visual order, mirrored where the level is RTL.

    python-bidi's pure-Python algorithm, step by step, so each character keeps
    the index it had: that is how styles follow letters through reordering.
    """
    from bidi import algorithm as uba

    storage = uba.get_empty_storage()
    storage["base_level"] = uba.PARAGRAPH_LEVELS[base_dir]
    storage["base_dir"] = base_dir
    uba.get_embedding_levels(text, storage)
    for index, info in enumerate(storage["chars"]):
        info["index"] = index
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    uba.reorder_resolved_levels(storage, False)
    uba.apply_mirroring(storage, False)
    out = [(c["ch"], c["index"], c["level"]) for c in storage["chars"]]
    # Reversed right-to-left text puts a letter's combining marks before it, themselves
    # reversed; a terminal would draw them on the letter before. Put each letter's marks
    # back after it, in the order they were typed.
    fixed: list[tuple[str, int, int]] = []
    marks: list[tuple[str, int, int]] = []
    for item in out:
        if item[2] % 2 and unicodedata.combining(item[0]):
            marks.append(item)
            continue
        fixed.append(item)
        fixed.extend(reversed(marks))
        marks = []
    fixed.extend(reversed(marks))
    return fixed


def shape_runs(
    runs: list[tuple[str, str]], base_dir: Literal["L", "R"] | None = None
) -> list[tuple[str, str]]:
    """Styled runs of one line (logical order) → styled runs in visual order, letters joined.

    Each run is ``(text, style)``. Shaping a whole line with ``get_display``
    loses which letter had which style; here every character carries its style
    through shaping (letter for letter: no ligatures, marks kept) and bidi
    reordering, so a diff can colour single Arabic letters.
    """
    runs = [(_decomposed(text), style) for text, style in runs]
    logical = "".join(text for text, _ in runs)
    if not has_rtl(logical):
        return [run for run in runs if run[0]]
    styles = [style for text, style in runs for _ in text]
    shaped = reshape(logical, ligatures=False)
    if len(shaped) != len(logical):  # not letter for letter: shape unstyled rather than wrong
        shaped = logical
    visual = _bidi_visual(shaped, base_dir or base_direction(logical))
    out: list[tuple[str, str]] = []
    for ch, index, _level in visual:
        style = styles[index]
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + ch, style)
        else:
            out.append((ch, style))
    return out
