"""The study screen's first card as the learner sees it: the header's lines.

The header is one widget drawing what two rows of labels drew (the snapshots pin it at
80×24 and 60×20, narrow); these pin its one-line layout too, and its cutting.
"""

from __future__ import annotations

from pathlib import Path

from ui_support import choice, make_app

from quizzer.ui.widgets.progress_header import BAR_WIDTH, ProgressHeader

FLIP = choice("quantization", "en:term>bn:term", "flip")
PAIR = "en term → bn term · flip"


async def _header_lines(tmp_path: Path, width: int) -> list[str]:
    app = make_app(tmp_path / "p.json", FLIP)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        header = app.screen.query_one(ProgressHeader)
        counts = header.counts
        assert counts.startswith("0 done · new ")
        strips = app.screen._compositor.render_strips()[: header.size.height]
        return [counts, *(strip.text for strip in strips)]


async def test_header_on_one_line_keeps_the_counts_and_bar_at_the_right(tmp_path: Path) -> None:
    counts, line = await _header_lines(tmp_path, 120)
    bar = "━" * BAR_WIDTH
    # Padding 2, the deck name in the room left, 3 cells before the pair, the counts, the bar.
    name = 120 - 4 - 3 - len(PAIR) - 3 - len(counts) - 3 - BAR_WIDTH
    assert line == f"  {'Quantization':<{name}}   {PAIR}   {counts}   {bar}  "


async def test_header_on_two_lines_when_narrow(tmp_path: Path) -> None:
    counts, first, second = await _header_lines(tmp_path, 80)
    assert first == f"  {'Quantization':<{80 - 4 - 1 - len(PAIR)}} {PAIR}  "
    assert second == f"  {counts:<{80 - 4 - 1 - BAR_WIDTH}} {'━' * BAR_WIDTH}  "


async def test_header_cuts_the_deck_name_and_counts_with_an_ellipsis(tmp_path: Path) -> None:
    counts, first, second = await _header_lines(tmp_path, 40)
    room = 40 - 4 - 1 - len(PAIR)
    assert first == f"  {'Quantization'[: room - 1]}… {PAIR}  "
    room = 40 - 4 - 1 - BAR_WIDTH
    assert second == f"  {counts[: room - 1]}… {'━' * BAR_WIDTH}  "
