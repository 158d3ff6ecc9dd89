"""Anki export: the quizzer decks as an ``.apkg`` package (genanki), optionally with progress.

* :mod:`quizzer.anki.directions` — a card's :class:`~quizzer.anki.directions.Direction`
  and the sets an export asks for (default, ``--all``, ``--pair``/``--kinds``).
* :mod:`quizzer.anki.model` — the note type of fixed shape per language set: every
  direction's template, its guard field, stable ids; ``template_direction``.
* :mod:`quizzer.anki.notes` — a concept as a note: escaped fields, which cards, tags, GUID.
* :mod:`quizzer.anki.preset` — the deck options preset shipped in the package.
* :mod:`quizzer.anki.exporter` — builds and writes the package reproducibly.
* :mod:`quizzer.anki.progress` — fills studied cards' schedule and review log into it.
"""

from quizzer.anki.exporter import ExportResult, export_apkg
from quizzer.anki.model import KINDS, Direction, default_directions

__all__ = ["KINDS", "Direction", "ExportResult", "default_directions", "export_apkg"]
