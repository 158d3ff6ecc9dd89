"""The statistics screen: the figures of ``quizzer stats``, a due-forecast chart and the heatmap.

Self-contained: give it a :class:`~quizzer.stats.compute.Stats`, or the progress
store (and optionally a deck id, the decks and the clock) and it computes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from quizzer.concepts.deck import Deck
from quizzer.stats.figures import Stats
from quizzer.ui.stats_render import detail_tables, overview_table, retention_table, states_table
from quizzer.ui.widgets.due_chart import DueChart
from quizzer.ui.widgets.heatmap import Heatmap


def _load_stats(
    store: Any, deck: str | None, decks: Sequence[Deck] | None, now: datetime | None
) -> Stats:
    from quizzer.services.library import library_decks
    from quizzer.services.stats import stats_from_store

    if decks is None:
        decks = library_decks()
    return stats_from_store(store, decks, now=now, deck_ids=[deck] if deck else None)


class StatsScreen(Screen[None]):
    """Statistics; Esc or q goes back, arrows/PgUp/PgDn scroll."""

    DEFAULT_CSS = """
    StatsScreen #stats-body {
        padding: 0 1;
        overflow-x: auto;
    }
    StatsScreen .stats-title {
        text-style: bold;
        color: $accent;
        margin: 1 0 0 0;
    }
    StatsScreen .stats-row {
        height: auto;
    }
    StatsScreen .stats-row > Static {
        width: auto;
        margin: 0 2 0 0;
    }
    StatsScreen .stats-row.-stacked {
        layout: vertical;
    }
    StatsScreen .stats-row.-stacked > Static {
        margin: 0 0 1 0;
    }
    StatsScreen .stats-table {
        width: auto;
        max-width: 100%;
        margin: 1 0 0 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("q", "back", "Back", show=False),
    ]

    def __init__(
        self,
        stats: Stats | None = None,
        *,
        store: Any = None,
        deck: str | None = None,
        decks: Sequence[Deck] | None = None,
        now: datetime | None = None,
    ) -> None:
        if stats is None:
            if store is None:
                raise TypeError("StatsScreen needs a Stats object or a progress store")
            stats = _load_stats(store, deck, decks, now)
        super().__init__()
        self.stats = stats

    def compose(self) -> ComposeResult:
        """Compose the heading and the stats tables, heatmap and due chart in a scroll view."""
        s = self.stats
        heading = Text("Statistics", style="bold")
        heading.append(
            f"   decks: {', '.join(s.decks) or 'all'} · day starts {s.day_start_hour}:00",
            style="dim",
        )
        with VerticalScroll(id="stats-body"):
            yield Static(heading, id="stats-heading")
            with Horizontal(classes="stats-row"):
                yield Static(overview_table(s), id="stats-today")
                yield Static(states_table(s), id="stats-states")
            yield Static(retention_table(s), id="stats-retention", classes="stats-table")
            yield Static(Text("Due in the next 30 days"), classes="stats-title")
            yield DueChart(s.forecast, id="stats-forecast")
            yield Static(Text("Answers per day, last 365 days"), classes="stats-title")
            yield Heatmap(s.heatmap, id="stats-heatmap")
            for name, table in detail_tables(s):
                yield Static(table, id=name, classes="stats-table")
        yield Footer()

    def on_resize(self, _event: events.Resize) -> None:
        """Tables side by side only where they fit: else one under the other."""
        self.call_after_refresh(self._fit_rows)

    def _fit_rows(self) -> None:
        for row in self.query(".stats-row"):
            needed = sum(c.outer_size.width + c.styles.margin.width for c in row.children)
            row.set_class(needed > row.content_size.width, "-stacked")

    def action_back(self) -> None:
        """Back to where the screen was opened from."""
        self.app.pop_screen()
