"""The home screen with the mouse and with fast keys, and what it remembers (Pilot, real store)."""

from __future__ import annotations

import re
from pathlib import Path

from quizzer.concepts.deck import Deck
from quizzer.ui.screens.help import HelpScreen
from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.screens.study import StudyScreen
from quizzer.ui.widgets.deck_list import DeckList
from quizzer.ui.widgets.picker import Picker
from quizzer.ui.widgets.quiz_footer import QuizFooter
from tests.factories import concept
from tests.ui_support import bundled_decks, make_app, reviews

SIZE = (100, 30)


def _home(app) -> HomeScreen:
    assert isinstance(app.screen, HomeScreen), type(app.screen)
    return app.screen


async def test_clicking_a_deck_highlights_it_and_the_start_button_starts(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        decks = home.query_one("#decks", DeckList)
        assert decks.highlighted == 0
        # Two lines a deck (name, counts); below the border, line 3 is the second deck.
        await pilot.click("#decks", offset=(4, 3))
        await pilot.pause()
        assert app.screen is home, "a single click must not start a session"
        assert decks.highlighted == 1
        await pilot.click("#start")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        assert study.choice.deck == home._decks[1]
        await pilot.press("space", "3")
        await pilot.pause()
        await pilot.press("q", "enter")
        await pilot.pause()
        assert app.screen is home
        await pilot.press("q")
    assert len(reviews(tmp_path / "p.json")) == 1


async def test_double_click_starts_the_deck(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.double_click("#decks", offset=(4, 3))
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        assert app.screen.choice.deck == home._decks[1]


async def test_keys_typed_at_once_reach_the_deck_list(tmp_path: Path) -> None:
    """No pause between start-up and the keys: the list is focused and filled at once."""
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.press("down", "enter")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        assert study.choice.deck == home._decks[1]


async def test_ctrl_s_starts_from_a_picker_where_enter_opens_it(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.press("f")  # focus the prompt language picker
        await pilot.pause()
        assert isinstance(app.focused, Picker)
        # The footer must not offer Enter as Start here: Enter opens the picker.
        keys = {b.binding.key: b.binding.description for b in home.active_bindings.values()}
        assert keys.get("ctrl+s") == "Start"
        shown_enter = [
            b
            for b in home.active_bindings.values()
            if b.binding.key == "enter" and b.binding.show and b.binding.action == "start"
        ]
        assert shown_enter == []
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        assert app.screen.choice.deck == home._decks[0]


async def test_the_theme_chosen_with_ctrl_t_is_remembered(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    app = make_app(db)
    async with app.run_test(size=SIZE) as pilot:
        dark = app.current_theme.dark
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.current_theme.dark is not dark
        await pilot.press("q")
    again = make_app(db)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.current_theme.dark is not dark
        # The last deck choice is kept alongside the theme, not overwritten by it.
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(again.screen, StudyScreen)
    third = make_app(db)
    assert third.service.last_choice() is not None
    assert third.service.last_theme() == again.theme
    third.service.close()


def _french_deck() -> Deck:

    words = [("Élagage", "La suppression des poids."), ("Distillation", "Un petit modèle apprend.")]
    concepts = tuple(concept("mes-mots", f"m{i}", {"fr": w}) for i, w in enumerate(words))
    return Deck(id="mes-mots", name="Mes mots", concepts=concepts)


def _pickers(home: HomeScreen) -> tuple[str, ...]:
    return tuple(
        home.query_one(f"#{n}", Picker).value
        for n in ("from-lang", "from-side", "to-lang", "to-side")
    )


async def test_a_french_only_deck_gets_a_direction_it_has(tmp_path: Path) -> None:
    """A French-only deck needs no flags and no pickers fixed by hand: fr term → fr
    definition, and it starts."""

    app = make_app(tmp_path / "p.json", decks=[*bundled_decks(), _french_deck()])
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        assert _pickers(home) == ("en", "definition", "en", "term")
        decks = home.query_one("#decks", DeckList)
        decks.highlighted = 2  # Mes mots
        await pilot.pause()
        assert _pickers(home) == ("fr", "term", "fr", "definition")
        assert "2 new" in str(decks.get_option_at_index(2).prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        assert app.screen.card is not None and app.screen.card.concept_uid.startswith("mes-mots/")


async def test_first_run_on_only_a_french_deck_starts_on_french(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", decks=[_french_deck()])
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        assert _pickers(home) == ("fr", "term", "fr", "definition")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen) and app.screen.card is not None


def _new_count(home: HomeScreen, index: int = 0) -> int:
    line = str(home.query_one("#decks", DeckList).get_option_at_index(index).prompt)
    match = re.search(r"(\d+) new", line)
    assert match, line
    return int(match.group(1))


async def test_counts_follow_a_session_and_a_new_direction(tmp_path: Path) -> None:
    """The deck list is counted once at start-up, and recounted when it can have changed:
    back from a session, and for another direction picked in a picker."""
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.pause()
        # The second bundled deck has fewer concepts (16) than the daily new-card limit, so
        # its new count for a direction is its unstudied cards in that direction.
        before = _new_count(home, 1)
        pair = home.current_pair()
        assert pair is not None
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)
        await pilot.press("space", "3")
        await pilot.pause()
        await pilot.press("q", "enter")
        await pilot.pause()
        assert _home(app) is home
        assert _new_count(home, 1) == before - 1  # back from the session: recounted
        # A direction picked in a picker recounts the list (the studied concept is
        # buried today in every direction, so Russian shows one fewer too).
        home.query_one("#to-lang", Picker).value = "ru"
        await pilot.pause()
        russian = home.current_pair()
        assert russian is not None and russian.answer_lang == "ru"
        assert home._counted_for == russian
        assert _new_count(home, 1) == home.service.counts(home._decks[1], russian)[0]
        await pilot.press("q")


async def test_prompt_equal_to_answer_on_the_way_keeps_the_pickers(tmp_path: Path) -> None:
    """Turning en definition → en term into en term → en definition passes through
    en term → en term: the pickers keep what was picked, the message says why Start
    can't start, and the next change makes a direction again."""
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        assert _pickers(home) == ("en", "definition", "en", "term")
        counts = str(home.query_one("#decks", DeckList).get_option_at_index(0).prompt)
        home.query_one("#from-side", Picker).value = "term"
        await pilot.pause()
        assert _pickers(home) == ("en", "term", "en", "term")
        assert "same text" in str(home.query_one("#pair-error").render())
        assert str(home.query_one("#decks", DeckList).get_option_at_index(0).prompt) == counts
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is home  # nothing to study in that direction
        home.query_one("#to-side", Picker).value = "definition"
        await pilot.pause()
        assert _pickers(home) == ("en", "term", "en", "definition")
        assert str(home.query_one("#pair-error").render()) == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        study = app.screen
        assert isinstance(study, StudyScreen)
        assert study.choice.pair == home.current_pair()


async def test_a_click_on_a_footer_key_presses_it(tmp_path: Path) -> None:

    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.pause()
        footer = home.query_one(QuizFooter)
        (help_key,) = [k for k in footer.entries if k.description == "Help"]
        await pilot.click(QuizFooter, offset=(help_key.start + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        # The footer follows the focus: a picker's open list shows how to close it.
        await pilot.press("f", "enter")
        await pilot.pause()
        assert "Close menu" in [k.description for k in home.query_one(QuizFooter).entries]


async def test_the_same_text_message_wraps_in_a_narrow_terminal(tmp_path: Path) -> None:
    """At 60 columns the message is wider than its column: it wraps, none of it is cut."""
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(60, 20)) as pilot:
        home = _home(app)
        home.query_one("#from-side", Picker).value = "term"
        await pilot.pause()
        error = home.query_one("#pair-error")
        panel = home.query_one("#choice-panel")
        assert error.size.width <= panel.content_size.width
        assert error.size.height >= 2
