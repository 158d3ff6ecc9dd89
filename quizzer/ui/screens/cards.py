"""The card browser: search every text of every card (in any language, compared as answers
are), filter by deck and status, see a card's answers, suspend or bring one back.

Typing in the search field filters as you type; Enter or ↓ moves to the cards, ``/`` back to
the search; Ctrl+S suspends or brings back the highlighted card; Ctrl+O cycles the status
filter, Ctrl+N the deck; F2 edits the card's answer text; Ctrl+L speaks the prompt
(espeak-ng); Esc goes back."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from quizzer.errors import QuizzerError, shown
from quizzer.services.cards import CardBrowser, CardRow
from quizzer.services.study import utcnow
from quizzer.study.browse import STATUSES
from quizzer.ui.language_labels import drawn_names, named
from quizzer.ui.screens.base import QuizzerScreen
from quizzer.ui.textshape import cells, clip, clusters, display_text, visual_lines
from quizzer.ui.widgets.drawn import DrawnOptionList, DrawnStatic
from quizzer.ui.widgets.fitted_line import FittedLine
from quizzer.ui.widgets.quiz_footer import QuizFooter
from quizzer.ui.widgets.script_input import ScriptInput

GRADES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
#: The most cards listed at once (a search narrows them).
LIMIT = 500
#: The most answers a card's history shows (the newest; how many came before is said).
HISTORY_LINES = 8


def _texts(row: CardRow) -> tuple[str, str]:
    """The card's prompt and answer texts (empty where the concept has none)."""
    p = row.card.pair
    return (
        row.concept.text(p.prompt_lang, p.prompt_side) or "",
        row.concept.text(p.answer_lang, p.answer_side) or "",
    )


class CardsScreen(QuizzerScreen[None]):
    """Find cards, read their history, suspend or bring them back."""

    DEFAULT_CSS = """
    CardsScreen #cards-title {
        width: 1fr;
        padding: 0 1;
        background: $panel;
        text-style: bold;
    }
    CardsScreen #cards-search {
        margin: 0 0;
    }
    CardsScreen #cards-filters {
        color: $text-muted;
        padding: 0 1;
    }
    CardsScreen #cards-list {
        height: 1fr;
        min-height: 4;
    }
    CardsScreen #cards-detail {
        height: auto;
        max-height: 45%;
        padding: 0 1;
        overflow-y: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", key_display="Esc"),
        Binding("slash", "focus_search", "Search", key_display="/"),
        Binding("ctrl+s", "suspend", "Suspend", key_display="^s"),
        Binding("ctrl+n", "cycle_deck", "Deck", key_display="^n"),
        Binding("ctrl+o", "cycle_status", "State", key_display="^o"),
        Binding("ctrl+l", "hear", "Hear", key_display="^l", show=False),
        Binding("f2", "edit", "Edit", key_display="F2"),
    ]

    def __init__(self, deck: str | None = None, search: str = "") -> None:
        super().__init__()
        self._first_deck = deck
        self._search = search
        self._status: str | None = None
        self._deck_index = -1  # every deck
        self.rows: list[CardRow] = []
        self._fitted_width = 0
        self._browser: CardBrowser | None = None
        #: The text being edited: (concept uid, language, side).
        self._editing: tuple[str, str, str] | None = None

    def compose(self) -> ComposeResult:
        """The title, the search field, the filters line, the cards and the detail pane."""
        yield Static("Cards · search every text, in any language", id="cards-title")
        # Both fields draw their value by grapheme clusters, in the cells a terminal gives
        # them: Textual's own would push the right border out of line on Bengali or Hindi.
        search = ScriptInput(
            rtl_mode=self.rtl_mode, placeholder="search a text (any language)", id="cards-search"
        )
        search.value = self._search
        yield search
        yield DrawnStatic("", id="cards-filters", markup=False)
        yield DrawnOptionList(id="cards-list")
        with Vertical(id="cards-detail"):
            label = FittedLine(id="cards-edit-label")
            label.display = False
            yield label
            edit = ScriptInput(
                rtl_mode=self.rtl_mode,
                placeholder="the new text, Enter to keep it, Esc to leave it",
                id="cards-edit",
            )
            edit.display = False
            yield edit
            yield DrawnStatic("", id="cards-history", markup=False)
        yield QuizFooter()

    def on_mount(self) -> None:
        """List the cards (of the deck it was opened on); the search field has the focus."""
        every = self._every_deck()
        if self._first_deck in every:
            self._deck_index = every.index(self._first_deck)
        self._refresh()
        self.set_focus(self.query_one("#cards-search", Input))

    @property
    def browser(self) -> CardBrowser:
        """This screen's browsing session: what every search and every card's history need
        (the device names, the studied cards, each text's search form) kept between them."""
        if self._browser is None:
            self._browser = CardBrowser(self.service)
        return self._browser

    # -- the list --------------------------------------------------------------

    def _every_deck(self) -> list[str]:
        return [d.id for d in self.service.listings()]

    def _decks(self) -> list[str]:
        every = self._every_deck()
        if 0 <= self._deck_index < len(every):
            return [every[self._deck_index]]
        return every

    def _refresh(self) -> None:
        search = self.query_one("#cards-search", Input).value
        self.rows = self.browser.find(self._decks(), utcnow(), search=search, status=self._status)
        self._fill_list()
        decks = self._decks()
        # The deck by its name, as the home screen lists it.
        names = {d.id: display_text(d.name, self.rtl_mode) for d in self.service.listings()}
        where = names.get(decks[0], decks[0]) if len(decks) == 1 else "every deck"
        more = f" (first {LIMIT})" if len(self.rows) > LIMIT else ""
        self.query_one("#cards-filters", Static).update(
            f"{len(self.rows)} card{'' if len(self.rows) == 1 else 's'}{more} · {where} · "
            f"state: {self._status or 'any'}"
        )
        self._show_detail()

    def _fill_list(self) -> None:
        """The list's rows for the cards found, each fitted to the list's width."""
        cards = self.query_one("#cards-list", OptionList)
        keep = cards.highlighted
        shown = self.rows[:LIMIT]
        # The list's own width once laid out; before that, the screen's less its borders.
        width = cards.scrollable_content_region.width or self.app.size.width - 4
        self._fitted_width = width
        cards.clear_options()
        cards.add_options([Option(self._line(row, width), id=row.card.id) for row in shown])
        if shown:
            cards.highlighted = min(keep or 0, len(shown) - 1)

    def on_resize(self) -> None:
        """Rows are cut to the width they had: a new width cuts them again."""
        cards = self.query_one("#cards-list", OptionList)
        if cards.scrollable_content_region.width != self._fitted_width:
            self._fill_list()

    def _line(self, row: CardRow, width: int) -> Content:
        """One line per card, as a browser lists them: its state, its direction, and its
        prompt → answer, each cut between grapheme clusters to share what room is left (the
        highlighted card's whole texts are in the detail below)."""
        p = row.card.pair
        prompt, answer = _texts(row)
        head = f"{row.status:<9} {p.prompt_lang}→{p.answer_lang} "
        room = max(8, width - cells(head) - 4)
        if cells(prompt) + cells(answer) > room:
            # The shorter side keeps its whole text when it fits in half the room.
            half = room // 2
            if cells(prompt) <= half:
                answer = clip(answer, room - cells(prompt))
            elif cells(answer) <= half:
                prompt = clip(prompt, room - cells(answer))
            else:
                prompt, answer = clip(prompt, half), clip(answer, room - half)
        mode = self.rtl_mode
        return Content.assemble(
            (f"{row.status:<9} ", "$text-muted"),
            (f"{p.prompt_lang}→{p.answer_lang} ", "$text-accent"),
            Content(display_text(prompt, mode)),
            " → ",
            Content(display_text(answer, mode)),
        )

    def _clip(self, text: str, width: int = 40) -> str:
        """``text`` as a notification quotes it: laid out for the terminal, cut at
        ``width`` cells."""
        return display_text(clip(text, width), self.rtl_mode)

    def _whole(self, row: CardRow) -> str:
        """The card's prompt → answer on up to three lines, laid out for the terminal (the
        list's row may be cut to one)."""
        prompt, answer = _texts(row)
        # The pane's scroll bar may show beside these lines (the edit field or a long
        # history makes it scroll): laid out without its cells, they would wrap to a fourth.
        bar = self.query_one("#cards-detail").styles.scrollbar_size_vertical
        width = max(20, self.size.width - 2 - bar)
        above = visual_lines(prompt, width, self.rtl_mode)
        below = visual_lines(f"→ {answer}", width, self.rtl_mode)
        # The answer keeps up to two lines, the prompt what is left of three; a cut says so.
        below = self._cut(below, 2, width)
        return "\n".join([*self._cut(above, 3 - len(below), width), *below])

    @staticmethod
    def _cut(lines: list[str], most: int, width: int) -> list[str]:
        if len(lines) <= most:
            return lines
        last = clusters(lines[most - 1])
        while last and cells("".join(last)) + 2 > width:
            last.pop()
        return [*lines[: most - 1], "".join(last) + " …"]

    def _words(self, row: CardRow) -> str:
        """The card as a learner knows it: its prompt → its answer."""
        prompt, answer = _texts(row)
        return f"{self._clip(prompt)} → {self._clip(answer)}"

    def _found_in(self, row: CardRow) -> list[str]:
        """Where the search matched, when not in the texts the row shows (a card found by
        its Arabic text while it asks English → Bangla): "found in Arabic · العربية term: …",
        the language named in itself only where the line is short."""
        if not self.query_one("#cards-search", Input).value.strip():
            return []
        p = row.card.pair
        shown = {(p.prompt_lang, p.prompt_side), (p.answer_lang, p.answer_side)}
        if shown & set(row.matched):
            return []
        # One line: the first text found (the row above has the card's own).
        lang, side = row.matched[0]
        width = self.size.width - 2
        both, native = drawn_names(self.rtl_mode)
        # Both names while the text keeps a third of the line; else the name in itself.
        head = f"found in {both(lang)} {side}: "
        if cells(head) > width * 2 // 3:
            head = f"found in {native(lang)} {side}: "
        room = max(10, width - cells(head))
        text = clip(row.concept.text(lang, side) or "", room)
        return [head + display_text(text, self.rtl_mode)]

    def _current(self) -> CardRow | None:
        cards = self.query_one("#cards-list", OptionList)
        index = cards.highlighted
        if index is None or not 0 <= index < min(len(self.rows), LIMIT):
            return None
        return self.rows[index]

    def _show_detail(self) -> None:
        row = self._current()
        detail = self.query_one("#cards-history", Static)
        if row is None:
            detail.update("No card holds that text." if self.rows == [] else "")
            return
        lines = [
            self._whole(row),
            f"{row.card.id}",
            f"{row.status} · reps {row.reps} · lapses {row.lapses}",
        ]
        if row.due is not None:
            lines[-1] += f" · due {row.due.astimezone():%Y-%m-%d %H:%M}"
        lines += self._found_in(row)
        answers = self.browser.history(row.card)
        if not answers:
            lines.append("No answer yet.")
        if len(answers) > HISTORY_LINES:
            earlier = len(answers) - HISTORY_LINES
            lines.append(f"{earlier} earlier answer{'' if earlier == 1 else 's'}, then:")
        for a in answers[-HISTORY_LINES:]:
            lines.append(
                f"{a.at.astimezone():%Y-%m-%d %H:%M}  {GRADES.get(a.grade, a.grade):<5} "
                f"{a.mode:<6} {a.duration_ms / 1000:>5.1f}s  {a.device}"
            )
        detail.update("\n".join(lines))

    # -- events and actions ----------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        """Filter as the learner types (in the search field)."""
        event.stop()
        if event.input.id == "cards-search":
            self._refresh()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search field moves to the cards; in the edit field, keeps the text."""
        event.stop()
        if event.input.id == "cards-edit":
            self._save_edit(event.value)
            return
        self.set_focus(self.query_one("#cards-list", OptionList))

    def action_edit(self) -> None:
        """Edit the highlighted card's answer text."""
        row = self._current()
        if row is None:
            return
        p = row.card.pair
        self._editing = (row.card.concept_uid, p.answer_lang, p.answer_side)
        field = self.query_one("#cards-edit", Input)
        field.value = row.concept.text(p.answer_lang, p.answer_side) or ""
        field.display = True
        label = self.query_one("#cards-edit-label", FittedLine)
        edit = named(
            lambda name: (
                f"Edit the {name(p.answer_lang)} {p.answer_side}: Enter keeps it, Esc leaves it"
            ),
            self.rtl_mode,
        )
        label.display = True
        label.show(edit)
        self.set_focus(field)

    def _stop_editing(self) -> None:
        self._editing = None
        self.query_one("#cards-edit", Input).display = False
        self.query_one("#cards-edit-label", Static).display = False
        self.set_focus(self.query_one("#cards-list", OptionList))

    def _save_edit(self, text: str) -> None:
        if self._editing is None:
            return
        concept, lang, side = self._editing
        try:
            path = self.browser.edit_text(concept, lang, side, text)
        except QuizzerError as exc:
            # The message quotes the learner's text: data, never markup.
            self.notify(str(exc), severity="error", markup=False)
            return
        except OSError as exc:
            where = f" ({shown(exc.filename)})" if exc.filename is not None else ""
            self.notify(
                f"The edit can't be kept: {shown(exc.strerror or exc)}{where}. Nothing changed.",
                severity="error",
                markup=False,
            )
            return
        # Notifications quote the learner's texts: data, never markup.
        self.notify(
            f"Now «{self._clip(text.strip())}», kept in {path.name}; "
            "the text before stays as its provenance.",
            markup=False,
        )
        self._stop_editing()
        self._refresh()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted card's history."""
        event.stop()
        self._show_detail()

    def action_focus_search(self) -> None:
        """Move to the search field."""
        self.set_focus(self.query_one("#cards-search", Input))

    def action_back(self) -> None:
        """Leave the edit, or go back to the screen before."""
        if self._editing is not None:
            self._stop_editing()
            return
        self.app.pop_screen()

    def action_suspend(self) -> None:
        """Suspend the highlighted card, or bring it back."""
        row = self._current()
        if row is None:
            return
        back = row.status == "suspended"
        self.browser.set_suspended(row.card, not back, utcnow())
        self.notify(f"{'Back in study' if back else 'Suspended'}: {self._words(row)}", markup=False)
        self._refresh()

    def action_hear(self) -> None:
        """Speak the highlighted card's prompt in its language."""
        # espeak-ng's voices are the Anki export's: its modules load only when asked.
        from quizzer.services.speech import speak

        row = self._current()
        if row is None:
            return
        p = row.card.pair
        problem = speak(row.concept.text(p.prompt_lang, p.prompt_side) or "", p.prompt_lang)
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)

    def action_cycle_status(self) -> None:
        """Next status filter: any, new, learning, due, review, leech, suspended."""
        order: list[str | None] = [None, *STATUSES]
        self._status = order[(order.index(self._status) + 1) % len(order)]
        self._refresh()

    def action_cycle_deck(self) -> None:
        """Next deck filter: every deck, then each deck."""
        every = self._every_deck()
        self._deck_index = self._deck_index + 1 if self._deck_index + 1 < len(every) else -1
        self._refresh()
