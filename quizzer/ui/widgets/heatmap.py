"""A calendar heatmap of answers per study day (one column per week, one row per weekday)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from quizzer.stats.figures import DayCount
from quizzer.ui.stats_charts import heatmap_text


class Heatmap(Widget):
    """Shades ``·░▒▓█`` by each day's share of the busiest day; months above the weeks."""

    DEFAULT_CSS = """
    Heatmap {
        height: auto;
        width: auto;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        days: Sequence[DayCount],
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.days = tuple(days)

    def render(self) -> Text:
        """Render the heatmap grid, month labels and legend as styled text."""
        return heatmap_text(self.days)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Return 9 lines: month labels, seven weekdays, the legend."""
        return 9

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """Return the widest heatmap line, so the widget is exactly as wide as the map."""
        return max(len(line) for line in self.render().plain.splitlines())
