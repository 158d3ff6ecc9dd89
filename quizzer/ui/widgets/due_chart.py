"""A bar chart of the cards due on each of the next 30 study days."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from quizzer.stats.figures import Forecast
from quizzer.ui.stats_charts import forecast_text


class DueChart(Widget):
    """One bar per day (today first, overdue cards counted today), eighth-block precision."""

    DEFAULT_CSS = """
    DueChart {
        height: auto;
        width: auto;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        forecast: Forecast,
        *,
        bar_height: int = 8,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.forecast = forecast
        self.bar_height = bar_height
        #: Columns per day: two (a gap between bars), one where two don't fit.
        self.column = 2

    def render(self) -> Text:
        """Render the bar chart of the forecast as plain styled text."""
        return forecast_text(self.forecast, height=self.bar_height, column=self.column)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Return the chart's line count, so the widget is exactly as tall as the chart."""
        return len(self.render().plain.splitlines())

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """Return the widest chart line, so the widget is exactly as wide as the chart
        (one column a day when two don't fit the container)."""
        self.column = 2
        wide = max(len(line) for line in self.render().plain.splitlines())
        if wide + self.styles.padding.width > container.width:
            self.column = 1
            return max(len(line) for line in self.render().plain.splitlines())
        return wide
