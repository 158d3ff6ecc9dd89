"""`quizzer study` and `quizzer home`: the Textual quiz (see each sub-command's --help)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Literal

from quizzer.cards.card import Pair
from quizzer.cli.subcommands import Subcommands
from quizzer.concepts.languages import LanguageTagError, Side, check_language
from quizzer.concepts.languages import parse_side as parse_side_name
from quizzer.errors import InputError
from quizzer.library.decks import match_deck
from quizzer.progress import open_store
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from quizzer.study.cram import parse_cram
from quizzer.study.selection import STUDY_MODES, StudyChoice, default_pair, fits, reverse
from quizzer.ui.app import QuizzerApp
from quizzer.ui.textshape import resolve_rtl_mode

RTL_HELP = (
    "how to show Arabic: app (quizzer joins letters and orders them right to left; for "
    "tmux, kitty, alacritty, Windows Terminal), terminal (the terminal does bidi itself, "
    "e.g. GNOME Terminal/VTE), auto (terminal when VTE_VERSION is set outside tmux and "
    "screen, else app)"
)


def register(subparsers: Subcommands) -> None:
    """Add ``study`` and ``home`` to the CLI."""
    study = subparsers.add_parser(
        "study",
        help="study a deck now (flip, choice, typed or learn mode, or a game of match)",
        description="Start a study session straight away. Missing options come from your "
        "last choice on the home screen.",
    )
    study.add_argument(
        "deck",
        nargs="*",
        help="deck ids or names, one or several studied together (default: the last studied)",
    )
    study.add_argument(
        "--from",
        dest="from_",
        metavar="LANG[:SIDE]",
        help="prompt language and side, e.g. ru or ru:term (a language tag such as es, "
        "pt-BR; side term or definition)",
    )
    study.add_argument(
        "--to", metavar="LANG[:SIDE]", help="answer language and side, e.g. en:definition"
    )
    study.add_argument(
        "--both",
        action="store_true",
        help="study the reverse direction too, after the first: a concept's reverse new card "
        "waits until its first direction is known (the ladder_days setting)",
    )
    study.add_argument(
        "--mode", choices=STUDY_MODES, help="quiz mode (default: flip, or the last one)"
    )
    study.add_argument(
        "--cram",
        nargs="?",
        const="all",
        metavar="all|failed|leeches|due-N",
        help="practise without changing any schedule: every card (the default), today's "
        "failures, the leeches, or the cards due within N days; each until answered right "
        "once, logged as practice",
    )
    _common(study)
    study.set_defaults(func=run_study)

    home = subparsers.add_parser(
        "home",
        help="open the home screen (what `quizzer` with no command does)",
        description="Open the home screen: the decks with their new and due cards; pick a "
        "deck, a direction (prompt and answer language and side) and a mode, then start. "
        "`quizzer` with no command, or `quizzer --db PATH`, does the same.",
    )
    _common(home)
    home.set_defaults(func=run_home)


def _common(parser: argparse.ArgumentParser) -> None:
    # What the app calls once its first screen is painted (the entry point's, if any).
    parser.set_defaults(on_first_paint=None)
    parser.add_argument(
        "--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or the user data dir)"
    )
    parser.add_argument("--rtl", choices=("auto", "app", "terminal"), default="auto", help=RTL_HELP)
    parser.add_argument("--decks", metavar="DIR", help=argparse.SUPPRESS)


def parse_side(
    value: str, option: str, default_side: Side, languages: Sequence[str] = ()
) -> tuple[str, Side]:
    """``"ru"`` → ``("ru", default_side)``; ``"ru:definition"`` (or ``ru:def``, ``ru:d``) →
    ``("ru", "definition")``.

    A tag written as one of ``languages`` (the deck's, each already in its standard form)
    is taken as it is; any other is checked and standardized by langcodes. Loading
    langcodes' tables cost `quizzer study --from en` about 30 ms of CPU to the first card,
    6% of it (50,000-concept deck, 100,000-card store, medians of 9 launches).
    """
    lang, colon, text = value.partition(":")
    if lang not in languages:
        try:
            lang = check_language(lang)
        except LanguageTagError as exc:
            raise InputError(f"{option}: {exc.problem}", hint=exc.hint) from None
    if not colon:
        return lang, default_side
    try:
        return lang, parse_side_name(text)
    except ValueError:
        raise InputError(
            f"{option}: unknown side {text.strip()!r}",
            hint="use term or definition, or a prefix of one (t, def)",
        ) from None


def resolve_pair(
    from_: str | None, to: str | None, last: Pair | None, languages: Sequence[str] = ()
) -> Pair:
    """The direction from ``--from``/``--to``, filling gaps from ``last`` or sensible defaults.

    ``languages`` are the deck's (unknown when empty): a ``last`` direction the deck has no
    text for is not reused, and the defaults come from the deck
    (:func:`~quizzer.study.selection.default_pair`: fr:term → fr:definition for a French-only
    deck).
    """
    if last is not None and not fits(last, languages):
        last = None
    if from_ is None and to is None:
        return last or default_pair(languages)
    base = default_pair(languages)
    if from_ is not None:
        prompt = parse_side(from_, "--from", "term", languages)
    elif last is not None:
        prompt = (last.prompt_lang, last.prompt_side)
    else:
        prompt = (base.prompt_lang, base.prompt_side)
    if to is not None:
        answer = parse_side(to, "--to", prompt[1], languages)
    elif last is not None and (last.answer_lang, last.answer_side) != prompt:
        answer = (last.answer_lang, last.answer_side)
    else:
        # The deck's default answer language (English when it has it), the other side when
        # the prompt is in that language.
        lang = base.answer_lang
        side: Side = "term" if prompt[1] == "definition" else prompt[1]
        if (lang, side) == prompt:
            side = "definition" if prompt[1] == "term" else "term"
        answer = (lang, side)
    try:
        return Pair(prompt[0], prompt[1], answer[0], answer[1])
    except ValueError as exc:
        raise InputError(
            f"--from and --to name the same text ({prompt[0]}:{prompt[1]})",
            hint="ask for another language or side, e.g. --from ru:term --to en:term",
        ) from exc


def _open(args: argparse.Namespace) -> tuple[StudyService, Literal["app", "terminal"]]:
    decks = open_shelf(args.decks)  # summaries now; a deck's concepts when it is opened
    if not decks:
        raise InputError("no decks found", hint="import a glossary with `quizzer import`")
    store = open_store(args.db)
    return StudyService(store, decks), resolve_rtl_mode(args.rtl, os.environ)


def run_study(args: argparse.Namespace) -> int:
    """Start a session on the chosen deck, direction and mode."""
    service, rtl = _open(args)
    try:
        last = service.last_choice()
        decks = service.listings()
        if args.deck:
            chosen = list(dict.fromkeys(match_deck(decks, name).id for name in args.deck))
            deck = next(d for d in decks if d.id == chosen[0])
            more = tuple(chosen[1:])
        else:
            deck = next((d for d in decks if last and d.id == last.deck), decks[0])
            more = last.more_decks if last and last.deck == deck.id else ()
        pair = resolve_pair(args.from_, args.to, last.pair if last else None, deck.languages)
        deck_id = deck.id
        mode = args.mode or (last.mode if last else "flip")
        if args.both:
            also: tuple[Pair, ...] = (reverse(pair),)
        elif args.from_ is None and args.to is None and last is not None and last.pair == pair:
            also = last.also  # the last choice, whole
        else:
            also = ()
        cram = None
        if args.cram is not None:
            try:
                cram = parse_cram(args.cram)
            except ValueError as exc:
                raise InputError(
                    f"--cram: {exc}", hint="e.g. --cram failed, --cram due-7"
                ) from None
        choice = StudyChoice(deck_id, pair, mode, also, more, cram)
        service.remember(choice)
    except BaseException:
        service.close()
        raise
    app = QuizzerApp(service, start=choice, rtl_mode=rtl, on_first_paint=args.on_first_paint)
    app.run()
    service.close()
    return app.return_code or 0


def run_home(args: argparse.Namespace) -> int:
    """Open the home screen."""
    service, rtl = _open(args)
    app = QuizzerApp(service, rtl_mode=rtl, on_first_paint=args.on_first_paint)
    app.run()
    service.close()
    return app.return_code or 0
