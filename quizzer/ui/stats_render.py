"""Rich renderables for :class:`quizzer.stats.compute.Stats`, for ``quizzer stats`` and the app.

Every cell is a :class:`rich.text.Text` built from plain strings: deck texts
(concept names) are data, never markup, so a name like ``[bold]`` shows as typed.

Languages are named in themselves (``বাংলা``, ``हिन्दी``, ``العربية``), with their English name
too where the table fits (``Bangla · বাংলা``). Such names are drawn by ``shape`` (Arabic
joined and in visual order: :func:`quizzer.ui.textshape.display_text`), and a column holding
them is made as wide as a terminal draws them (a Hindi or Bengali vowel sign a cell, none in
Rich's count), with the text at its left: the blanks after it are where the lines are fitted
(:mod:`quizzer.ui.drawn_cells`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quizzer.concepts.languages import both_names, native_name
from quizzer.stats.figures import GroupSummary, SourceCount, Stats
from quizzer.ui.fitted import Fitted
from quizzer.ui.stats_charts import forecast_text, heatmap_text
from quizzer.ui.textshape import cells, display_text, resolve_rtl_mode

#: Concepts shown in the mastery table (the rest are in ``quizzer stats --json``).
MASTERY_ROWS = 60
#: How the sources table names each review mode (answers from Anki came by ``quizzer merge``).
SOURCE_NAMES = {
    "flip": "Flip",
    "choice": "Multiple choice",
    "typed": "Typed",
    "learn": "Learn",
    "anki": "Anki",
}


def _days(n: int) -> str:
    """``"1 day"``, ``"3 days"``."""
    return f"{n} day" if n == 1 else f"{n} days"


def percent(value: float | None, digits: int = 1) -> str:
    """``0.8512`` → ``"85.1%"``; ``None`` → ``"—"``."""
    return "—" if value is None else f"{value * 100:.{digits}f}%"


def duration(ms: int) -> str:
    """Milliseconds as ``"1h 02m"``, ``"3m 20s"`` or ``"45s"``."""
    seconds = round(ms / 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def _recall_style(value: float | None) -> str:
    if value is None:
        return "grey50"
    if value >= 0.9:
        return "bright_green"
    if value >= 0.8:
        return "green"
    if value >= 0.7:
        return "yellow"
    return "red"


def _t(value: object, style: str = "") -> Text:
    return Text(str(value), style=style)


#: Prepares a language's name for the terminal (shaping right-to-left scripts).
Shape = Callable[[str], str]


def terminal_shape(text: str) -> str:
    """``text`` shaped as this terminal needs (``--rtl auto``): the command line's default."""
    return display_text(text, resolve_rtl_mode("auto"))


def _names(labels: Sequence[str]) -> int:
    """The width of a column of names, as a terminal draws them."""
    return max((cells(label) for label in labels), default=0)


def overview_table(stats: Stats) -> Table:
    """Today, streak and totals."""
    t = Table(title="Today", show_header=False, box=None, padding=(0, 2))
    t.add_column(justify="left", style="bold")
    t.add_column(justify="right")
    today = stats.today
    rows = [
        ("Study day", today.day.isoformat()),
        ("Cards studied", str(today.cards)),
        ("Answers", str(today.reviews)),
        ("Correct", percent(today.correct_rate)),
        ("Time spent", duration(today.time_ms)),
        ("Streak", _days(stats.streak.current)),
        ("Longest streak", _days(stats.streak.longest)),
        ("Days studied", str(stats.streak.days_studied)),
        ("All answers", str(stats.total_reviews)),
        ("Cards studied ever", str(stats.total_cards)),
    ]
    for label, value in rows:
        t.add_row(_t(label), _t(value))
    return t


def states_table(stats: Stats) -> Table:
    """Cards by state."""
    s = stats.states
    t = Table(title="Cards by state", show_header=False, box=None, padding=(0, 2))
    t.add_column(style="bold")
    t.add_column(justify="right")
    for label, value, style in [
        ("New", s.new, "blue"),
        ("Learning", s.learning, "orange3"),
        ("Young (< 21 d)", s.young, "green"),
        ("Mature (≥ 21 d)", s.mature, "bright_green"),
        ("Relearning", s.relearning, "red"),
        ("Suspended", s.suspended, "yellow"),
        ("Leeches", s.leeches, "magenta"),
        ("Total", s.total, ""),
    ]:
        t.add_row(_t(label, style), _t(value))
    return t


def retention_table(stats: Stats) -> Table:
    """True retention: young, mature and all, per window."""
    title = "True retention (review answers passed)"
    t = Table(title=title, padding=(0, 1), min_width=len(title))
    t.add_column(_t(""))
    for r in stats.retention:
        t.add_column(_t(f"{r.days} days"), justify="right")
    for label in ("young", "mature", "all"):
        cells = []
        for r in stats.retention:
            pc = getattr(r, label)
            cells.append(_t(f"{percent(pc.rate)} ({pc.passed}/{pc.total})", _recall_style(pc.rate)))
        t.add_row(_t(label.capitalize()), *cells)
    return t


def mastery_table(
    stats: Stats, limit: int = MASTERY_ROWS, shape: Shape = terminal_shape, wide: bool = True
) -> Table:
    """Concepts × answer languages: recall probability now; the first ``limit`` concepts
    (a big library has thousands: ``--json`` carries them all). The languages are named in
    themselves, and in English too when ``wide``."""
    title = "Predicted recall now (FSRS), by answer language"
    more = len(stats.mastery) - limit
    # Retrievability is 1 at the moment of any answer, a failed one too: said here, or
    # a card failed a minute ago reads as known.
    caption = PREDICTED_NOTE + (
        f"\n… and {more:,} more concepts (`quizzer stats --json` lists them all)"
        if more > 0
        else ""
    )
    t = Table(title=title, padding=(0, 1), min_width=len(title), caption=caption)
    t.add_column(_t("Concept"), overflow="fold", max_width=32)
    name = both_names if wide else native_name
    for lang in stats.mastery_languages:
        label = shape(name(lang))
        # Headed at the left, over the figures: the blanks after a Hindi name take its signs.
        t.add_column(Text(label, justify="left"), justify="right", min_width=cells(label))
    t.add_column(_t("All"), justify="right")
    for row in stats.mastery[:limit]:
        concept = stats.concept_names.get(row.concept_uid, row.concept_uid)
        figures = []
        for lang in stats.mastery_languages:
            cell = row.cells.get(lang)
            if cell is None:
                figures.append(_t("·", "grey50"))
            else:
                figures.append(_t(percent(cell.recall, 0), _recall_style(cell.recall)))
        figures.append(_t(percent(row.recall, 0), _recall_style(row.recall)))
        t.add_row(_t(concept), *figures)
    return t


def hardest_table(stats: Stats) -> Table:
    """Concepts with the most lapses."""
    t = Table(title="Hardest concepts", padding=(0, 1))
    t.add_column(_t("Concept"), overflow="fold", max_width=32)
    t.add_column(_t("Lapses"), justify="right")
    t.add_column(_t("Again"), justify="right")
    t.add_column(_t("Answers"), justify="right")
    for h in stats.hardest:
        name = stats.concept_names.get(h.concept_uid, h.concept_uid)
        t.add_row(_t(name), _t(h.lapses, "red"), _t(h.again), _t(h.reviews))
    if not stats.hardest:
        t.add_row(_t("no lapses yet", "grey50"), _t(""), _t(""), _t(""))
    return t


#: What predicted recall is, under each table that shows it.
PREDICTED_NOTE = (
    "Predicted: the model's estimate for now, near 100% just after any answer, right or wrong."
)
#: What the summary tables' two rates are.
SUMMARY_NOTE = "Passed: answers passed / answered (true retention). " + PREDICTED_NOTE
#: The summary tables' headings: full, and short for narrow terminals.
_SUMMARY_HEADINGS = ("Cards", "Answers", "Passed", "Predicted", "Mature", "Time")
_SHORT_HEADINGS = ("Cards", "Ans.", "Passed", "Pred.", "Mat.", "Time")


def _summary_table(
    title: str,
    first: str,
    rows: Sequence[GroupSummary],
    label: Callable[[str], str],
    headings: Sequence[str] = _SUMMARY_HEADINGS,
    narrow: bool = False,
) -> Table:
    t = Table(title=title, padding=(0, 1), caption=SUMMARY_NOTE)
    if narrow:
        # No lines between the columns: the room the names need, in 60 columns.
        t.box, t.pad_edge = None, False
    labels = [label(s.key) for s in rows]
    widest = max((_names(label.split("\n")) for label in labels), default=0)
    t.add_column(_t(first), justify="left", min_width=widest)
    for heading in headings:
        t.add_column(_t(heading), justify="right")
    for name, s in zip(labels, rows, strict=True):
        t.add_row(
            _t(name),
            _t(s.cards),
            _t(s.reviews),
            _t(percent(s.correct_rate), _recall_style(s.correct_rate)),
            _t(percent(s.recall), "grey62"),
            _t(s.mature),
            _t(duration(s.time_ms)),
        )
    return t


def _pair_label(key: str, name: Callable[[str], str], shape: Shape, sep: str = " ") -> str:
    a, _, b = key.partition(">")
    return f"{shape(name(a))} →{sep}{shape(name(b))}"


def languages_table(stats: Stats, shape: Shape = terminal_shape) -> Table:
    """Per answer language, named in English and in itself."""
    return _summary_table(
        "By answer language", "Language", stats.languages, lambda key: shape(both_names(key))
    )


def pairs_table(stats: Stats, shape: Shape = terminal_shape) -> Table:
    """Per language pair, each named in English and in itself."""
    return _summary_table(
        "By language pair",
        "Pair",
        stats.pairs,
        lambda key: _pair_label(key, both_names, shape),
    )


def _narrow_tables(stats: Stats, shape: Shape) -> dict[str, Table]:
    """The tables naming languages in themselves only, with short headings, for narrow
    terminals."""
    return {
        "stats-mastery": mastery_table(stats, shape=shape, wide=False),
        "stats-languages": _summary_table(
            "By answer language",
            "Lang.",
            stats.languages,
            lambda key: shape(native_name(key)),
            _SHORT_HEADINGS,
            narrow=True,
        ),
        "stats-pairs": _summary_table(
            "By language pair",
            "Pair",
            stats.pairs,
            lambda key: _pair_label(key, native_name, shape, "\n"),  # on two lines
            _SHORT_HEADINGS,
            narrow=True,
        ),
    }


def sources_table(stats: Stats) -> Table:
    """Answers per source: each quiz mode, quizzer's sum when Anki answers are there too,
    Anki, then all; with the share of all answers, the recent answers and the pass rate.

    No rows without answers (:func:`detail_tables` then leaves it out).
    """
    sources = stats.sources
    t = Table(title="Where answers came from", padding=(0, 1))
    t.add_column(_t("Source"))
    for name in ("Answers", "Share", f"{sources.days} days", "Correct"):
        t.add_column(_t(name), justify="right")
    total = sources.total

    def row(label: str, counts: Sequence[SourceCount], style: str = "") -> None:
        reviews = sum(c.reviews for c in counts)
        passed = sum(c.passed for c in counts)
        t.add_row(
            _t(label, style),
            _t(reviews),
            _t(percent(reviews / total)),
            _t(sum(c.recent for c in counts)),
            _t(percent(passed / reviews)),
        )

    here = [c for c in sources.used if c.mode != "anki"]
    anki = [c for c in sources.used if c.mode == "anki"]
    for c in here:
        row(SOURCE_NAMES.get(c.mode, c.mode), [c])
    if here and anki:
        t.add_section()
        row("In quizzer", here, "bold")
    for c in anki:
        row(SOURCE_NAMES["anki"], [c], "cyan")
    if anki:
        t.caption = "Anki: answers brought back by quizzer merge"
    if total:
        t.add_section()
        row("All", sources.used, "bold")
    if stats.practice:
        # Practice is no share of the scheduled answers: its own rows, its own total.
        t.add_section()
        for c in stats.practice:
            t.add_row(
                _t(f"Practice: {c.mode}", "italic"),
                _t(c.reviews),
                _t("–"),
                _t(c.recent),
                _t(percent(c.passed / c.reviews)),
            )
        t.caption = (t.caption + " · " if t.caption else "") + (
            "Practice: cram and Match, no schedule changed"
        )
    return t


def detail_tables(stats: Stats, shape: Shape = terminal_shape) -> list[tuple[str, RenderableType]]:
    """The per-concept and per-language tables, each with its screen id; empty ones left out.

    A deck nobody has answered yet has no language, pair or source rows, and a header
    over nothing reads like a bug; the hardest-concepts table stays, saying "no lapses yet".
    """
    tables = [
        ("stats-mastery", mastery_table(stats, shape=shape)),
        ("stats-hardest", hardest_table(stats)),
        ("stats-languages", languages_table(stats, shape)),
        ("stats-pairs", pairs_table(stats, shape)),
        ("stats-sources", sources_table(stats)),
    ]
    narrow = _narrow_tables(stats, shape)
    return [
        (name, Fitted(table, narrow[name]) if name in narrow else table)
        for name, table in tables
        if table.row_count
    ]


def report_heading(stats: Stats) -> Fitted:
    """The report's first line: the title, the decks and when a study day starts; where that
    doesn't fit, the title and each of the others on a line of its own (never a word cut off
    onto a line alone)."""
    decks = f"decks: {', '.join(stats.decks) or 'all'}"
    day = f"day starts {stats.day_start_hour}:00 ({stats.timezone})"
    wide = Text("quizzer statistics", style="bold", no_wrap=True)
    wide.append(f"   {decks}   {day}", style="grey62")
    narrow = Text("quizzer statistics", style="bold")
    narrow.append(f"\n{decks}\n{day}", style="grey62")
    return Fitted(wide, narrow)


def full_report(stats: Stats, shape: Shape = terminal_shape) -> Group:
    """Everything, top to bottom, for the terminal."""
    return Group(
        report_heading(stats),
        Text(""),
        overview_table(stats),
        Text(""),
        states_table(stats),
        Text(""),
        retention_table(stats),
        Text(""),
        Text("Answers per day, last 365 days", style="bold italic"),
        heatmap_text(stats.heatmap),
        Text(""),
        Text("Due in the next 30 days", style="bold italic"),
        Fitted(forecast_text(stats.forecast), forecast_text(stats.forecast, column=1)),
        *(part for _, table in detail_tables(stats, shape) for part in (Text(""), table)),
    )
