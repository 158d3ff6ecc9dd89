"""How a checked typed answer is told: the verdict line and the character diff.

Missing letters are underlined green, extra ones struck red; right-to-left
answers keep every letter's style through shaping and reordering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from quizzer.ui.textshape import display_text, has_rtl, shape_runs

if TYPE_CHECKING:
    from quizzer.study.answers import AnswerCheck

#: What each answer note (``quizzer.study.answers.NOTE_*``) tells the learner.
NOTE_TEXT = {
    "near": "a small slip",  # said by "≈ Almost" already; not repeated there
    "accents": "mind the accents",
    "acronym": "you gave the acronym",
    "part": "you gave another part of the term",
    "transliteration": "typed in Latin letters",
    "other-concept": "that is another concept",
    "prompt": "that is the prompt",
}

_DIFF_STYLE = {
    "equal": "",
    "extra": "strike $text-error",
    "missing": "underline bold $text-success",
}


def verdict_line(check: AnswerCheck) -> tuple[str, str]:
    """(``"≈ Almost (mind the accents)"``, kind): kind is ``right``, ``near`` or ``wrong``."""
    notes = ", ".join(NOTE_TEXT[n] for n in check.notes if n in NOTE_TEXT and n != "near")
    said = f" ({notes})" if notes else ""  # an exact answer has no notes
    if check.right:  # exact or accepted
        return f"✓ Right{said}", "right"
    if check.correct:  # counted correct, not spelled right: a near miss
        return f"≈ Almost{said}", "near"
    if check.confused_with:
        return "✗ That is another concept", "wrong"
    if "prompt" in check.notes:
        return "✗ That is the prompt, retyped", "wrong"
    return "✗ Not quite", "wrong"


def diff_content(check: AnswerCheck, rtl_mode: str = "app") -> Content | None:
    """The character diff as styled text: missing letters underlined green, extra ones struck red.

    Right-to-left answers get the same diff: every letter keeps its style
    through shaping and reordering (:func:`quizzer.ui.textshape.shape_runs`), so
    a missing Arabic letter is underlined in the joined, right-to-left word.
    """
    if check.right and not check.diff:
        return None
    if check.confused_with and not check.correct:
        return Content.assemble(
            ("closest to another concept: ", "$text-muted"),
            display_text(check.confused_with, rtl_mode),
        )
    if not check.diff:
        return None
    runs = [(seg.text, _DIFF_STYLE.get(seg.op, "")) for seg in check.diff]
    if rtl_mode == "app" and any(has_rtl(text) for text, _ in runs):
        runs = shape_runs(runs)
    label = ("diff: ", "$text-muted")
    return Content.assemble(label, *[(text, style) if style else text for text, style in runs])
