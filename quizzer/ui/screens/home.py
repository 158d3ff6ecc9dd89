"""The home screen: decks with new and due counts; pick deck, direction and mode, then start."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import ClassVar, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static

from quizzer.cards.card import Pair
from quizzer.concepts.languages import (
    SIDES,
    Side,
    both_names,
    native_name,
    order_languages,
)
from quizzer.study.cram import describe
from quizzer.study.selection import (
    STUDY_MODES,
    StudyChoice,
    default_pair,
    fits,
    has_languages,
    reverse,
    typing_long_answers,
)
from quizzer.ui.screens.base import QuizzerScreen
from quizzer.ui.textshape import display_text
from quizzer.ui.widgets.deck_list import DeckEntry, DeckList
from quizzer.ui.widgets.drawn import DrawnStatic
from quizzer.ui.widgets.line_button import LineButton
from quizzer.ui.widgets.picker import Picker
from quizzer.ui.widgets.quiz_footer import QuizFooter


def _lang_options(languages: Iterable[str]) -> list[tuple[str, str]]:
    """The decks' languages for the pickers, named in English and in themselves (the
    pickers shape them like every other text, when drawn)."""
    return [(both_names(code), code) for code in languages]


_SIDE_OPTIONS = [(side, side) for side in SIDES]
_MODE_HELP = {
    "flip": "flip: see the prompt, recall, reveal, grade yourself",
    "choice": "choice: pick the answer among four",
    "typed": "typed: type the answer",
    "learn": "learn: rounds of ~7 new concepts, choice then typed",
    "match": "match: pair 6–8 prompts with their answers against the clock",
}


class HomeScreen(QuizzerScreen[None]):
    """Choose what to study; the choice is remembered in the store.

    Enter on the deck list, the Start button or Ctrl+S (from any picker, where
    Enter opens the picker instead) start the session.
    """

    DEFAULT_CSS = """
    #home-title {
        width: 1fr;
        padding: 0 2;
        background: $panel;
        text-style: bold;
    }
    #home-body {
        height: 1fr;
    }
    #deck-panel {
        width: 1fr;
        min-width: 30;
        padding: 0 1;
    }
    #deck-panel OptionList {
        height: 1fr;
    }
    #choice-panel {
        width: 44;
        padding: 0 1;
    }
    /* Home below 80 columns (HomeScreen.on_resize): two equal columns */
    HomeScreen.-narrow #deck-panel {
        min-width: 0;
    }
    HomeScreen.-narrow #choice-panel {
        width: 1fr;
    }
    /* From 120 columns (HomeScreen.on_resize): the deck list stops at two thirds */
    HomeScreen.-wide #deck-panel {
        width: 2fr;
    }
    HomeScreen.-wide #choice-panel {
        width: 1fr;
    }
    .section {
        margin: 1 0 0 0;
        color: $text-muted;
        text-style: bold;
    }
    .select-row {
        height: auto;
    }
    .select-row Picker {
        width: 1fr;
    }
    #mode-help {
        width: 1fr;
        color: $text-muted;
        height: auto;
        margin: 1 0 0 0;
    }
    #mode-help.-long {
        color: $text-warning;
    }
    #pair-error {
        width: 1fr;
        color: $error;
        height: auto;
    }
    #waiting {
        width: 1fr;
        color: $text-muted;
        height: auto;
    }
    #start {
        margin: 1 0 0 0;
        width: 1fr;
    }
    """

    AUTO_FOCUS = "#decks"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start", key_display="^s"),
        Binding("f", "focus_pair", "Pair"),
        Binding("m", "cycle_mode", "Mode"),
        Binding("c", "choice_mode", "Choice mode"),
        Binding("x", "swap", "Swap"),
        Binding("b", "both", "Both ways", show=False),
        Binding("space", "mark", "Mark deck", show=False),
        Binding("p", "practice", "Practice", show=False),
        Binding("slash", "cards", "Cards", key_display="/", show=False),
        Binding("s", "stats", "Stats"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "app.quit", "Quit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Big decks whose loading failed in the counting worker.
        self._uncountable: set[str] = set()
        #: The direction the deck list's counts are for, and every direction counted.
        self._counted_for: Pair | None = None
        self._counted_pairs: tuple[Pair, ...] | None = None
        #: Whether the reverse direction is studied too, after the first (``b``).
        self._both = False
        #: Decks marked with Space to study together, in the order marked.
        self._marked: list[str] = []
        #: Practice (``p``): which cards, or ``None`` for a session on the schedule.
        self._cram: str | None = None
        #: Whether the screen was shown before (its first resume is its first show).
        self._resumed = False
        #: Whether a session pushed from here is running.
        self._studying = False
        #: Big decks being loaded in a worker thread for their waiting line.
        self._loading: set[str] = set()

    def _initial_choice(self) -> StudyChoice:
        service = self.service
        decks = service.listings()  # names, sizes, languages: no deck is loaded yet
        self._decks = [d.id for d in decks]
        self._languages = {d.id: d.languages for d in decks}
        last = service.last_choice()
        if last is None or last.deck not in self._decks:
            first = self._decks[0] if self._decks else ""
            last = StudyChoice(first, default_pair(self._languages.get(first, ())), "flip")
        langs = self._languages.get(last.deck, ())
        if not fits(last.pair, langs):
            last = StudyChoice(last.deck, default_pair(langs), last.mode)
        self._both = last.also == (reverse(last.pair),)
        if last.more_decks and all(d in self._decks for d in last.decks):
            self._marked = list(last.decks)
        return last

    def compose(self) -> ComposeResult:
        """Compose the deck list, the direction and mode selects and the start button."""
        # Everything gets its value here, not in on_mount: no burst of Changed
        # messages, and a key typed the moment the screen appears finds the deck
        # list focused, filled and highlighted.
        last = self._initial_choice()
        pair = last.pair
        # The languages of every deck (and the remembered direction's, should no deck
        # have them any more), in the order the decks give them.
        present = [lang for deck_langs in self._languages.values() for lang in deck_langs]
        codes = order_languages((*present, pair.prompt_lang, pair.answer_lang))
        langs = _lang_options(codes)
        short = {code: native_name(code) for code in codes}
        # Static, not Label: the same text, without Label's style variants to parse at start-up.
        yield Static("quizzer · choose a deck, a direction and a mode", id="home-title")
        with Horizontal(id="home-body"):
            with Vertical(id="deck-panel"):
                yield Static("Decks", classes="section")
                initial = self._decks.index(last.deck) if last.deck in self._decks else None
                mode = self.rtl_mode
                yield DeckList(
                    self._deck_entries(self._pairs_of(pair)),
                    initial=initial,
                    shape=lambda text: display_text(text, mode),
                    id="decks",
                )
            with Vertical(id="choice-panel"):
                yield Static("Prompt", classes="section")
                with Horizontal(classes="select-row"):
                    yield self._select(langs, "from-lang", pair.prompt_lang, short)
                    yield self._select(_SIDE_OPTIONS, "from-side", pair.prompt_side)
                yield Static("Answer", classes="section")
                with Horizontal(classes="select-row"):
                    yield self._select(langs, "to-lang", pair.answer_lang, short)
                    yield self._select(_SIDE_OPTIONS, "to-side", pair.answer_side)
                yield Static("Mode", classes="section")
                yield self._select([(m, m) for m in STUDY_MODES], "mode", last.mode)
                yield Static(
                    self._mode_help(last.pair, last.mode),
                    id="mode-help",
                    markup=False,
                    classes="-long" if typing_long_answers(last.pair, last.mode) else "",
                )
                yield DrawnStatic("", id="pair-error", markup=False)
                waiting = DrawnStatic(self._waiting_text(last.deck), id="waiting", markup=False)
                waiting.display = bool(waiting.content)
                yield waiting
                yield LineButton("Start (Enter · ^s)", id="start")
        yield QuizFooter()

    def _select(
        self,
        options: Sequence[tuple[str, str]],
        id: str,
        value: str,
        short: Mapping[str, str] | None = None,
    ) -> Picker:
        mode = self.rtl_mode
        return Picker(
            options, value, id=id, short=short, shape=lambda text: display_text(text, mode)
        )

    #: Narrower than this, the deck list and the pickers share the width.
    NARROW = 80
    #: From this wide, the pickers' column takes a third of the width (the deck list's
    #: counts are short: a 44-column picker column beside a 116-column list looked lopsided).
    WIDE = 120

    def on_resize(self, event: events.Resize) -> None:
        """Below :attr:`NARROW` columns the pickers' column gives up its fixed width; from
        :attr:`WIDE` on it takes a third."""
        self._fit_columns(event.size.width)

    def _fit_columns(self, width: int) -> None:
        self.set_class(width < self.NARROW, "-narrow")
        self.set_class(width >= self.WIDE, "-wide")

    def on_mount(self) -> None:
        """Fit the columns to the terminal and focus the deck list at once, so keys typed
        early reach it."""
        # The first Resize comes after the first frame, which is then laid out for this
        # width already (at 60 columns the pickers were drawn 44 cells wide, then narrowed).
        self._fit_columns(self.app.size.width)
        # Focus now, not after a refresh (Widget.focus() is deferred).
        self.set_focus(self.query_one("#decks", DeckList))

    # -- reading the form -------------------------------------------------

    def current_pair(self) -> Pair | None:
        """The chosen direction, or ``None`` (with a message shown) if it makes no sense."""
        prompt_lang, prompt_side, answer_lang, answer_side = (
            self.query_one(f"#{name}", Picker).value
            for name in ("from-lang", "from-side", "to-lang", "to-side")
        )
        error = self.query_one("#pair-error", Static)
        try:
            # The side pickers offer the sides only (SIDES).
            sides = cast(Side, prompt_side), cast(Side, answer_side)
            pair = Pair(prompt_lang, sides[0], answer_lang, sides[1])
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
        mode = str(self.query_one("#mode", Picker).value)
        also = (reverse(pair),) if self._both else ()
        if len(self._marked) > 1:
            first, *more = self._marked
            return StudyChoice(first, pair, mode, also, tuple(more), self._cram)
        return StudyChoice(self._decks[decks.highlighted], pair, mode, also, cram=self._cram)

    def _pairs_of(self, pair: Pair | None) -> tuple[Pair, ...] | None:
        """The directions studied for ``pair``: with its reverse after it when both are."""
        if pair is None:
            return None
        return (pair, reverse(pair)) if self._both else (pair,)

    def _waiting_text(self, deck_id: str) -> str:
        """What the highlighted deck holds back and why, when its counts are at hand:
        ``"Both ways · 12 wait for their first direction · 5 siblings tomorrow"``."""
        pairs = self._counted_pairs
        parts = [f"{len(self._marked)} decks together"] if len(self._marked) > 1 else []
        if self._cram is not None:
            # Practice serves its own cards: what waits on the schedule doesn't apply.
            return " · ".join([*parts, f"Practice (p): {describe(self._cram)}, no schedule change"])
        if self._both:
            parts.append("Both ways: the reverse once the first is known")
        ready = (
            pairs is not None
            and deck_id in self._decks
            and deck_id not in self._uncountable
            and self.service.counts_ready(deck_id, pairs)
        )
        if ready and not self.service.deck_ready(deck_id):
            # A big deck's counts kept between launches are shown at once; its waiting line
            # needs the deck loaded, which is done in a worker thread after the paint: a
            # 50,000-concept deck takes about a second, and before the first paint (three
            # times: the list composed, then highlighted twice) it took the home screen's
            # first paint from 0.37 s to 0.42 s of CPU (benchmarks/RESULTS.md).
            ready = False
            self._load_for_waiting(deck_id)
        note = self.service.waiting_note(deck_id, pairs) if ready and pairs else None
        if note:
            parts = parts[:1] if len(self._marked) > 1 else []
            parts += ["Both ways", note] if self._both else [note]
        return " · ".join(parts)

    def _load_for_waiting(self, deck_id: str) -> None:
        """Load a big deck in a worker thread after the next paint, then show the waiting
        line again (the screen takes keys meanwhile)."""
        if deck_id in self._loading:
            return
        self._loading.add(deck_id)

        def load() -> None:
            try:
                self.service.deck(deck_id)
                loaded = True
            except Exception:  # its count says it can't be read, with the reason
                loaded = False
            with contextlib.suppress(RuntimeError):  # the app may be closing
                self.app.call_from_thread(self._loaded_for_waiting, deck_id, loaded)

        self.call_after_refresh(self.run_worker, load, thread=True, group="waiting")

    def _loaded_for_waiting(self, deck_id: str, loaded: bool) -> None:
        self._loading.discard(deck_id)
        if not loaded:
            self._uncountable.add(deck_id)
        self._show_waiting()

    def _show_waiting(self) -> None:
        decks = self.query_one("#decks", OptionList)
        deck = self._decks[decks.highlighted] if decks.highlighted is not None else ""
        text = self._waiting_text(deck)
        line = self.query_one("#waiting", Static)
        line.update(text)
        line.display = bool(text)

    def _deck_entries(self, pairs: tuple[Pair, ...] | None) -> list[DeckEntry]:
        service = self.service
        self._counted_pairs = pairs
        self._counted_for = pair = pairs[0] if pairs else None
        entries = []
        waiting = []
        for deck in service.listings():
            entry = DeckEntry(deck.id, deck.name, deck.concepts, marked=deck.id in self._marked)
            if pair is not None and deck.id in self._uncountable:
                entry = replace(entry, note="can't be read", problem=True)
            elif pairs is not None and not service.counts_ready(deck.id, pairs):
                # A big deck is loaded and counted off the UI thread: the screen shows now.
                waiting.append(deck.id)
                entry = replace(entry, note="counting…")
            elif pairs is not None:
                entry = replace(entry, counts=service.counts(deck.id, pairs))
            entries.append(entry)
        if waiting and pairs is not None:
            # After the paint: the loading thread holds the GIL most of the time, and
            # started at once it slowed the first paint by seconds.
            self.call_after_refresh(
                self.run_worker,
                lambda: self._load_for_counts(waiting, pairs),
                thread=True,
                group="deck-counts",
                exclusive=True,
            )
        return entries

    def _load_for_counts(self, deck_ids: list[str], pairs: tuple[Pair, ...]) -> None:
        """Load big decks (in a worker thread), then recount the list on the UI thread."""
        try:
            for deck_id in deck_ids:
                self.service.counts(deck_id, pairs)
        except Exception as exc:  # the file changed or went away since it was listed
            self._uncountable.update(deck_ids)
            with contextlib.suppress(RuntimeError):  # the app may be closing
                # The message names the learner's file: data, never markup.
                self.app.call_from_thread(
                    self.notify, f"Can't read a deck: {exc}", severity="error", markup=False
                )
            return
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(self._refresh_decks)

    def _refresh_decks(self) -> None:
        decks = self.query_one("#decks", DeckList)
        keep = decks.highlighted
        decks.show_decks(self._deck_entries(self._pairs_of(self.current_pair())))
        if keep is not None and self._decks:
            decks.highlighted = min(keep, len(self._decks) - 1)
        elif self._decks:
            decks.highlighted = 0
        self._show_mode_help()  # the direction may have changed (swap, another deck)
        self._show_waiting()

    #: What the mode help says when the answers to type are definitions.
    LONG_ANSWERS = "The answers are definitions, long to type on one line: c for choice mode."

    def _mode_help(self, pair: Pair | None, mode: str) -> str:
        if pair is not None and typing_long_answers(pair, mode):
            return self.LONG_ANSWERS
        return _MODE_HELP.get(mode, "")

    def _show_mode_help(self) -> None:
        mode = str(self.query_one("#mode", Picker).value)
        pair = self.current_pair()
        help_line = self.query_one("#mode-help", Static)
        help_line.update(self._mode_help(pair, mode))
        help_line.set_class(pair is not None and typing_long_answers(pair, mode), "-long")
        self.refresh_bindings()

    # -- events -----------------------------------------------------------

    def on_picker_changed(self, event: Picker.Changed) -> None:
        """Show the new mode's help, or recount the decks for a new direction."""
        self._show_mode_help()
        if event.picker.id == "mode":
            return
        pair = self.current_pair()  # shows or clears the "same text" message
        # Prompt = answer is a step on the way (set the prompt's side, then the answer's):
        # keep what the learner picked and the last counts, and wait for the next change.
        if pair is not None and self._pairs_of(pair) != self._counted_pairs:
            self._refresh_decks()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A deck without the chosen languages (a French-only one) gets a direction it has."""
        if event.option_list.id != "decks" or not self._decks:
            return
        self._show_waiting()
        langs = self._languages.get(self._decks[event.option_index], ())
        chosen = [str(self.query_one(f"#{n}", Picker).value) for n in ("from-lang", "to-lang")]
        if has_languages(langs, chosen):
            return  # (a pair with prompt = answer stays as picked, with its message)
        new = default_pair(langs)
        with self.prevent(Picker.Changed):
            for name, value in zip(
                ("from-lang", "from-side", "to-lang", "to-side"),
                (new.prompt_lang, new.prompt_side, new.answer_lang, new.answer_side),
                strict=True,
            ):
                self.query_one(f"#{name}", Picker).value = value
        self._refresh_decks()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Start studying the deck chosen with Enter or a double click."""
        event.stop()
        self.action_start()

    def on_line_button_pressed(self, event: LineButton.Pressed) -> None:
        """Start studying when the start button is pressed."""
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
        self.service.remember(choice)
        self._studying = True
        if choice.mode == "match":
            from quizzer.ui.screens.match import MatchScreen

            self.app.push_screen(MatchScreen(choice, from_home=True))
            return
        from quizzer.ui.screens.study import StudyScreen

        self.app.push_screen(StudyScreen(choice, from_home=True))

    def action_swap(self) -> None:
        """Swap prompt and answer."""
        selects = {n: self.query_one(f"#{n}", Picker) for n in ("from-lang", "from-side")}
        targets = {n: self.query_one(f"#{n}", Picker) for n in ("to-lang", "to-side")}
        values = (selects["from-lang"].value, selects["from-side"].value)
        # Changed messages are queued, so a flag around the assignments wouldn't hold
        # them back: prevent them, and recount the decks once.
        with self.prevent(Picker.Changed):
            selects["from-lang"].value = targets["to-lang"].value
            selects["from-side"].value = targets["to-side"].value
            targets["to-lang"].value, targets["to-side"].value = values
        self._refresh_decks()

    def action_both(self) -> None:
        """Study the reverse direction too (after the first), or stop doing so."""
        self._both = not self._both
        self._refresh_decks()

    def action_practice(self) -> None:
        """Next practice selection: off, every card, today's failures, leeches, due in 7 days."""
        order: list[str | None] = [None, "all", "failed", "leeches", "due-7"]
        self._cram = order[(order.index(self._cram) + 1) % len(order)]
        self._show_waiting()

    def action_mark(self) -> None:
        """Mark the highlighted deck to study with the other marked ones (or unmark it)."""
        decks = self.query_one("#decks", OptionList)
        if decks.highlighted is None or not self._decks:
            return
        deck_id = self._decks[decks.highlighted]
        if deck_id in self._marked:
            self._marked.remove(deck_id)
        else:
            self._marked.append(deck_id)
        self._refresh_decks()

    def action_cycle_mode(self) -> None:
        """Next quiz mode."""
        select = self.query_one("#mode", Picker)
        modes = STUDY_MODES
        select.value = modes[(modes.index(str(select.value)) + 1) % len(modes)]

    def check_action(self, action: str, _parameters: tuple[object, ...]) -> bool | None:
        """Offer choice mode (``c``) only while the mode help warns of long answers."""
        if action == "choice_mode":
            return any(w.has_class("-long") for w in self.query("#mode-help"))
        return True

    def action_choice_mode(self) -> None:
        """Switch to choice mode (offered when the answers to type are definitions)."""
        self.query_one("#mode", Picker).value = "choice"

    def action_focus_pair(self) -> None:
        """Move the focus to the prompt language."""
        self.query_one("#from-lang", Picker).focus()

    def action_stats(self) -> None:
        """Open the statistics screen."""
        choice = self.current_choice()
        self.quizzer.open_stats(choice.deck if choice else None)

    def action_cards(self) -> None:
        """Open the card browser on the highlighted (or marked) decks."""
        from quizzer.ui.screens.cards import CardsScreen

        choice = self.current_choice()
        self.app.push_screen(CardsScreen(choice.deck if choice else None))

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def on_screen_resume(self) -> None:
        """Recount the decks' due cards when a session ends and this screen is back.

        Back from a session, the deck list has the focus again (whichever picker
        had it before), so Enter starts the next session; back from the help or
        the statistics, the focus stays where it was.
        """
        # Back from a session: counts changed. (The first resume is the screen's first
        # show: compose has just counted, and counting again would delay the first paint.)
        if self._resumed:
            self._refresh_decks()
        self._resumed = True
        if self._studying:
            self._studying = False
            self.set_focus(self.query_one("#decks", DeckList))
