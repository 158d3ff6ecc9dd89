"""A calendar heatmap of answers per study day (one column per week, one row per weekday)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from quizzer.stats.figures import DayCount
from quizzer.ui.stats_charts import heatmap_text
from quizzer.ui.stats_table import RenderedChart


class Heatmap(RenderedChart):
    """Shades ``·░▒▓█`` by each day's share of the busiest day; months above the weeks."""

    DEFAULT_CSS = """
    Heatmap {
        padding: 0 1;
    }
    """

    def __init__(
        self,
        days: Sequence[DayCount],
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.days = tuple(days)
        shown = heatmap_text(self.days)
        # As the screen has always shown it: Textual, given this text to show, drops the
        # text's own style (a colour name only Rich knows) and keeps its spans.
        shown.style = ""
        super().__init__(shown, id=id, classes=classes)

    def render(self) -> Text:
        """The heatmap grid, month labels and legend as styled text."""
        return heatmap_text(self.days)
