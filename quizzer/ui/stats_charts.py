"""The two charts of the statistics: answers per day (a calendar heatmap) and cards due (bars).

Plain styled :class:`rich.text.Text`, for ``quizzer stats`` and the app's widgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from rich.text import Text

from quizzer.stats.figures import DayCount, Forecast

#: Heatmap glyphs from no answers to the busiest days.
HEAT_GLYPHS = ("·", "░", "▒", "▓", "█")
HEAT_STYLES = ("grey50", "green", "green", "bright_green", "bright_green")
BAR_GLYPHS = " ▁▂▃▄▅▆▇█"
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


def heat_level(count: int, busiest: int) -> int:
    """0 for no answers, else 1-4 by the share of the busiest day (quarters)."""
    if count <= 0 or busiest <= 0:
        return 0
    return min(4, 1 + (4 * (count - 1)) // busiest)


def heatmap_text(days: Sequence[DayCount]) -> Text:
    """A calendar heatmap: one column per week (Monday first), one row per weekday.

    Month abbreviations sit above the week their first day falls in.
    """
    if not days:
        return Text("no days")
    first = days[0].day - timedelta(days=days[0].day.weekday())
    weeks = (days[-1].day - first).days // 7 + 1
    grid: list[list[DayCount | None]] = [[None] * weeks for _ in range(7)]
    for d in days:
        offset = (d.day - first).days
        grid[offset % 7][offset // 7] = d
    busiest = max(d.reviews for d in days)
    label_width = 4
    months = [" "] * weeks
    starts = [((d.day - first).days // 7, d.day.strftime("%b")) for d in days if d.day.day == 1]
    # Placed from the last month back: each sits above the week its first day falls in,
    # or as little to the left of it as keeps a space before the next label and the
    # grid's width (a month starting in the last weeks, December ending a year, would
    # otherwise not fit, nor the November beside it).
    bound = weeks
    for col, name in reversed(starts):
        col = min(col, bound - len(name))
        if col < 0:
            break
        months[col : col + len(name)] = list(name)
        bound = col - 1
    out = Text(" " * label_width + "".join(months).rstrip() + "\n", style="grey62")
    for row in range(7):
        out.append(f"{WEEKDAYS[row]:<{label_width}}", style="grey62")
        for cell in grid[row]:
            if cell is None:
                out.append(" ")
                continue
            level = heat_level(cell.reviews, busiest)
            out.append(HEAT_GLYPHS[level], style=HEAT_STYLES[level])
        out.append("\n")
    out.append(" " * label_width + "less ", style="grey62")
    for glyph, style in zip(HEAT_GLYPHS, HEAT_STYLES, strict=True):
        out.append(glyph, style=style)
    out.append(f" more   busiest day: {busiest} answers", style="grey62")
    return out


def forecast_text(forecast: Forecast, height: int = 6, column: int = 2) -> Text:
    """Vertical bars, one per day (today first), eighth-block precision; counts on top."""
    days = forecast.days
    top = max(days) if days else 0
    out = Text()
    if top == 0:
        out.append("nothing due in the next 30 days", style="grey62")
        return out
    units = [round(n * height * 8 / top) for n in days]
    for level in range(height, 0, -1):
        label = f"{top:>4} " if level == height else "     "
        out.append(label, style="grey62")
        for u in units:
            filled = u - (level - 1) * 8
            glyph = BAR_GLYPHS[max(0, min(8, filled))]
            # Two columns a day leave a gap between bars; one (narrow terminals) none.
            out.append(glyph * max(1, column - 1) + " " * (column > 1), style="cyan")
        out.append("\n")
    axis = "".join(("|" if i % 7 == 0 else " ").ljust(column) for i in range(len(days))).rstrip()
    out.append("   0 " + axis + "\n", style="grey62")
    labels = Text("     ")
    pos = 0
    for i in range(0, len(days), 7):
        text = "today" if i == 0 else f"+{i}d"
        target = i * column
        labels.append(" " * max(0, target - pos) + text, style="grey62")
        pos = max(pos, target) + len(text)
    out.append_text(labels)
    out.append(f"\n     {forecast.total} due in 30 days", style="grey62")
    if forecast.overdue:
        out.append(f" ({forecast.overdue} overdue, counted today)", style="yellow")
    return out
