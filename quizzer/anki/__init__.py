"""Anki export: the quizzer decks as an ``.apkg`` package (genanki), optionally with progress.

* :mod:`quizzer.anki.model` — the one note type: fixed fields, one card template per
  :class:`~quizzer.anki.model.Direction`, CSS, stable ids.
* :mod:`quizzer.anki.notes` — a concept as a note: escaped fields, tags, GUID.
* :mod:`quizzer.anki.exporter` — builds and writes the package reproducibly.
* :mod:`quizzer.anki.progress` — fills studied cards' schedule and review log into it.
"""

from quizzer.anki.exporter import ExportResult, export_apkg
from quizzer.anki.model import KINDS, Direction, default_directions

__all__ = ["KINDS", "Direction", "ExportResult", "default_directions", "export_apkg"]
