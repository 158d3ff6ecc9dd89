"""The card browser lists one line per card at any width: long texts (a Bangla phrase, an
English definition) are cut between grapheme clusters to fit the list, a resize cuts them
again, and the highlighted card's whole texts are in the detail beneath (Pilot, real store)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from quizzer.ui.screens.cards import CardsScreen
from quizzer.ui.textshape import cells, clusters
from tests.ui_support import make_app


def _rows(screen: CardsScreen) -> list[str]:
    cards = screen.query_one("#cards-list", OptionList)
    return [str(cards.get_option_at_index(i).prompt) for i in range(cards.option_count)]


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)])
async def test_each_card_is_one_line_that_fits_the_list(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await pilot.press("slash")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, CardsScreen)
        cards = screen.query_one("#cards-list", OptionList)
        room = cards.scrollable_content_region.width
        rows = _rows(screen)
        assert rows
        assert all(cells(row) <= room for row in rows), (room, rows)
        # Some bundled texts are longer than 60 cells: at least one row was cut, and each cut
        # ends on a whole cluster (nothing but "…" after the last one kept).
        if size[0] == 60:
            assert any("…" in row for row in rows)
        for row in rows:
            assert "".join(clusters(row)) == row
        whole = str(screen.query_one("#cards-history", Static).content)
        first = screen.rows[0]
        pair = first.card.pair
        answer = first.concept.text(pair.answer_lang, pair.answer_side) or ""
        if answer.isascii():
            assert answer[: size[0] - 6] in whole.replace("\n", " ")


async def test_a_resize_cuts_the_rows_again(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, CardsScreen)
        wide = _rows(screen)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        narrow = _rows(screen)
        room = screen.query_one("#cards-list", OptionList).scrollable_content_region.width
        assert narrow != wide
        assert all(cells(row) <= room for row in narrow), (room, narrow)
