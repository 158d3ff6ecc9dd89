"""`quizzer devices`: the devices that write to the progress store folder.

For each: its name, its last event, its answers (undone ones not counted), whether its
files verify (every line's checksum, every event's values) and how many of its events this
device's view (the card states it derived, its cache) hasn't taken in yet. Settings say
which device set the value in force.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.errors import StoreError, shown
from quizzer.paths import default_db_path

DB_HELP = "progress store folder (default: $QUIZZER_DB, else the platform's user data dir)"


def register(subparsers: Subcommands) -> None:
    """Add ``quizzer devices`` to the CLI."""
    p = subparsers.add_parser(
        "devices",
        help="list the devices that study with this progress store (a synced folder)",
        description="List each device that writes to the progress store folder: its name, "
        "last event, answers, whether its files verify, and how many of its events this "
        "device hasn't taken in yet (behind). See docs/devices.md.",
    )
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.add_argument("--json", action="store_true", help="print the devices as JSON")
    p.set_defaults(func=run_devices)


def run_devices(args: argparse.Namespace) -> int:
    """Print the devices of the store folder. An old store's file is named (exit 0), a path
    with no store and a file or folder that is no store are exit 3, as for every command
    that takes a store path; nothing is written."""
    import quizzer.progress.storepath as storepath
    import quizzer.progress.upgrade as upgrade

    path = Path(default_db_path(args.db))
    if path.is_file():
        try:
            schema = upgrade.check_old_store(path)
        except StoreError as error:
            if isinstance(error.__cause__, OSError):
                raise  # it couldn't be read: its own words say why
            raise _not_a_store(
                path, "a file that is neither a store folder nor an old store"
            ) from None
        print(
            f"{shown(path)} is an old progress store (schema {schema}, the single-writer layout): "
            "quizzer turns it into a store folder the next time it studies with it "
            "(see docs/devices.md)"
        )
        return 0
    if not storepath.store_exists(path):
        if path.exists() and not (path.is_dir() and not any(path.iterdir())):
            raise _not_a_store(path, "a folder without quizzer-store.json")
        raise StoreError(
            "no progress store folder here",
            hint="study once to make it, or give the store's folder with --db",
            path=path,
        )
    found = storepath.list_devices(path)
    if args.json:
        print_json([info.to_dict() for info in found])
        return 0
    if not found:
        print("no device has written to this store yet")
        return 0
    rows = [("", "DEVICE", "NAME", "LAST EVENT (UTC)", "ANSWERS", "VERIFIES", "BEHIND")]
    for info in found:
        last = info.last_event.strftime("%Y-%m-%d %H:%M") if info.last_event else "-"
        rows.append(
            (
                "*" if info.this else "",
                shown(info.device),
                shown(info.name),
                last,
                str(info.answers),
                "yes" if info.verifies else "NO",
                str(info.behind),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    if any(info.behind for info in found):
        print("BEHIND: events this device's view hasn't taken in yet (the next open reads them)")
    for info in found:
        for key, value in sorted(info.settings.items()):
            print(f"setting {key} = {shown(value)}: set by {shown(info.name)}")
        for problem in info.problems:
            print(f"{shown(info.device)}: {shown(problem)}")
        if info.copies:
            print(
                f"{shown(info.device)}: {info.copies} sync-conflict copies beside its logs "
                "(read, never counted twice; safe to delete)"
            )
    return 0


def _not_a_store(path: Path, what: str) -> StoreError:
    return StoreError(
        f"not a quizzer progress store ({what})",
        hint="give --db the store's folder (or an old store's progress.json); nothing was changed",
        path=path,
    )
