"""The Match screen: prompts (1–8) beside shuffled answers (a–h), paired against the clock.

Keys or clicks pick one tile of each column; a right pair greys out, a wrong one flashes
red and costs :data:`~quizzer.study.match.PENALTY_SECONDS`. With every pair matched the
time is shown beside the best for this deck and direction (kept in the preferences
file). Nothing is recorded in the progress store: Match is practice, and the store has
no way yet to log an answer that leaves the card's schedule alone.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from quizzer.cards.card import Pair
from quizzer.services.sessions import record_match
from quizzer.services.study import utcnow
from quizzer.study.match import (
    LEFT_KEYS,
    MIN_PAIRS,
    PENALTY_SECONDS,
    RIGHT_KEYS,
    Column,
    MatchGame,
    Outcome,
    match_pairs,
)
from quizzer.study.selection import StudyChoice
from quizzer.ui.language_labels import Captions, named
from quizzer.ui.screens.base import QuizzerScreen
from quizzer.ui.textshape import cells, clip, display_text
from quizzer.ui.widgets.card_view import CaptionLine
from quizzer.ui.widgets.drawn import DrawnStatic
from quizzer.ui.widgets.match_tile import MatchTile
from quizzer.ui.widgets.quiz_footer import QuizFooter


def clock(seconds: float) -> str:
    """``"0:12.3"``: minutes and seconds to the tenth."""
    minutes, secs = divmod(max(0.0, seconds), 60)
    return f"{int(minutes)}:{secs:04.1f}"


def _direction(pair: Pair, rtl_mode: str) -> Captions:
    """``Arabic · العربية term ↔ Bangla · বাংলা definition``, and with the names in
    themselves only (drawn as they read)."""
    return named(
        lambda name: (
            f"{name(pair.prompt_lang)} {pair.prompt_side} ↔ "
            f"{name(pair.answer_lang)} {pair.answer_side}"
        ),
        rtl_mode,
    )


class MatchTitle(CaptionLine):
    """``Match · deck · direction``: the direction with both names of its languages where
    the line has room, else with their names in themselves; where even that doesn't fit,
    the deck's name gives way (cut with "…") before the direction does."""

    #: The deck's name gives way down to this many cells.
    MIN_DECK = 8

    def __init__(self, deck: str, direction: Captions, *, rtl_mode: str, id: str) -> None:
        super().__init__(direction, id=id, classes="")
        self.deck = deck
        self.rtl_mode = rtl_mode

    def render(self) -> Content:
        """The title that fits the line."""
        width = self.content_region.width or self.size.width
        deck = display_text(self.deck, self.rtl_mode)
        for direction in self.captions:
            line = f"Match · {deck} · {direction}"
            if cells(line) <= width:
                return Content(line)
        direction = self.captions[1]
        room = max(self.MIN_DECK, width - cells(f"Match ·  · {direction}"))
        # Cut as written (logical order), then drawn: an Arabic name loses its end.
        deck = display_text(clip(self.deck, room), self.rtl_mode)
        return Content(clip(f"Match · {deck} · {direction}", width))


class MatchScreen(QuizzerScreen[None]):
    """A game of Match on ``choice``'s deck and direction; ``from_home`` decides where
    Enter leads at the end (home, or quit)."""

    DEFAULT_CSS = """
    #match-title {
        width: 1fr;
        padding: 0 1;
        background: $panel;
        text-style: bold;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    #match-status {
        width: 1fr;
        padding: 0 1;
        color: $text-muted;
    }
    #match-status.-done {
        color: $text-success;
        text-style: bold;
    }
    #match-board {
        height: 1fr;
    }
    #match-left, #match-right {
        width: 1fr;
        padding: 0 1 0 1;
    }
    /* Definitions get more of the width, the terms beside them enough for two lines. */
    #match-left.-beside-long {
        width: 2fr;
    }
    #match-right.-long {
        width: 3fr;
    }
    MatchTile:odd { background: $panel; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "done", "End"),
        Binding("enter", "done", "Done", show=False),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, choice: StudyChoice, *, from_home: bool) -> None:
        super().__init__()
        self.choice = choice
        self.from_home = from_home
        self.game: MatchGame | None = None
        self.best: float | None = None
        #: The best time before this game, once it is over.
        self.previous_best: float | None = None
        #: What shows the clock ten times a second (once the screen is mounted).
        self.clock_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        """Compose the title, the status line, the two columns of tiles and the footer."""
        choice = self.choice
        deck = self.service.deck_for(choice)
        pairs = match_pairs(deck.concepts, choice.pair, self.service.rng)
        direction = _direction(choice.pair, self.rtl_mode)
        yield MatchTitle(deck.name, direction, rtl_mode=self.rtl_mode, id="match-title")
        yield DrawnStatic("", id="match-status", markup=False)
        if len(pairs) >= MIN_PAIRS:
            self.game = MatchGame.deal(pairs, self.service.rng, utcnow())
            self.best = self.service.best_match_seconds(deck.id, choice.pair)
            long = choice.pair.answer_side == "definition"
            with Horizontal(id="match-board"):
                with Vertical(id="match-left", classes="-beside-long" if long else ""):
                    for tile in self.game.left:
                        yield MatchTile(tile.key, tile.text, rtl_mode=self.rtl_mode)
                with Vertical(id="match-right", classes="-long" if long else ""):
                    for tile in self.game.right:
                        yield MatchTile(tile.key, tile.text, rtl_mode=self.rtl_mode)
        yield QuizFooter()

    def on_mount(self) -> None:
        """Start the clock (the status line shows it ten times a second)."""
        self._show_status()
        if self.game is not None:
            self.clock_timer = self.set_interval(0.1, self._show_status, name="match-clock")

    def _show_status(self) -> None:
        status = self.query_one("#match-status", Static)
        game = self.game
        if game is None:
            status.update(f"Fewer than {MIN_PAIRS} cards in this direction: nothing to match.")
            return
        seconds = game.seconds(utcnow())
        best = f" · best {clock(self.best)}" if self.best is not None else ""
        if game.finished:
            was = self.previous_best
            news = " · a new best!" if was is None or seconds < was else ""
            status.update(f"All matched in {clock(seconds)}{best}{news} · Enter: done")
            status.add_class("-done")
            return
        penalty = (
            f" · {game.wrong} wrong (+{game.wrong * PENALTY_SECONDS:g} s)" if game.wrong else ""
        )
        status.update(
            f"{clock(seconds)} · {len(game.matched)} of {len(game.pairs)} · "
            f"1–{LEFT_KEYS[len(game.left) - 1]} then a–{RIGHT_KEYS[len(game.right) - 1]}"
            f"{penalty}{best}"
        )

    def on_key(self, event: events.Key) -> None:
        """A tile's label picks it."""
        if self.game is None or event.character is None:
            return
        found = self.game.find(event.character.lower())
        if found is not None:
            event.stop()
            self.pick(*found)

    def on_match_tile_clicked(self, event: MatchTile.Clicked) -> None:
        """A click picks the tile."""
        if self.game is not None and (found := self.game.find(event.key)) is not None:
            self.pick(*found)

    def pick(self, column: Column, index: int) -> Outcome:
        """Pick a tile and show what it did."""
        game = self.game
        assert game is not None
        selected = dict(game.selected)
        outcome = game.pick(column, index, utcnow())
        tiles = {t.key: t for t in self.query(MatchTile)}
        for tile in tiles.values():
            tile.remove_class("-selected", "-wrong")
        for side, i in game.selected.items():
            tiles[game.tiles(side)[i].key].add_class("-selected")
        if outcome is Outcome.WRONG:
            selected[column] = index
            for side, i in selected.items():
                tile = tiles[game.tiles(side)[i].key]
                tile.add_class("-wrong")
                self.set_timer(0.5, lambda tile=tile: tile.remove_class("-wrong"))
        if outcome is Outcome.MATCHED:
            for side in ("left", "right"):
                for t in game.tiles(side):
                    if t.pair in game.matched:
                        tiles[t.key].add_class("-matched")
            if game.finished:
                self._finish()
        self._show_status()
        return outcome

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.ended is not None
        seconds = game.seconds(game.ended)
        if self.clock_timer is not None:
            self.clock_timer.stop()
        deck_id = "+".join(self.choice.decks)
        record_match(self.service, self.choice.pair, game.grades(), game.ended)
        self.previous_best = self.service.finish_match(deck_id, self.choice.pair, seconds)
        was = self.previous_best
        self.best = seconds if was is None else min(seconds, was)

    def action_done(self) -> None:
        """Back to the home screen, or quit when the game came from the command line."""
        if self.from_home:
            self.app.pop_screen()
        else:
            self.app.exit(0)

    def action_help(self) -> None:
        """Show the keys."""
        from quizzer.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())
