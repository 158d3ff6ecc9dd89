"""The home screen: decks with new and due counts; pick deck, direction and mode, then start."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Label, OptionList, Select
from textual.widgets.option_list import Option

from quizzer.core.cards import Pair
from quizzer.core.languages import LANGUAGE_NAMES, LANGUAGES, NATIVE_NAMES, SIDES
from quizzer.core.review import MODES
from quizzer.ui.choice import StudyChoice, default_pair
from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.quiz_footer import QuizFooter


def _lang_options(rtl_mode: str) -> list[tuple[str, str]]:
    """Language names for the pickers; native names shaped like every other text."""
    out = []
    for code in LANGUAGES:
        name, native = LANGUAGE_NAMES[code], display_text(NATIVE_NAMES[code], rtl_mode)
        out.append((name if native == name else f"{name} · {native}", code))
    return out


_SIDE_OPTIONS = [(side, side) for side in SIDES]
_MODE_HELP = {
    "flip": "flip: see the prompt, recall, reveal, grade yourself",
    "choice": "choice: pick the answer among four",
    "typed": "typed: type the answer",
    "learn": "learn: rounds of ~7 new concepts, choice then typed",
}


class DeckList(OptionList):
    """The deck list; Enter starts studying the highlighted deck (shown in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "Start")]


class HomeScreen(Screen[None]):
    """Choose what to study. Enter starts; the choice is remembered in the store."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", "Start", priority=False),
        Binding("f", "focus_pair", "Direction"),
        Binding("m", "cycle_mode", "Mode"),
        Binding("x", "swap", "Swap"),
        Binding("s", "stats", "Stats"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "app.quit", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        langs = _lang_options(getattr(self.app, "rtl_mode", "app"))
        yield Label("quizzer · choose a deck, a direction and a mode", id="home-title")
        with Horizontal(id="home-body"):
            with Vertical(id="deck-panel"):
                yield Label("Decks", classes="section")
                yield DeckList(id="decks")
            with Vertical(id="choice-panel"):
                yield Label("Prompt", classes="section")
                with Horizontal(classes="select-row"):
                    yield Select(langs, id="from-lang", allow_blank=False, compact=True)
                    yield Select(_SIDE_OPTIONS, id="from-side", allow_blank=False, compact=True)
                yield Label("Answer", classes="section")
                with Horizontal(classes="select-row"):
                    yield Select(langs, id="to-lang", allow_blank=False, compact=True)
                    yield Select(_SIDE_OPTIONS, id="to-side", allow_blank=False, compact=True)
                yield Label("Mode", classes="section")
                yield Select([(m, m) for m in MODES], id="mode", allow_blank=False, compact=True)
                yield Label("", id="mode-help", markup=False)
                yield Label("", id="pair-error", markup=False)
                yield Button("Start (Enter)", id="start", variant="primary", compact=True)
        yield QuizFooter()

    def on_mount(self) -> None:
        service = self.app.service  # type: ignore[attr-defined]
        self._decks = [d.id for d in service.decks()]
        last = service.last_choice()
        if last is None or last.deck not in self._decks:
            first = self._decks[0] if self._decks else ""
            last = StudyChoice(first, default_pair(), "flip")
        pair = last.pair
        self._setting = True
        self.query_one("#from-lang", Select).value = pair.prompt_lang
        self.query_one("#from-side", Select).value = pair.prompt_side
        self.query_one("#to-lang", Select).value = pair.answer_lang
        self.query_one("#to-side", Select).value = pair.answer_side
        self.query_one("#mode", Select).value = last.mode
        self._setting = False
        self._refresh_decks(highlight=last.deck)
        self._show_mode_help()
        self.query_one("#decks", OptionList).focus()

    # -- reading the form -------------------------------------------------

    def current_pair(self) -> Pair | None:
        """The chosen direction, or ``None`` (with a message shown) if it makes no sense."""
        values = [
            self.query_one(f"#{name}", Select).value
            for name in ("from-lang", "from-side", "to-lang", "to-side")
        ]
        error = self.query_one("#pair-error", Label)
        try:
            pair = Pair(*values)  # type: ignore[arg-type]
        except ValueError:
            error.update("Prompt and answer are the same text: change one of them.")
            return None
        error.update("")
        return pair

    def current_choice(self) -> StudyChoice | None:
        """Deck, pair and mode as chosen, or ``None`` if something is missing."""
        pair = self.current_pair()
        decks = self.query_one("#decks", OptionList)
        if pair is None or decks.highlighted is None or not self._decks:
            return None
        mode = str(self.query_one("#mode", Select).value)
        return StudyChoice(self._decks[decks.highlighted], pair, mode)

    def _refresh_decks(self, highlight: str | None = None) -> None:
        service = self.app.service  # type: ignore[attr-defined]
        decks = self.query_one("#decks", OptionList)
        keep = decks.highlighted if highlight is None else None
        pair = self.current_pair()
        decks.clear_options()
        for deck in service.decks():
            name = display_text(deck.name, getattr(self.app, "rtl_mode", "app"))
            line = Content(name)
            if pair is not None:
                new, due = service.counts(deck.id, pair)
                line = Content.assemble(
                    Content(name),
                    "\n",
                    (f"{len(deck)} concepts · ", "$text-muted"),
                    (f"{new} new", "$accent"),
                    " · ",
                    (f"{due} due", "$success" if due else "$text-muted"),
                )
            decks.add_option(Option(line, id=deck.id))
        if highlight is not None and highlight in self._decks:
            decks.highlighted = self._decks.index(highlight)
        elif keep is not None:
            decks.highlighted = keep
        elif self._decks:
            decks.highlighted = 0

    def _show_mode_help(self) -> None:
        mode = str(self.query_one("#mode", Select).value)
        self.query_one("#mode-help", Label).update(_MODE_HELP.get(mode, ""))

    # -- events -----------------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        if getattr(self, "_setting", False):
            return
        if event.select.id == "mode":
            self._show_mode_help()
        else:
            self._refresh_decks()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            event.stop()
            self.action_start()

    # -- actions ----------------------------------------------------------

    def action_start(self) -> None:
        """Start studying the chosen deck."""
        choice = self.current_choice()
        if choice is None:
            self.notify("Choose a deck and two different texts first.", severity="warning")
            return
        self.app.service.remember(choice)  # type: ignore[attr-defined]
        from quizzer.ui.screens.study import StudyScreen

        self.app.push_screen(StudyScreen(choice, from_home=True))

    def action_swap(self) -> None:
        """Swap prompt and answer."""
        selects = {n: self.query_one(f"#{n}", Select) for n in ("from-lang", "from-side")}
        targets = {n: self.query_one(f"#{n}", Select) for n in ("to-lang", "to-side")}
        values = (selects["from-lang"].value, selects["from-side"].value)
        self._setting = True
        selects["from-lang"].value = targets["to-lang"].value
        selects["from-side"].value = targets["to-side"].value
        targets["to-lang"].value, targets["to-side"].value = values
        self._setting = False
        self._refresh_decks()

    def action_cycle_mode(self) -> None:
        """Next quiz mode."""
        select = self.query_one("#mode", Select)
        select.value = MODES[(MODES.index(str(select.value)) + 1) % len(MODES)]

    def action_focus_pair(self) -> None:
        """Move the focus to the prompt language."""
        self.query_one("#from-lang", Select).focus()

    def action_stats(self) -> None:
        """Open the statistics screen."""
        choice = self.current_choice()
        self.app.open_stats(choice.deck if choice else None)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def on_screen_resume(self) -> None:
        # Back from a session: counts changed.
        if hasattr(self, "_decks"):
            self._refresh_decks()
