"""Entry point: builds the argument parser from the command modules and reports errors plainly.

Each command module exposes ``register(subparsers)``, adding its sub-commands
with ``set_defaults(func=...)``; ``func(args)`` returns the exit code.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Callable, Sequence

from quizzer import __version__
from quizzer.errors import QuizzerError, StoreError, shown

#: Every command and the module that registers it, in the order they appear in ``--help``.
#: A command imports only its own module (and that module its heavy work only when the
#: command runs), so `quizzer` opens the home screen without the Anki, import and statistics
#: modules, and `quizzer import` without the store's.
COMMANDS: dict[str, str] = {
    "study": "quizzer.cli.study_cmd",
    "home": "quizzer.cli.study_cmd",
    "decks": "quizzer.cli.decks_cmd",
    "show": "quizzer.cli.decks_cmd",
    "import": "quizzer.cli.import_cmd",
    "validate": "quizzer.cli.import_cmd",
    "export": "quizzer.cli.export_cmd",
    "merge": "quizzer.cli.merge_cmd",
    "stats": "quizzer.cli.stats_cmd",
    "optimize": "quizzer.cli.stats_cmd",
    "log": "quizzer.cli.stats_cmd",
    "doctor": "quizzer.cli.store_cmd",
    "undo": "quizzer.cli.store_cmd",
    "leeches": "quizzer.cli.store_cmd",
    "settings": "quizzer.cli.settings_cmd",
    "cards": "quizzer.cli.cards_cmd",
    "devices": "quizzer.cli.devices_cmd",
}

#: The commands that open the quiz: a long-running process, unlike the others.
QUIZ_COMMANDS = frozenset({"study", "home"})

#: The command modules, each once, in ``--help`` order.
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(COMMANDS.values()))


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The parser with every command registered (or only those of ``modules``)."""
    parser = argparse.ArgumentParser(
        prog="quizzer",
        description="Terminal flashcards and quizzes for technical vocabulary across languages. "
        "With no command, opens the quiz on the home screen.",
    )
    parser.add_argument("--version", action="version", version=f"quizzer {__version__}")
    # Read by `home` (main() turns `quizzer --db PATH` into `quizzer home --db PATH`); listed
    # here so `quizzer --help` shows it.
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="open the home screen on this progress store (default: $QUIZZER_DB or the user "
        "data dir); commands take their own --db",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (2 for bad input, 3 for store trouble)."""
    words = _command_first(list(sys.argv[1:] if argv is None else argv))
    # Start-up and the one-shot commands build hundreds of thousands to millions of small
    # objects without cycles (Textual's classes and styles, a big deck's concepts, an
    # import's entries), which the cyclic collector walks again and again as they pile up.
    # It is held off: for a one-shot command until it ends (a 50,000-entry import: 2.25 s of
    # CPU with it, 1.60 s without; re-importing it: 2.69 s and 1.67 s); for the quiz until
    # its first paint, when what start-up built is frozen out of its reach (it lives as long
    # as the app) and it is on again for the hours the quiz may run (with a 50,000-concept
    # deck and a 100,000-card store, medians of 11 launches: the home screen 0.329 s of CPU
    # with it, 0.289 s held off; `quizzer study` to its first card 0.313 s and 0.276 s).
    # Reference counting still frees all but cycles.
    was_on = gc.isenabled()
    gc.disable()

    def collector_on() -> None:
        if was_on and not gc.isenabled():
            gc.freeze()
            gc.enable()

    try:
        return _run(words, collector_on if words[0] in QUIZ_COMMANDS else None)
    finally:
        if was_on:
            gc.enable()


def _command_first(words: list[str]) -> list[str]:
    """``words`` with the command first: `quizzer` and `quizzer --db PATH` open the home
    screen, and `quizzer --db PATH COMMAND …` (the order `--help` shows) is `COMMAND --db PATH …`,
    since each command takes its own --db."""
    if words and words[0] in ("-h", "--help", "--version"):
        return words
    if words[:1] == ["--db"] and len(words) >= 3 and words[2] in COMMANDS:
        return [words[2], *words[:2], *words[3:]]
    if words and words[0].startswith("--db=") and len(words) >= 2 and words[1] in COMMANDS:
        return [words[1], words[0], *words[2:]]
    if not words or words[0].startswith("-"):
        return ["home", *words]
    return words


def _run(words: list[str], on_first_paint: Callable[[], None] | None) -> int:
    module = COMMANDS.get(words[0])
    parser = build_parser((module,) if module else COMMAND_MODULES)
    args = parser.parse_args(words)
    func: Callable[[argparse.Namespace], int | None] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    if on_first_paint is not None:
        args.on_first_paint = on_first_paint
    return _call(func, args)


def _call(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """``func(args)``'s exit code; the user's mistakes and the environment's refusals said
    plainly (2 for bad input, 3 for store trouble), never as a traceback."""
    try:
        return int(func(args) or 0)
    except StoreError as exc:
        print(f"quizzer: error: {exc}", file=sys.stderr)
        return 3
    except QuizzerError as exc:  # InputError and any other mistake in the user's input
        print(f"quizzer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("quizzer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # The environment refused (disk full, permissions…): say so plainly, with the path.
        # Commands turn the errors they expect into InputError/StoreError; this is the net.
        where = f"{shown(exc.filename)}: " if exc.filename is not None else ""
        print(f"quizzer: error: {where}{shown(exc.strerror or exc)}", file=sys.stderr)
        return 1
