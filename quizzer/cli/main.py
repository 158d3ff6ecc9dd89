"""Entry point: builds the argument parser from the command modules and reports errors plainly.

Each command module exposes ``register(subparsers)``, adding its sub-commands
with ``set_defaults(func=...)``; ``func(args)`` returns the exit code.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from quizzer import __version__
from quizzer.cli import gc_pause
from quizzer.errors import QuizzerError, StoreError, shown

if TYPE_CHECKING:
    import argparse

#: Command modules, in the order their commands appear in ``--help``.
COMMAND_MODULES: tuple[str, ...] = (
    "quizzer.cli.study_cmd",
    "quizzer.cli.decks_cmd",
    "quizzer.cli.import_cmd",
    "quizzer.cli.export_cmd",
    "quizzer.cli.merge_cmd",
    "quizzer.cli.stats_cmd",
    "quizzer.cli.store_cmd",
    "quizzer.cli.settings_cmd",
)


#: Commands that open the quiz, and the one module they need: only it is imported for them,
#: so the first card shows sooner (the other modules cost ~0.15 s of imports).
QUIZ_COMMANDS: dict[str, str] = {"study": "quizzer.cli.study_cmd", "home": "quizzer.cli.study_cmd"}
#: Other commands that need only their own module (importing a big glossary should not
#: pay ~0.2 s for the store, Anki and statistics modules it never uses).
ONE_MODULE_COMMANDS: dict[str, str] = {
    **QUIZ_COMMANDS,
    "import": "quizzer.cli.import_cmd",
    "validate": "quizzer.cli.import_cmd",
    # Listing decks and showing one read deck summaries and cached parses only; the store,
    # Anki and statistics modules would double what they cost (~0.2 s of imports).
    "decks": "quizzer.cli.decks_cmd",
    "show": "quizzer.cli.decks_cmd",
    # Statistics, the optimizer and the log export: no doctor, Anki or import modules.
    "stats": "quizzer.cli.stats_cmd",
    "optimize": "quizzer.cli.stats_cmd",
    "log": "quizzer.cli.stats_cmd",
}


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The parser with every command registered (or only those of ``modules``)."""
    import argparse

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
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0].startswith("-") and words[0] not in ("-h", "--help", "--version"):
        # `quizzer --db PATH` and the like: options of the home screen.
        argv = words = ["home", *words]
    if not words or words[0] in QUIZ_COMMANDS:
        # Until the quiz's first paint (the app resumes it): see quizzer.cli.gc_pause.
        gc_pause.pause()
    try:
        return _run(words, argv)
    finally:
        gc_pause.resume()


def _run(words: list[str], argv: Sequence[str] | None) -> int:
    if not words:
        # Bare `quizzer`: the home screen with its defaults, no parser built (argparse and
        # its gettext cost ~10 ms of the first paint).
        from quizzer.cli.study_cmd import home_args, run_home

        return _call(run_home, home_args())
    quiz = ONE_MODULE_COMMANDS.get(words[0])
    parser = build_parser((quiz,) if quiz else COMMAND_MODULES)
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        # No command: the home screen, if the study command is available.
        args = (
            parser.parse_args(["home", *(argv or sys.argv[1:])]) if _has(parser, "home") else args
        )
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help()
            return 0
    return _call(func, args)


def _call(func: Callable[[Any], int | None], args: Any) -> int:
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


def _has(parser: argparse.ArgumentParser, command: str) -> bool:
    import argparse

    for action in parser._actions:  # argparse offers no public lookup of sub-commands
        if isinstance(action, argparse._SubParsersAction):
            return command in action.choices
    return False
