"""`quizzer study` and `quizzer home`: the Textual quiz (see each sub-command's --help)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Literal

from quizzer.cards.card import Pair
from quizzer.concepts.languages import LANGUAGES, SIDES
from quizzer.errors import InputError
from quizzer.scheduling.review import MODES

if TYPE_CHECKING:
    from quizzer.services.study import StudyService

RTL_HELP = (
    "how to show Arabic: app (quizzer joins letters and orders them right to left; for "
    "tmux, kitty, alacritty, Windows Terminal), terminal (the terminal does bidi itself, "
    "e.g. GNOME Terminal/VTE), auto (terminal when VTE_VERSION is set outside tmux and "
    "screen, else app)"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``study`` and ``home`` to the CLI."""
    study = subparsers.add_parser(
        "study",
        help="study a deck now (flip, choice, typed or learn mode)",
        description="Start a study session straight away. Missing options come from your "
        "last choice on the home screen.",
    )
    study.add_argument("deck", nargs="?", help="deck id or name (default: the last one studied)")
    study.add_argument(
        "--from",
        dest="from_",
        metavar="LANG[:SIDE]",
        help=f"prompt language and side, e.g. ru or ru:term ({', '.join(LANGUAGES)}; "
        "side term or definition)",
    )
    study.add_argument(
        "--to", metavar="LANG[:SIDE]", help="answer language and side, e.g. en:definition"
    )
    study.add_argument("--mode", choices=MODES, help="quiz mode (default: flip, or the last one)")
    _common(study)
    study.set_defaults(func=run_study)

    home = subparsers.add_parser(
        "home", help="open the home screen (what `quizzer` with no command does)"
    )
    _common(home)
    home.set_defaults(func=run_home)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or the user data dir)"
    )
    parser.add_argument("--rtl", choices=("auto", "app", "terminal"), default="auto", help=RTL_HELP)
    parser.add_argument("--decks", metavar="DIR", help=argparse.SUPPRESS)


def parse_side(value: str, option: str, default_side: str) -> tuple[str, str]:
    """``"ru"`` → ``("ru", default_side)``; ``"ru:definition"`` → ``("ru", "definition")``."""
    lang, colon, side = value.partition(":")
    lang, side = lang.strip().lower(), side.strip().lower()
    if not colon:
        side = default_side
    if lang not in LANGUAGES:
        raise InputError(
            f"{option}: unknown language {lang!r}", hint=f"use one of {', '.join(LANGUAGES)}"
        )
    if side not in SIDES:
        raise InputError(f"{option}: unknown side {side!r}", hint="use term or definition")
    return lang, side


def resolve_pair(from_: str | None, to: str | None, last: Pair | None) -> Pair:
    """The direction from ``--from``/``--to``, filling gaps from ``last`` or sensible defaults."""
    if from_ is None and to is None and last is not None:
        return last
    if from_ is not None:
        prompt = parse_side(from_, "--from", "term")
    elif last is not None:
        prompt = (last.prompt_lang, last.prompt_side)
    else:
        prompt = ("en", "definition")
    default_answer_side = "term" if prompt[1] == "definition" and to is None else prompt[1]
    if to is not None:
        answer = parse_side(to, "--to", prompt[1])
    elif last is not None and (last.answer_lang, last.answer_side) != prompt:
        answer = (last.answer_lang, last.answer_side)
    else:
        answer = ("en", default_answer_side)
        if answer == prompt:
            answer = ("en", "definition" if prompt[1] == "term" else "term")
    try:
        return Pair(prompt[0], prompt[1], answer[0], answer[1])  # type: ignore[arg-type]
    except ValueError as exc:
        raise InputError(
            f"--from and --to name the same text ({prompt[0]}:{prompt[1]})",
            hint="ask for another language or side, e.g. --from ru:term --to en:term",
        ) from exc


def _open(args: argparse.Namespace) -> tuple[StudyService, Literal["app", "terminal"]]:
    from quizzer.library.decks import load_library
    from quizzer.progress import open_store
    from quizzer.services.study import StudyService
    from quizzer.ui.textshape import resolve_rtl_mode

    decks = [item.deck for item in load_library(args.decks)]
    if not decks:
        raise InputError("no decks found", hint="import a glossary with `quizzer import`")
    store = open_store(args.db)
    return StudyService(store, decks), resolve_rtl_mode(args.rtl, os.environ)


def run_study(args: argparse.Namespace) -> int:
    """Start a session on the chosen deck, direction and mode."""
    from quizzer.study.selection import StudyChoice
    from quizzer.ui.app import QuizzerApp

    service, rtl = _open(args)
    try:
        last = service.last_choice()
        if args.deck:
            from quizzer.library.decks import match_deck

            deck_id = match_deck(service.decks(), args.deck).id
        else:
            deck_id = last.deck if last else service.decks()[0].id
        pair = resolve_pair(args.from_, args.to, last.pair if last else None)
        mode = args.mode or (last.mode if last else "flip")
        choice = StudyChoice(deck_id, pair, mode)
        service.remember(choice)
    except BaseException:
        service.close()
        raise
    app = QuizzerApp(service, start=choice, rtl_mode=rtl)
    app.run()
    service.close()
    return app.return_code or 0


def run_home(args: argparse.Namespace) -> int:
    """Open the home screen."""
    from quizzer.ui.app import QuizzerApp

    service, rtl = _open(args)
    app = QuizzerApp(service, rtl_mode=rtl)
    app.run()
    service.close()
    return app.return_code or 0
