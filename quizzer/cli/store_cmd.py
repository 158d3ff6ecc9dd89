"""`quizzer doctor` (check and repair the progress store) and `quizzer undo` (take back answers)."""

from __future__ import annotations

import argparse

from quizzer.core.review import GRADE_NAMES
from quizzer.paths import default_db_path
from quizzer.store import Bury, doctor, journal_path, open_store


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add this module's sub-commands to the CLI."""
    p = subparsers.add_parser(
        "doctor",
        help="check the progress store and repair it from the journal or backup",
        description="Check the progress store (snapshot, journal, backup) and repair what is "
        "wrong. Damaged files are kept next to the store, never deleted.",
    )
    p.add_argument("--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)")
    p.add_argument("--check", action="store_true", help="only report, change nothing")
    p.set_defaults(func=run_doctor)

    u = subparsers.add_parser(
        "undo",
        help="take back the last answer(s) recorded in the progress store",
        description="Take back answers: each card's state is restored and the log entry removed.",
    )
    u.add_argument("--db", metavar="PATH", help="progress store (default: $QUIZZER_DB or user dir)")
    u.add_argument("-n", "--steps", type=int, default=1, help="how many answers (default 1)")
    u.set_defaults(func=run_undo)


def run_doctor(args: argparse.Namespace) -> int:
    """Print the findings; exit 0 when healthy (or repaired), 3 when problems remain."""
    path = default_db_path(args.db)
    if not path.exists() and not journal_path(path).exists():
        print(f"{path}: no progress store here (nothing to check)")
        return 3
    found = doctor.check(path)
    if found.healthy:
        print(f"{path}: ok ({found.cards} cards)")
        return 0
    for problem in found.problems:
        print(f"problem: {problem}")
    if args.check:
        print(f"run `quizzer doctor --db {path}` to repair")
        return 3
    fixed = doctor.repair(path)
    for action in fixed.actions:
        print(f"repaired: {action}")
    for problem in fixed.problems:
        print(f"still wrong: {problem}")
    if fixed.problems:
        return 3
    print(f"{path}: ok ({fixed.cards} cards)")
    return 0


def run_undo(args: argparse.Namespace) -> int:
    """Undo ``--steps`` answers, printing each one taken back."""
    if args.steps < 1:
        from quizzer.core.errors import InputError

        raise InputError("--steps must be 1 or more")
    with open_store(args.db) as store:
        for _ in range(args.steps):
            review = store.undo()
            if review is None:
                print("nothing (more) to undo")
                break
            if isinstance(review, Bury):
                print(f"undone: bury of {review.card_id}")
                continue
            when = review.reviewed_at.isoformat(timespec="seconds")
            print(f"undone: {review.card_id} {GRADE_NAMES[review.grade]} at {when}")
    return 0
