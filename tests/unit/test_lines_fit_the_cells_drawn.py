"""Lines Rich lays out are fitted to the cells a terminal draws: a Hindi or Bengali vowel sign
takes a cell there (the C library's ``wcwidth``), none in Rich's count."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.table import Table

from quizzer.ui.drawn_cells import DrawnWidths, fit_line
from quizzer.ui.textshape import cells
from tests.e2e.tmux_support import terminal_width

HINDI = "हिन्दी भाषा"  # 2 vowel signs in हिन्दी, 2 in भाषा
BENGALI = "আমি বাংলায়"


def drawn(segments: list[Segment]) -> int:
    return sum(terminal_width(ch) for s in segments for ch in s.text)


def test_the_padding_after_the_text_gives_the_vowel_signs_their_cells() -> None:
    assert cells(HINDI) - cell_len(HINDI) == 4
    line = [Segment(HINDI), Segment(" " * (20 - cell_len(HINDI))), Segment("│")]
    fitted = fit_line(line, 20 + 1)
    assert drawn(fitted) == 21
    assert "".join(s.text for s in fitted).rstrip("│").rstrip() == HINDI  # words kept whole
    assert fitted[-1].text == "│"


def test_spaces_between_words_are_text_not_padding() -> None:
    words = "আমি বাংলায় গান গাই"
    fitted = fit_line([Segment(words)], cells(words))
    assert "".join(s.text for s in fitted) == words


def test_a_line_without_room_is_cut_between_clusters() -> None:
    fitted = fit_line([Segment(HINDI)], 5)
    text = "".join(s.text for s in fitted)
    assert drawn(fitted) == 5
    assert text == "हिन्दी"  # the cluster न्दी whole, nothing of भाषा half-drawn


def test_a_right_aligned_line_gives_up_its_indent() -> None:
    line = [Segment(" " * 8 + BENGALI)]
    fitted = fit_line(line, cell_len(line[0].text))
    assert drawn(fitted) == cell_len(line[0].text)
    assert "".join(s.text for s in fitted).endswith(BENGALI)


def test_a_table_printed_through_drawn_widths_keeps_its_columns() -> None:
    table = Table("name", "count")
    for name, count in [("Quantization", "12"), (BENGALI, "7"), (HINDI, "3")]:
        table.add_row(name, count)
    console = Console(width=60, record=True, force_terminal=False)
    console.print(DrawnWidths(table))
    lines = [line for line in console.export_text().splitlines() if line.strip()]
    widths = {sum(terminal_width(ch) for ch in line) for line in lines}
    assert len(widths) == 1, lines  # every row, as a terminal draws it, as wide as the border
    # Without the fitting the Bengali and Hindi rows are drawn wider than the others.
    console = Console(width=60, record=True, force_terminal=False)
    console.print(table)
    plain = [line for line in console.export_text().splitlines() if line.strip()]
    assert len({sum(terminal_width(ch) for ch in line) for line in plain}) > 1
