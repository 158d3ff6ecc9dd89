"""The heatmap labels every month of its year, December too when it starts in the last
weeks shown."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from quizzer.stats.figures import DayCount
from quizzer.ui.stats_charts import heatmap_text

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@pytest.mark.parametrize("last", [date(2026, 12, 4), date(2026, 12, 31), date(2026, 6, 15)])
def test_every_month_starting_in_the_year_has_its_label(last: date) -> None:
    days = [DayCount(last - timedelta(days=n), n % 3) for n in range(364, -1, -1)]
    labels = heatmap_text(days).plain.splitlines()[0].split()
    starting = [d.day.strftime("%b") for d in days if d.day.day == 1]
    assert labels == starting
    assert len(set(labels)) == len(labels) and set(labels) <= set(MONTHS)
