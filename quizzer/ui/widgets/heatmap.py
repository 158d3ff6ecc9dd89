"""A calendar heatmap of answers per study day (one column per week, one row per weekday)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from quizzer.core.stats import DayCount
from quizzer.stats_render import heatmap_text


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
        return heatmap_text(self.days)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[override]
        # Month labels, seven weekdays, the legend.
        return 9

    def get_content_width(self, container, viewport) -> int:  # type: ignore[override]
        return max(len(line) for line in self.render().plain.splitlines())
