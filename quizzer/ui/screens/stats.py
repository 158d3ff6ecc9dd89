"""The statistics screen: the figures of ``quizzer stats``, a due-forecast chart and the heatmap.

Self-contained: give it a :class:`~quizzer.stats.compute.Stats`, a loader that
counts one, or the progress store (and optionally a deck id, the decks and the
clock). A loader runs in a worker thread: the screen shows a loading line meanwhile,
so a big review log never holds up the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from quizzer.concepts.deck import Deck
from quizzer.stats.figures import Stats
from quizzer.ui.stats_render import detail_tables, overview_table, retention_table, states_table
from quizzer.ui.stats_table import RenderedTable
from quizzer.ui.textshape import display_text
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
    StatsScreen .stats-row > RenderedTable {
        width: auto;
        margin: 0 2 0 0;
    }
    StatsScreen .stats-row.-stacked {
        layout: vertical;
    }
    StatsScreen .stats-row.-stacked > RenderedTable {
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
        load: Callable[[], Stats] | None = None,
        rtl_mode: str = "app",
    ) -> None:
        if stats is None and load is None:
            if store is None:
                raise TypeError("StatsScreen needs a Stats object, a loader or a progress store")
            load = partial(_load_stats, store, deck, decks, now)
        super().__init__()
        #: The figures (``None`` while they are being counted).
        self.stats: Stats | None = stats
        self._load = load
        #: How right-to-left language names are drawn (see :func:`display_text`).
        self.rtl_mode = rtl_mode

    def compose(self) -> ComposeResult:
        """The figures, or a loading line while a worker thread counts them."""
        with VerticalScroll(id="stats-body"):
            if self.stats is not None:
                yield from self._figures(self.stats)
            else:
                yield Static(Text("Statistics", style="bold"), id="stats-heading")
                yield Static(Text("Counting your statistics…"), id="stats-loading")
        yield Footer()

    def on_mount(self) -> None:
        """Count the figures off the UI thread (a big log takes a while)."""
        if self.stats is None and self._load is not None:
            self.run_worker(self._load, name="stats", thread=True, exit_on_error=False)

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Show the figures once counted (or why they can't be)."""
        if event.worker.name != "stats":
            return
        if event.state == WorkerState.SUCCESS and isinstance(event.worker.result, Stats):
            self.stats = event.worker.result
            body = self.query_one("#stats-body", VerticalScroll)
            await body.remove_children()
            # What a screenful shows first; the tables below it once that is painted (laying
            # out a mastery table of 60 rows and the summaries took as long as all the rest).
            await body.mount_all(list(self._first_figures(self.stats)))
            self.call_after_refresh(self._fit_rows)
            self.call_after_refresh(self._mount_details, self.stats)
        elif event.state == WorkerState.ERROR:
            error = event.worker.error
            message = getattr(error, "message", None) or str(error)
            self.query_one("#stats-loading", Static).update(
                Text(f"The statistics can't be shown: {message}")
            )

    def _figures(self, s: Stats) -> Iterator[Widget]:
        yield from self._first_figures(s)
        yield from self._details(s)

    def _first_figures(self, s: Stats) -> Iterator[Widget]:
        """The heading, today's figures and the cards by state, retention and the charts."""
        heading = Text("Statistics", style="bold")
        heading.append(
            f"   decks: {', '.join(s.decks) or 'all'} · day starts {s.day_start_hour}:00",
            style="dim",
        )
        yield Static(heading, id="stats-heading")
        yield Horizontal(
            RenderedTable(overview_table(s), id="stats-today"),
            RenderedTable(states_table(s), id="stats-states"),
            classes="stats-row",
        )
        yield RenderedTable(retention_table(s), id="stats-retention", classes="stats-table")
        yield Static(Text("Due in the next 30 days"), classes="stats-title")
        yield DueChart(s.forecast, id="stats-forecast")
        yield Static(Text("Answers per day, last 365 days"), classes="stats-title")
        yield Heatmap(s.heatmap, id="stats-heatmap")

    def _details(self, s: Stats) -> Iterator[Widget]:
        """The mastery, hardest-concepts and summary tables, under the charts."""
        for name, table in detail_tables(s, lambda text: display_text(text, self.rtl_mode)):
            yield RenderedTable(table, id=name, classes="stats-table")

    async def _mount_details(self, s: Stats) -> None:
        if s is self.stats and self.is_attached:
            await self.query_one("#stats-body", VerticalScroll).mount_all(list(self._details(s)))

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
