"""One figure of the speed report: quizzer's number next to its peer's, measured in the same run.

Every benchmark script calls :func:`emit` once per figure it measures. Besides its own
human-readable output, each call prints one line ``FIGURE {json}`` that
``benchmarks/scale_report.py`` collects from all the scripts and prints as one table
(figure, quizzer, peer, ratio, goal, met). The goal is a ratio to the peer (quizzer ≤
``goal`` × peer) or, when ``absolute`` is set, a bound in the figure's own unit.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

PREFIX = "FIGURE "


@dataclass(frozen=True)
class Figure:
    """One measured figure: what, quizzer's median, the peer's median, and the goal."""

    figure: str
    quizzer: float
    peer: str
    peer_value: float | None
    unit: str
    goal: float
    absolute: bool = False

    @property
    def ratio(self) -> float | None:
        """quizzer / peer, or None when there is no peer value."""
        if self.peer_value is None or self.peer_value == 0:
            return None
        return self.quizzer / self.peer_value

    @property
    def met(self) -> bool:
        """Whether the goal holds in this run."""
        if self.absolute:
            return self.quizzer <= self.goal
        ratio = self.ratio
        return ratio is not None and ratio <= self.goal

    def to_dict(self) -> dict[str, object]:
        """The figure as JSON-ready data, with its ratio and verdict."""
        data: dict[str, object] = asdict(self)
        data["ratio"] = self.ratio
        data["met"] = self.met
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Figure:
        """Read back what :meth:`to_dict` wrote."""
        peer_value = data.get("peer_value")
        return cls(
            figure=str(data["figure"]),
            quizzer=float(data["quizzer"]),  # type: ignore[arg-type]
            peer=str(data["peer"]),
            peer_value=None if peer_value is None else float(peer_value),  # type: ignore[arg-type]
            unit=str(data["unit"]),
            goal=float(data["goal"]),  # type: ignore[arg-type]
            absolute=bool(data.get("absolute", False)),
        )


def emit(
    figure: str,
    quizzer: float,
    peer: str,
    peer_value: float | None,
    *,
    unit: str = "s",
    goal: float,
    absolute: bool = False,
) -> Figure:
    """Print one ``FIGURE`` line and return the figure."""
    item = Figure(figure, quizzer, peer, peer_value, unit, goal, absolute)
    print(PREFIX + json.dumps(item.to_dict(), ensure_ascii=False), flush=True)
    return item


def parse(lines: str) -> list[Figure]:
    """Every figure printed in ``lines`` (a script's whole output)."""
    return [
        Figure.from_dict(json.loads(line[len(PREFIX) :]))
        for line in lines.splitlines()
        if line.startswith(PREFIX)
    ]
