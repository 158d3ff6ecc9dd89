"""The lines above the card: deck, language pair, mode, and done/left with a bar."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from quizzer.ui.language_labels import Captions, same
from quizzer.ui.textshape import cells, clip
from quizzer.ui.widgets.drawn import fit_strip

BAR_WIDTH = 12
#: Below this many columns the header takes two lines, so the pair and mode stay visible
#: (the deck's name, the direction with its languages named in themselves, the counts and
#: the bar take about 110 columns on one line).
NARROW = 110
#: The gap before the pair and before the counts (one line), and before the bar.
GAP = 3
#: The same gaps on two lines.
NARROW_GAP = 1
#: The deck's name keeps this many cells (or all of it, if shorter) before the direction
#: names its languages in themselves only.
DECK_ROOM = 16


def filled_cells(done: int, total: int, width: int = BAR_WIDTH) -> int:
    """How many of the bar's ``width`` cells are filled for ``done`` of ``total``."""
    return 0 if total <= 0 else min(width, round(width * done / total))


class ProgressHeader(Widget):
    """``Quantization · Russian · Русский term → English term · flip`` and the counts with a
    bar.

    The deck name gives way first (cut with an ellipsis) down to :data:`DECK_ROOM` cells,
    then the direction names its languages in themselves only (``Русский term → English
    term``), which is always shown. Narrower than :data:`NARROW` columns, the counts and bar go to
    a second line of their own (so the counts never share a column width with
    the pair).

    One widget drawing the line as two rows of labels would (the deck name takes the
    room the pair and the counts leave), repainted when the counts change. Labels would
    lay the whole screen out again after every answer, their widths changing with the
    counts: a key press to the next card took 19 ms of CPU instead of 16 ms with the
    100k-card store (median of 40 cards, three runs; the learner's budget is a 16 ms
    frame), and the first card 4% more instructions.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"progress-header--done", "progress-header--left"}

    DEFAULT_CSS = """
    ProgressHeader {
        height: 1;
        padding: 0 2;
        background: $panel;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    ProgressHeader.-narrow {
        height: 2;
    }
    ProgressHeader > .progress-header--done {
        color: $accent;
    }
    ProgressHeader > .progress-header--left {
        color: $panel-lighten-2;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The deck's name as shown (cut to fit).
        self.where = ""
        #: The direction and mode, e.g. ``English term → Russian · Русский def · flip``,
        #: and the same with the languages named in themselves only (drawn as they read).
        self.pair: Captions = same("")
        #: The counts as shown, e.g. ``3 done · 17 left``.
        self.counts = ""
        self._done, self._total = 0, 1

    def on_resize(self, event: events.Resize) -> None:
        """Switch to the two-line layout when narrower than :data:`NARROW`."""
        self.set_class(event.size.width < NARROW, "-narrow")

    def on_mount(self) -> None:
        """Pick the one- or two-line layout for the app's starting width."""
        self.set_class(self.app.size.width < NARROW, "-narrow")

    def update(
        self,
        where: str,
        done: int,
        left: int,
        extra: str = "",
        pair: Captions | str = "",
        counts: str | None = None,
    ) -> None:
        """Show the deck (``where``), the ``pair`` and mode, and how far along.

        ``pair`` is the direction's two forms (see :attr:`pair`).
        ``counts`` is the text of the counts (default ``"3 done · 17 left"``);
        ``extra`` goes before it (e.g. the learn round).
        """
        if counts is None:
            counts = f"{done} done · {left} left"
        self.where = where
        self.pair = same(pair) if isinstance(pair, str) else pair
        self.counts = f"{extra} · {counts}" if extra else counts
        self._done, self._total = done, done + left
        self.refresh()

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the header at the content width, styled as the labels were: the
        texts in the header's colours (the deck and pair bold), the blanks between and
        after them in its background only."""
        width = self.size.width
        text = self.visual_style.rich_style
        bold = text + RichStyle(bold=True)
        blank = RichStyle(bgcolor=text.bgcolor)
        if self.has_class("-narrow"):
            if y == 0:
                pair = self._pair(width - NARROW_GAP)
                where = width - NARROW_GAP - cells(pair)
                line = [*self._fit(self.where, where, bold, blank), Segment(" ", blank)]
                line.append(Segment(pair, bold))
            else:
                counts = width - NARROW_GAP - BAR_WIDTH
                line = [*self._fit(self.counts, counts, text, blank), Segment(" ", blank)]
                line.extend(self._bar(text))
        else:
            # The counts and bar keep their width at the right; the deck name the rest.
            right = cells(self.counts) + GAP + BAR_WIDTH
            pair = self._pair(width - GAP - right - GAP)
            where = width - GAP - right - GAP - cells(pair)
            gap = Segment(" " * GAP, blank)
            line = [*self._fit(self.where, where, bold, blank), gap, Segment(pair, bold)]
            line += [gap, Segment(self.counts, text), gap, *self._bar(text)]
        # The parts are measured as the terminal draws them (a Bengali name's vowel signs
        # take cells): a line that fills the width by that count is drawn as it is. Handed
        # to fit_strip, which counts as Rich does first, its padding would be taken twice,
        # closing the gap after the direction. A line too wide (a tiny terminal) is cut.
        if sum(cells(segment.text) for segment in line) == width:
            return Strip(line, width)
        return fit_strip(Strip(line), width)

    def _pair(self, room: int) -> str:
        """The direction for ``room`` cells shared with the deck's name: both names of its
        languages while the deck's name keeps :data:`DECK_ROOM` cells, else their names in
        themselves (cut with "…" only where it is wider than the whole room)."""
        keep = min(cells(self.where), DECK_ROOM)
        wide, narrow = self.pair
        return wide if cells(wide) <= room - keep else clip(narrow, max(room, 1))

    @staticmethod
    def _fit(text: str, width: int, style: RichStyle, blank: RichStyle) -> list[Segment]:
        """``text`` in ``style`` in exactly ``width`` cells: cut with an ellipsis, or
        followed by blanks (as a label of that width pads its text)."""
        if width <= 0:
            return []
        # (A label one line high shows a text's first line only.)
        shown = clip(text.partition("\n")[0], width)
        pad = width - cells(shown)
        return [Segment(shown, style), *([Segment(" " * pad, blank)] if pad else [])]

    def _bar(self, base: RichStyle) -> list[Segment]:
        """The bar's segments: the part done in the accent colour, the rest dimmed."""
        filled = filled_cells(self._done, self._total)
        done = base + self.get_component_rich_style("progress-header--done", partial=True)
        left = base + self.get_component_rich_style("progress-header--left", partial=True)
        parts = [Segment("━" * filled, done), Segment("━" * (BAR_WIDTH - filled), left)]
        return [part for part in parts if part.text]
