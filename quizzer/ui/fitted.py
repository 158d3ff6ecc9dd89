"""A renderable that picks its wide or narrow form by the width it is given."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement


class Fitted:
    """The ``wide`` renderable where it fits, else the ``narrow`` one (a 60-column terminal)."""

    def __init__(self, wide: RenderableType, narrow: RenderableType) -> None:
        self.wide = wide
        self.narrow = narrow

    def _pick(self, console: Console, options: ConsoleOptions) -> RenderableType:
        # Measured unbounded (a measurement is clamped to the width it is given).
        unbounded = options.update_width(1 << 16)
        fits = Measurement.get(console, unbounded, self.wide).maximum <= options.max_width
        return self.wide if fits else self.narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(console, options))
