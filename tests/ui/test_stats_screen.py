"""The statistics screen: a snapshot on a fixed history, and Pilot tests on a real store."""

from __future__ import annotations

import dataclasses
import io
import random
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.errors import StoreError
from quizzer.progress import open_store
from quizzer.scheduling.studyday import study_day
from quizzer.stats.compute import compute_stats
from quizzer.stats.figures import Stats
from quizzer.ui.drawn_cells import DrawnWidths
from quizzer.ui.screens.stats import StatsScreen
from quizzer.ui.stats_render import detail_tables, full_report
from quizzer.ui.stats_table import RenderedTable
from quizzer.ui.textshape import cells
from quizzer.ui.widgets.due_chart import DueChart
from quizzer.ui.widgets.heatmap import Heatmap
from tests.factories import concept
from tests.synthetic_history import make_deck, make_history
from tests.ui_support import make_app


def fixed_stats() -> Stats:
    history = make_history(seed=42, n_cards=60, days=365)
    return compute_stats(
        history.reviews, history.cards, history.now, history.tz, 4, decks=[make_deck()]
    )


class StatsApp(App[None]):
    """A bare app that opens the statistics screen over a blank one."""

    def __init__(self, screen_factory) -> None:
        super().__init__()
        self.screen_factory = screen_factory

    def on_mount(self) -> None:
        self.push_screen(self.screen_factory())


def test_stats_screen_snapshot(snap_compare) -> None:
    stats = fixed_stats()
    assert snap_compare(StatsApp(lambda: StatsScreen(stats)), terminal_size=(110, 70))


def test_stats_screen_end_shows_where_answers_came_from(snap_compare) -> None:
    """The bottom of the screen: every fifth answer of the history given in Anki."""
    history = make_history(seed=42, n_cards=60, days=365)
    reviews = [
        dataclasses.replace(r, mode="anki") if i % 5 == 0 else r
        for i, r in enumerate(history.reviews)
    ]
    stats = compute_stats(reviews, history.cards, history.now, history.tz, 4, decks=[make_deck()])
    anki = next(c for c in stats.sources.counts if c.mode == "anki")
    assert anki.reviews == len(reviews[::5]) and stats.sources.total == len(reviews)

    async def to_the_end(pilot) -> None:
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(
        StatsApp(lambda: StatsScreen(stats)), terminal_size=(110, 40), run_before=to_the_end
    )


def _plain(widget: Static) -> str:
    return str(widget.render())


def _plain_table(widget: RenderedTable) -> str:

    console = Console(width=110, record=True, file=io.StringIO())
    console.print(widget.renderable)
    return console.export_text()


async def test_stats_screen_from_a_store(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    now = datetime.now(UTC)
    deck = make_deck()
    rng = random.Random(5)
    with open_store(path) as store:
        for i in range(6):
            key = CardKey(f"synth/c{i:02d}", Pair("en", "term", "ru", "term"))
            for days_ago in (9, 5, 1):
                store.record(key, rng.choice([1, 3]), now - timedelta(days=days_ago, hours=i))
        expected = len(store.reviews())
    with open_store(path, read_only=True) as store:
        app = StatsApp(lambda: StatsScreen(store=store, deck="synth", decks=[deck]))
        async with app.run_test(size=(110, 60)) as pilot:
            await _counted(app, pilot)
            screen = app.screen
            assert isinstance(screen, StatsScreen)
            assert screen.stats is not None
            assert screen.stats.total_reviews == expected == 18
            assert screen.stats.mastery_languages == ("ru",)
            heat = screen.query_one(Heatmap)
            assert sum(d.reviews for d in heat.days) == 18
            assert "busiest day" in heat.render().plain
            chart = screen.query_one(DueChart)
            assert chart.forecast.total == sum(chart.forecast.days) > 0
            mastery = screen.query_one("#stats-mastery", RenderedTable)
            assert mastery.region.height > 0
            sources = screen.query_one("#stats-sources", RenderedTable)
            flip = next(c for c in screen.stats.sources.counts if c.mode == "flip")
            assert flip.reviews == screen.stats.sources.total == 18
            assert "Flip" in _plain_table(sources) and "Anki" not in _plain_table(sources)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, StatsScreen)


def _figures(screen: StatsScreen) -> Stats | None:
    """The figures the screen shows (read afresh: its worker sets them)."""
    return screen.stats


async def _counted(app: App[Any], pilot: Pilot[Any]) -> None:
    """Wait for the screen's worker thread to count the figures, and for them to be shown."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_figures_are_counted_off_the_ui_thread_behind_a_loading_line() -> None:
    stats = fixed_stats()
    release = threading.Event()
    threads: list[threading.Thread] = []

    def load() -> Stats:
        threads.append(threading.current_thread())
        assert release.wait(10)
        return stats

    app = StatsApp(lambda: StatsScreen(load=load))
    async with app.run_test(size=(110, 60)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.stats is None
        loading = screen.query_one("#stats-loading", Static)
        assert "Counting your statistics" in _plain(loading)
        assert not screen.query("#stats-today")  # no figures yet, and the app still answers
        await pilot.press("down")
        release.set()
        await _counted(app, pilot)
        assert _figures(screen) is stats
        assert threads and threads[0] is not threading.main_thread()
        assert not screen.query("#stats-loading")
        assert "Answers" in _plain_table(screen.query_one("#stats-today", RenderedTable))
        assert sum(d.reviews for d in screen.query_one(Heatmap).days) > 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


async def test_figures_counted_in_the_worker_end_up_as_those_given() -> None:
    """The worker's figures are mounted a screenful first, the tables below it next: once
    done, the screen holds the same widgets in the same order as one given the figures."""
    stats = fixed_stats()

    async def shown(screen_factory) -> list[tuple[str, str | None, str]]:
        app = StatsApp(screen_factory)
        async with app.run_test(size=(110, 40)) as pilot:
            await _counted(app, pilot)
            body = app.screen.query_one("#stats-body")
            return [(type(w).__name__, w.id, " ".join(sorted(w.classes))) for w in body.children]

    given = await shown(lambda: StatsScreen(stats))
    assert given == await shown(lambda: StatsScreen(load=lambda: stats))
    assert [i for _, i, _ in given if i][-5:] == [
        "stats-mastery",
        "stats-hardest",
        "stats-languages",
        "stats-pairs",
        "stats-sources",
    ]


async def test_a_store_that_cant_be_read_is_said_on_the_screen() -> None:

    def load() -> Stats:
        raise StoreError("review log file is damaged", hint="run `quizzer doctor`")

    app = StatsApp(lambda: StatsScreen(load=load))
    async with app.run_test(size=(110, 30)) as pilot:
        await _counted(app, pilot)
        loading = app.screen.query_one("#stats-loading", Static)
        assert "can't be shown: review log file is damaged" in _plain(loading)


def test_stats_screen_needs_stats_or_store() -> None:
    with pytest.raises(TypeError):
        StatsScreen()


async def test_the_app_opens_the_stats_screen_for_a_deck(tmp_path: Path) -> None:

    path = tmp_path / "progress.json"
    now = datetime.now(UTC)
    with open_store(path) as store:
        key = CardKey("training-efficiency/lora", Pair("ru", "term", "bn", "definition"))
        store.record(key, 3, now - timedelta(days=2))
        store.record(key, 3, now - timedelta(minutes=5))
    app = make_app(path)
    async with app.run_test(size=(110, 50)) as pilot:
        app.open_stats("training-efficiency")
        await _counted(app, pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.stats is not None
        assert screen.stats.decks == ("training-efficiency",)
        assert screen.stats.total_reviews == 2
        today = study_day(screen.stats.generated_at, None, 4)
        answered = [now - timedelta(days=2), now - timedelta(minutes=5)]
        expected = sum(study_day(t, None, 4) == today for t in answered)
        assert screen.stats.today.reviews == expected
        assert [row.concept_uid for row in screen.stats.mastery][1] == "training-efficiency/lora"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


def test_a_deck_nobody_answered_shows_no_empty_tables() -> None:
    """No header over nothing; concepts listed by their own terms."""

    deck = Deck(
        id="ru",
        name="ru",
        concepts=(concept("ru", "adaptery", {"ru": ("Адаптеры", "Малые модули.")}),),
    )
    stats = compute_stats([], [], datetime(2026, 3, 1, tzinfo=UTC), UTC, 4, decks=[deck])
    assert [name for name, _ in detail_tables(stats)] == ["stats-mastery", "stats-hardest"]
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(full_report(stats))
    text = console.export_text()
    assert "By answer language" not in text and "By language pair" not in text
    assert "Where answers came from" not in text
    assert "Адаптеры" in text and "adaptery" not in text and "no lapses yet" in text


@pytest.mark.parametrize("width", [60, 80, 110])
def test_the_report_fits_narrow_terminals_without_squeezing_headings(width: int) -> None:
    """At 60 columns the due chart takes one column a day (it took 65) and the summaries
    name languages in themselves only, under short headings, instead of wrapping and
    cutting them. Widths as a terminal draws them (a Bengali vowel sign a cell)."""

    console = Console(width=width, record=True, file=io.StringIO())
    console.print(DrawnWidths(full_report(fixed_stats())))
    lines = console.export_text().splitlines()
    assert max(cells(line) for line in lines) <= width
    text = "\n".join(lines)
    assert "…" not in text  # no heading or label cut short
    axis = next(line for line in lines if line.strip().startswith("today"))
    assert axis.split() == ["today", "+7d", "+14d", "+21d", "+28d"]  # on one line
    heading = next(i for i, line in enumerate(lines) if "By language pair" in line)
    header_row = next(line for line in lines[heading:] if "Passed" in line)
    if width >= 110:
        assert "Predicted" in header_row
        assert "English → Bangla · বাংলা" in text  # CLDR names bn Bangla; বাংলা in itself
    else:
        # Each language in itself, a pair on two lines: English →, then বাংলা under it.
        pairs = "\n".join(lines[heading : heading + 12])
        assert "Pred." in header_row and "Bangla" not in pairs
        at = next(
            i for i, line in enumerate(lines[heading:], heading) if line.startswith("English →")
        )
        assert lines[at + 1].strip() == "বাংলা"


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_report_heading_keeps_its_parts_whole_at_any_width(width: int) -> None:
    """The heading (title, decks, day start and zone) is one line where it fits; else the
    title, the decks and the day start each get a line (at 80 columns the zone used to
    wrap onto a line of its own)."""

    stats = dataclasses.replace(
        fixed_stats(), decks=("quantization", "training-efficiency"), timezone="Europe/Paris"
    )
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(full_report(stats))
    lines = console.export_text().splitlines()
    day = "day starts 4:00 (Europe/Paris)"
    if width >= 120:
        assert lines[0].rstrip() == (
            f"quizzer statistics   decks: quantization, training-efficiency   {day}"
        )
    else:
        assert [line.rstrip() for line in lines[:3]] == [
            "quizzer statistics",
            "decks: quantization, training-efficiency",
            day,
        ]
    assert lines[3 if width < 120 else 1].strip() == ""


async def test_the_due_chart_takes_one_column_a_day_where_two_dont_fit() -> None:
    stats = fixed_stats()
    for size, column in (((60, 20), 1), ((110, 40), 2)):
        app = StatsApp(lambda: StatsScreen(stats))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            chart = app.screen.query_one(DueChart)
            assert chart.column == column
            assert chart.region.width <= size[0]
