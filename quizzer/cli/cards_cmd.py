"""`quizzer cards`: find cards by any of their texts, see each one's status and answers,
suspend or bring one back (see --help)."""

from __future__ import annotations

import argparse

from rich.text import Text

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.console import text_console
from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.concepts.languages import language_name
from quizzer.errors import InputError, shown
from quizzer.library.decks import match_deck
from quizzer.progress import open_store
from quizzer.services.cards import AnswerRow, CardBrowser, CardRow
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService, utcnow
from quizzer.study.browse import STATUSES
from quizzer.ui.textshape import cells, has_rtl, resolve_rtl_mode, visual_lines


def register(subparsers: Subcommands) -> None:
    """Add ``cards`` to the CLI."""
    p = subparsers.add_parser(
        "cards",
        help="find cards by any of their texts; each one's status and answers; suspend one",
        description="List the cards of a deck (or every deck) whose concept has a text holding "
        "--search, compared as answers are (case, accents, punctuation and spacing aside, in "
        "each text's own language): every direction you studied, and the direction you chose "
        "last for a concept never studied. --json adds each card's answers (time, grade, mode, "
        "device, duration).",
    )
    p.add_argument("deck", nargs="*", help="deck ids or names (default: every deck)")
    p.add_argument("--search", metavar="TEXT", default="", help="a text in any language")
    p.add_argument("--direction", metavar="PAIR", help="only this direction, e.g. en:term>bn:term")
    p.add_argument("--state", choices=STATUSES, help="only cards in this state")
    p.add_argument("--json", action="store_true", help="JSON, with each card's answers")
    p.add_argument("--suspend", metavar="CARD_ID", action="append", default=[], help="suspend it")
    p.add_argument(
        "--unsuspend", metavar="CARD_ID", action="append", default=[], help="bring it back"
    )
    p.add_argument(
        "--edit",
        nargs=3,
        metavar=("CONCEPT", "LANG:SIDE", "TEXT"),
        help="change one text, e.g. --edit training-efficiency/lora bn:term 'লোরা': in your "
        "own deck's file, or for a bundled deck in an override file beside your decks; the "
        "text before is kept as its provenance and the concept keeps its id",
    )
    p.add_argument("--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)")
    p.add_argument("--decks", metavar="DIR", help=argparse.SUPPRESS)
    p.set_defaults(func=run_cards)


def _card(text: str) -> CardKey:
    try:
        return CardKey.parse(text.strip())
    except ValueError:
        raise InputError(
            f"not a card id: {text!r}",
            hint="a card id is deck/concept|lang:side>lang:side, as `quizzer cards` lists them",
        ) from None


def _pair(text: str | None) -> Pair | None:
    if text is None:
        return None
    try:
        return Pair.parse(text.strip())
    except ValueError:
        raise InputError(
            f"--direction {text!r} is not a direction",
            hint="write it as prompt>answer with a language and side each: en:term>bn:term",
        ) from None


def run_cards(args: argparse.Namespace) -> int:
    """List (or suspend, or bring back) cards."""
    pair = _pair(args.direction)
    suspend = [_card(text) for text in args.suspend]
    resume = [_card(text) for text in args.unsuspend]
    shelf = open_shelf(args.decks)
    listings = shelf.listings()
    deck_ids = [match_deck(listings, name).id for name in args.deck] or [d.id for d in listings]
    with open_store(args.db) as store:
        browser = CardBrowser(StudyService(store, shelf))
        now = utcnow()
        for key in (*suspend, *resume):
            browser.check_card(key)  # every id first: a mistyped one changes nothing
        for key, flag in [(k, True) for k in suspend] + [(k, False) for k in resume]:
            browser.set_suspended(key, flag, now)
            print(f"{'suspended' if flag else 'back in study'}: {key.id}")
        if suspend or resume:
            return 0
        if args.edit:
            concept, where, text = args.edit
            lang, _, side = where.partition(":")
            path = browser.edit_text(concept, lang.strip(), side.strip() or "term", text)
            print(f"edited {concept} {lang}:{side or 'term'}: kept in {shown(path)}")
            return 0
        rows = browser.find(deck_ids, now, search=args.search, pair=pair, status=args.state)
        if args.json:
            print_json(
                {
                    "cards": [
                        row.to_dict()
                        | {"history": [a.to_dict() for a in browser.history(row.card)]}
                        for row in rows
                    ]
                }
            )
            return 0
        console = text_console()
        terminal = console.is_terminal
        # In a terminal: lines wrapped between words, right-to-left texts joined and ordered
        # here when the terminal doesn't (as `quizzer show` prints them); piped: one line each.
        rtl = resolve_rtl_mode("auto") if terminal else "terminal"
        width = console.width if terminal else 0
        with_answers = len(rows) <= HISTORY_CARDS
        for row in rows:
            answers = browser.history(row.card) if with_answers and row.reps else []
            console.print(card_text(row, answers, search=args.search, rtl=rtl, width=width))
        if terminal and len(rows) > 1:
            hidden = not with_answers and any(row.reps for row in rows)
            more = " (--json or a narrower --search for their answers)" if hidden else ""
            console.print(Text(f"{len(rows)} cards{more}", style="dim"))
        if not rows:
            print("no card found" + (f" holding {args.search!r}" if args.search else ""))
    return 0


#: Up to this many cards listed, each one's answers are printed too (more: ``--json``).
HISTORY_CARDS = 5
#: The answers printed per card (the newest; how many came before is said).
HISTORY_LINES = 5
GRADES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


def card_text(row: CardRow, answers: list[AnswerRow], *, search: str, rtl: str, width: int) -> Text:
    """One card as `quizzer cards` prints it: its id and status, its prompt → answer, where
    the search found it when that text isn't one of them, its memory, and ``answers`` (the
    newest). ``width`` 0: each text on one line (piped); else wrapped to ``width`` cells."""
    out = Text()
    out.append(row.card.id, style="bold")
    out.append("  ")
    out.append(row.status, style="cyan")
    p = row.card.pair
    prompt = row.concept.text(p.prompt_lang, p.prompt_side) or ""
    answer = row.concept.text(p.answer_lang, p.answer_side) or ""
    # Each entry is printed on lines of its own; a text of another direction (an Arabic one
    # under an English → Bangla card) alone on its lines, so it is ordered as itself.
    lines = [f"{prompt} → {answer}"]
    shown_texts = {(p.prompt_lang, p.prompt_side), (p.answer_lang, p.answer_side)}
    if search.strip() and row.matched and not shown_texts & set(row.matched):
        lang, side = row.matched[0]
        found = row.concept.text(lang, side) or ""
        lines += [f"found in {language_name(lang)} {side}:", found]
    if row.reps or row.due is not None:  # (a new card has no memory to tell)
        memory = f"reps {row.reps} · lapses {row.lapses}"
        if row.due is not None:
            memory += f" · due {row.due.astimezone():%Y-%m-%d %H:%M}"
        lines.append(memory)
    if len(answers) > HISTORY_LINES:
        lines.append(f"{len(answers) - HISTORY_LINES} earlier answers, then:")
    for a in answers[-HISTORY_LINES:]:
        lines.append(
            f"{a.at.astimezone():%Y-%m-%d %H:%M}  {GRADES.get(a.grade, str(a.grade)):<5} "
            f"{a.mode:<6} {a.duration_ms / 1000:.1f}s  {a.device}"
        )
    column = max(width - 2, 20)
    for line in lines:
        fits = not width or (cells(line) <= column and not has_rtl(line))
        for part in [line] if fits else visual_lines(line, column, rtl):
            out.append("\n  " + part)
    return out
