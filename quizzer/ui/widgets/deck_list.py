"""The home screen's deck list: each deck's name and, beneath it, its counts, each on one line
that fits the width it is drawn at; a click highlights a deck, Enter or a double click starts it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets.option_list import Option

from quizzer.ui.textshape import cells, clip
from quizzer.ui.widgets.drawn import DrawnOptionList


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One deck as the list shows it.

    ``name`` is the deck's name as written (the list shapes it for the terminal);
    ``counts`` its (new, due) cards for the chosen direction, or ``None`` with ``note``
    saying why there are none yet ("counting…", "can't be read"; ``problem`` when it is
    trouble). Without counts nor note only the name is shown (no direction chosen).
    """

    id: str
    name: str
    concepts: int
    counts: tuple[int, int] | None = None
    note: str = ""
    problem: bool = False
    marked: bool = False


def _details(entry: DeckEntry, width: int) -> Content:
    """The line under the name: the longest form that fits ``width`` cells. The counts come
    before the deck's size when both don't fit, since they are what a learner picks by."""
    size = f"{entry.concepts} concepts"
    if entry.counts is None:
        style = "$error" if entry.problem else "$text-muted"
        for text in (f"{size} · {entry.note}", entry.note):
            if cells(text) <= width:
                return Content.styled(text, style)
        return Content.styled(clip(entry.note, width), style)
    new, due = entry.counts
    counts = Content.assemble(
        (f"{new} new", "$text-accent"),
        " · ",
        (f"{due} due", "$text-success" if due else "$text-muted"),
    )
    whole = Content.assemble((f"{size} · ", "$text-muted"), counts)
    if whole.cell_length <= width:
        return whole
    return counts.truncate(width, ellipsis=True)


def entry_prompt(entry: DeckEntry, width: int, shape: Callable[[str], str]) -> Content:
    """``entry`` as its option shows it at ``width`` cells (0: as wide as it likes): the
    name (marked ✓ when picked for a session of several decks), and its details."""
    name = f"✓ {entry.name}" if entry.marked else entry.name
    if width > 0:
        name = clip(name, width)
    lines = [Content(shape(name))]
    if entry.counts is not None or entry.note:
        lines.append(_details(entry, width if width > 0 else 1 << 16))
    return Content("\n").join(lines)


class DeckLines(Visual):
    """A deck's option: :func:`entry_prompt` laid out for each width it is drawn at, so the
    first frame is already fitted (no line wraps, whatever the terminal's width)."""

    def __init__(self, entry: DeckEntry, shape: Callable[[str], str]) -> None:
        self.entry, self.shape = entry, shape

    def fitted(self, width: int) -> Content:
        """The entry's lines at ``width`` cells (0: as wide as they like)."""
        return entry_prompt(self.entry, width, self.shape)

    def __str__(self) -> str:
        return str(self.fitted(0))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        """The lines fitted to ``width``, drawn (part of the Visual protocol)."""
        return self.fitted(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """The widest form's width (part of the Visual protocol)."""
        return self.fitted(0).get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """One line for the name, one for the details if any: never wrapped."""
        return self.fitted(width).get_height(rules, width)


class DeckList(DrawnOptionList):
    """The deck list. A click only highlights a deck; Enter (or a double click) starts it.

    ``initial`` is highlighted as soon as the list is mounted, before any key typed early
    can reach it. Each deck's lines are fitted to the width they are drawn at
    (:class:`DeckLines`), so none wraps: at 60 columns the list is 24 cells wide.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "Start", show=False)]

    def __init__(
        self,
        entries: Sequence[DeckEntry] = (),
        *,
        initial: int | None = None,
        shape: Callable[[str], str] = str,
        id: str | None = None,
    ) -> None:
        self._entries = list(entries)
        self._shape = shape
        super().__init__(*self._deck_options(), id=id)
        self._initial = initial

    def show_decks(self, entries: Sequence[DeckEntry]) -> None:
        """List ``entries`` instead, keeping the highlighted place (clamped to the list)."""
        keep = self.highlighted
        self._entries = list(entries)
        self.clear_options()
        self.add_options(self._deck_options())
        if self.option_count:
            self.highlighted = min(keep or 0, self.option_count - 1)

    def _deck_options(self) -> list[Option]:
        return [Option(DeckLines(entry, self._shape), id=entry.id) for entry in self._entries]

    def on_mount(self) -> None:
        """Highlight the ``initial`` deck (clamped to the list) before any key arrives."""
        if self._initial is not None and self.option_count:
            self.highlighted = min(self._initial, self.option_count - 1)

    def on_click(self, event: events.Click) -> None:
        """Highlight the clicked deck; a double click starts it."""
        # Textual's OptionList selects on click; a deck is chosen with the mouse
        # before the direction and mode, so a click must not start the session.
        event.prevent_default()  # (OptionList's own click handler would select it)
        clicked: int | None = event.style.meta.get("option")
        if clicked is None or self.get_option_at_index(clicked).disabled:
            return
        self.highlighted = clicked
        if event.chain >= 2:
            self.action_select()
