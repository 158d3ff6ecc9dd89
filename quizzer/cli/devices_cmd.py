"""`quizzer devices`: the devices that write to the progress store folder.

For each: its name, its last event, its answers (undone ones not counted), whether its
files verify (every line's checksum, every event's values) and how many of its events this
device hasn't read yet. Settings say which device set the value in force.
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
        "last event, answers, whether its files verify. See docs/devices.md.",
    )
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.add_argument("--json", action="store_true", help="print the devices as JSON")
    p.set_defaults(func=run_devices)


def run_devices(args: argparse.Namespace) -> int:
    """Print the devices of the store folder; exit 3 when there is no store folder."""
    import quizzer.progress.device as device
    import quizzer.progress.devices as devices
    import quizzer.progress.layout as layout

    path = Path(default_db_path(args.db))
    if path.is_file():
        print(
            f"{shown(path)} is a store of the single-writer layout: quizzer turns it into a "
            "store folder the next time it opens it (see docs/devices.md)"
        )
        return 0
    if layout.read_marker(path) is None:
        raise StoreError(
            "no progress store folder here",
            hint="study once to make it, or give the store's folder with --db",
            path=path,
        )
    found = devices.list_devices(path, this=device.current_device())
    if args.json:
        print_json([info.to_dict() for info in found])
        return 0
    if not found:
        print("no device has written to this store yet")
        return 0
    rows = [("", "DEVICE", "NAME", "LAST EVENT (UTC)", "ANSWERS", "VERIFIES")]
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
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
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
