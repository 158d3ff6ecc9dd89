"""A text with a long and a short form: the long one where the line has room."""

from __future__ import annotations

from textual import events

from quizzer.ui.language_labels import Captions, pick_caption, same
from quizzer.ui.widgets.drawn import DrawnStatic


class FittedLine(DrawnStatic):
    """A text naming languages (:func:`~quizzer.ui.language_labels.named`): its long form
    (``Type the Bangla · বাংলা term``) where it fits one line, else its short one (``Type
    the বাংলা term``), wrapped if even that is too long. Picked again when the width changes."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.captions: Captions = same("")
        self._shown = ""

    def show(self, captions: Captions | str) -> None:
        """Show ``captions`` (the long one until the line's width is known)."""
        self.captions = same(captions) if isinstance(captions, str) else captions
        self._pick()

    def _pick(self) -> None:
        width = self.content_region.width
        text = pick_caption(self.captions, width) if width else self.captions[0]
        # Updated only when the text changes: an update lays the screen out again, and a
        # resize that keeps the text (a new height) needs no second layout.
        if text != self._shown:
            self._shown = text
            self.update(text)

    def on_resize(self, _event: events.Resize) -> None:
        """Pick the form that fits the new width."""
        self._pick()
