"""A bar chart of the cards due on each of the next 30 study days."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size

from quizzer.stats.figures import Forecast
from quizzer.ui.stats_charts import forecast_text
from quizzer.ui.stats_table import RenderedChart


class DueChart(RenderedChart):
    """One bar per day (today first, overdue cards counted today), eighth-block precision."""

    DEFAULT_CSS = """
    DueChart {
        padding: 0 1;
    }
    """

    def __init__(
        self,
        forecast: Forecast,
        *,
        bar_height: int = 8,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.forecast = forecast
        self.bar_height = bar_height
        #: Columns per day: two (a gap between bars), one where two don't fit.
        self.column = 2
        #: The chart at each number of columns a day (made when first asked for).
        self._charts: dict[int, Text] = {}
        super().__init__(self._chart(2), id=id, classes=classes)

    def _chart(self, column: int) -> Text:
        if column not in self._charts:
            self._charts[column] = forecast_text(
                self.forecast, height=self.bar_height, column=column
            )
        return self._charts[column]

    def render(self) -> Text:
        """The bar chart of the forecast as plain styled text."""
        return self._chart(self.column)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The widest chart line, so the widget is exactly as wide as the chart (one column a
        day when two don't fit the container)."""
        wide = max(len(line) for line in self._chart(2).plain.splitlines())
        column = 1 if wide + self.styles.padding.width > container.width else 2
        if column != self.column:
            self.column = column
            self._show(self._chart(column))
        return super().get_content_width(container, viewport)
