"""In tmux, the typed-answer field keeps its right border in line while Bengali (with Hindi
and Chinese) is typed into it, scrolled or not, and shows Arabic joined, right to left and
with its marks at the narrowest size."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from quizzer.ui.textshape import display_text
from tests.e2e.tmux_support import Pane, arabic_marks, needs_tmux, terminal_width, tmux_pane

pytestmark = [pytest.mark.slow, needs_tmux]

SIZES = [(60, 20), (80, 24), (120, 40)]
SHORT = "মডেল প্রশিক্ষণ"
#: Wider than the field at every size: it scrolls, and is cut between grapheme clusters.
LONG = " ".join(["মডেল প্রশিক্ষণ হিন্দী 中文字"] * 5) + " শেষ"


def _start(pane: Pane, tmp_path: Path, to: str) -> None:
    args = ["study", "quantization", "--from", "en:definition", "--to", f"{to}:term"]
    pane.run([*args, "--mode", "typed", "--rtl", "app"], {"QUIZZER_DB": str(tmp_path / "db")})
    pane.wait_for(lambda t: "type the answer" in t, "the typed field")


def _field_rows(screen: str) -> list[str]:
    """The field's three rows (its top edge, the line typed, its bottom edge)."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "▔" in line and "▎" in line)
    return lines[top : top + 3]


def _border_column(line: str) -> int:
    """The column of the field's right edge (▎), counted as tmux counts cells."""
    column, edge = 0, -1
    for ch in line:
        if ch == "▎":
            edge = column
        column += terminal_width(ch)
    return edge


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bengali_typed_keeps_the_fields_border(tmp_path: Path, size: tuple[int, int]) -> None:
    with tmux_pane(*size) as pane:
        _start(pane, tmp_path, "bn")
        pane.type_text(SHORT)
        screen = pane.wait_for(lambda t: SHORT in t, "the Bengali typed")
        rows = _field_rows(screen)
        assert SHORT in rows[1]
        assert len({_border_column(row) for row in rows}) == 1, screen
        pane.type_text(" " + LONG)
        screen = pane.wait_for(lambda t: "প্রশিক্ষণ হিন্দী 中文字 শেষ" in t, "the end of the text")
        rows = _field_rows(screen)
        assert len({_border_column(row) for row in rows}) == 1, screen


def test_arabic_typed_at_60_columns_reads_right_to_left(tmp_path: Path) -> None:
    typed = "تحسّن مسبقًا"
    with tmux_pane(60, 20) as pane:
        _start(pane, tmp_path, "ar")
        pane.type_text(typed)
        screen = pane.wait_for(lambda t: display_text(typed) in t, "the Arabic, shaped")
    rows = _field_rows(screen)
    assert len({_border_column(row) for row in rows}) == 1, screen
    assert Counter(arabic_marks(rows[1])) == Counter(arabic_marks(typed))
    assert rows[1].rstrip(" ▎").endswith(display_text(typed)), rows[1]
