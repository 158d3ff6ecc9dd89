"""`quizzer settings`: show and change the scheduler settings kept in the progress store.

Every value is checked twice: here, for a message about what was typed, and by
:class:`~quizzer.scheduling.scheduler.SchedulerSettings` itself, so nothing invalid
is ever stored. Mistakes are :class:`InputError` (exit 2); the store is not
touched unless every ``--set``/``--reset`` is valid.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from quizzer.cli.output import print_json
from quizzer.cli.subcommands import Subcommands
from quizzer.errors import InputError
from quizzer.paths import default_db_path
from quizzer.progress import open_store
from quizzer.scheduling.settings import SchedulerSettings

DB_HELP = "progress store file (default: $QUIZZER_DB, else the platform's user data dir)"

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhd]?)")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _bool(text: str) -> bool:
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError("expected on or off (true/false, yes/no, 1/0)")


def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError("expected a whole number") from None


def _float(text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ValueError("expected a number like 0.9") from None


def _steps(text: str) -> tuple[int, ...]:
    """``"1m 10m"``, ``"1m,10m"``, ``"30s"``, ``"1h"``; a bare number is minutes (as in Anki)."""
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if parts == ["none"] or not parts:
        return ()
    out: list[int] = []
    for part in parts:
        m = _DURATION.fullmatch(part.lower())
        if not m:
            raise ValueError(f"{part!r} is not a duration like 30s, 1m, 10m, 1h or 1d")
        seconds = float(m[1]) * _UNITS[m[2] or "m"]
        if seconds < 1 or seconds != int(seconds):
            raise ValueError(f"{part!r} must be a positive whole number of seconds")
        out.append(int(seconds))
    return tuple(out)


def _choice(*options: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in options:
            raise ValueError(f"expected one of: {', '.join(options)}")
        return value

    return parse


def _parameters(text: str) -> tuple[float, ...]:
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    try:
        return tuple(float(p) for p in parts)
    except ValueError:
        raise ValueError("expected 21 numbers separated by commas") from None


def _show_bool(value: bool) -> str:
    return "on" if value else "off"


def _show_steps(seconds: tuple[int, ...]) -> str:
    if not seconds:
        return "none"
    out = []
    for s in seconds:
        for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
            if s % size == 0:
                out.append(f"{s // size}{unit}")
                break
        else:
            out.append(f"{s}s")
    return " ".join(out)


@dataclass(frozen=True)
class Setting:
    """One key of ``quizzer settings``: the field it sets, how to parse and show it."""

    key: str
    field: str
    parse: Callable[[str], Any]
    help: str
    show: Callable[[Any], str] = str


SETTINGS: tuple[Setting, ...] = (
    Setting("desired_retention", "desired_retention", _float, "target recall (0.5 to below 1)"),
    Setting(
        "learning_steps",
        "learning_steps_s",
        _steps,
        "steps of a new card, e.g. '1m 10m' ('none' for no steps)",
        _show_steps,
    ),
    Setting(
        "relearning_steps",
        "relearning_steps_s",
        _steps,
        "steps after a lapse, e.g. '10m'",
        _show_steps,
    ),
    Setting("maximum_interval", "maximum_interval_days", _int, "longest interval, days"),
    Setting("fuzz", "fuzz", _bool, "spread review intervals a little (on/off)", _show_bool),
    Setting("day_start_hour", "day_start_hour", _int, "hour a study day starts, local time 0-23"),
    Setting("new_per_day", "new_per_day", _int, "new cards per deck per study day"),
    Setting("reviews_per_day", "reviews_per_day", _int, "reviews per deck per study day"),
    Setting("new_order", "new_order", _choice("deck", "random"), "order of new cards"),
    Setting(
        "bury_siblings",
        "bury_siblings",
        _bool,
        "one card per concept per study day (on/off)",
        _show_bool,
    ),
    Setting(
        "ladder_days",
        "ladder_days",
        _int,
        "a reverse direction's new card waits until its first direction is this stable, "
        "days (0: off)",
    ),
    Setting("leech_threshold", "leech_threshold", _int, "lapses that make a card a leech"),
    Setting("leech_every", "leech_every", _int, "then a leech again every this many lapses"),
    Setting("leech_action", "leech_action", _choice("suspend", "flag"), "what happens to a leech"),
    Setting(
        "parameters",
        "parameters",
        _parameters,
        "the 21 FSRS-6 weights (set by `quizzer optimize`)",
        lambda v: ", ".join(f"{p:g}" for p in v),
    ),
)
_BY_KEY = {s.key: s for s in SETTINGS}
# The dataclass field names work too (learning_steps_s, maximum_interval_days).
_BY_KEY.update({s.field: s for s in SETTINGS})


def find_setting(key: str) -> Setting:
    """The setting named ``key`` (dashes or underscores); :class:`InputError` if unknown."""
    setting = _BY_KEY.get(key.strip().lower().replace("-", "_"))
    if setting is None:
        raise InputError(
            f"unknown setting {key!r}",
            hint="settings: " + ", ".join(s.key for s in SETTINGS),
        )
    return setting


def apply_changes(
    settings: SchedulerSettings, assignments: list[str], resets: list[str]
) -> SchedulerSettings:
    """``settings`` with ``KEY=VALUE`` assignments and resets applied.

    :class:`InputError` names the first bad key or value.
    """
    changes: dict[str, Any] = {}
    defaults = SchedulerSettings()
    reset_fields = {find_setting(key).field for key in resets if key.strip().lower() != "all"}
    for item in assignments:
        key = item.partition("=")[0]
        if key.strip() and find_setting(key).field in reset_fields:
            raise InputError(
                f"{key.strip()} is both set and reset", hint="give either --set or --reset for it"
            )
    for key in resets:
        if key.strip().lower() == "all":
            changes.update({f.name: getattr(defaults, f.name) for f in fields(SchedulerSettings)})
            continue
        setting = find_setting(key)
        changes[setting.field] = getattr(defaults, setting.field)
    for item in assignments:
        key, sep, text = item.partition("=")
        if not sep:
            raise InputError(
                f"--set {item!r}: expected KEY=VALUE", hint="e.g. --set new_per_day=10"
            )
        setting = find_setting(key)
        try:
            changes[setting.field] = setting.parse(text)
        except ValueError as exc:
            raise InputError(f"--set {item!r}: {exc}", hint=setting.help) from None
    try:
        return replace(settings, **changes)
    except ValueError as exc:
        raise InputError(f"invalid setting: {exc}") from None


def register(subparsers: Subcommands) -> None:
    """Add ``quizzer settings`` to the CLI."""
    keys = "\n".join(f"  {s.key:<18} {s.help}" for s in SETTINGS)
    p = subparsers.add_parser(
        "settings",
        help="show or change the scheduler settings (retention, steps, daily limits, leeches…)",
        description="Show the scheduler settings kept in the progress store, or change them. "
        "Daily limits count per deck. Changes apply to the next answers.\n\nkeys:\n" + keys,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", metavar="PATH", help=DB_HELP)
    p.add_argument("--json", action="store_true", help="print the settings as JSON")
    p.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="change a setting (repeatable), e.g. --set new_per_day=10 "
        "--set learning_steps='1m 10m'",
    )
    p.add_argument(
        "--reset",
        metavar="KEY",
        action="append",
        default=[],
        help="back to the default (repeatable; 'all' for every setting)",
    )
    p.set_defaults(func=run_settings)


def run_settings(args: argparse.Namespace) -> int:
    """Print the settings, after applying ``--set``/``--reset`` (all validated first)."""
    path = default_db_path(args.db)
    changing = bool(args.set or args.reset)
    # Validate against the defaults first: a typo fails before any store is opened or made.
    apply_changes(SchedulerSettings(), args.set, args.reset)
    if not changing and not path.exists():
        settings = SchedulerSettings()
        note = f"{path}: no progress store yet; these are the defaults"
    elif not changing:
        with open_store(path, read_only=True) as store:
            settings = store.settings
        note = None
    else:
        created = not path.exists()
        with open_store(path) as store:
            settings = apply_changes(store.settings, args.set, args.reset)
            store.set_settings(settings)
        note = f"{path}: created a new progress store" if created else f"{path}: saved"
    if args.json:
        print_json(settings.to_dict())
        return 0
    if note:
        print(note)
    defaults = SchedulerSettings()
    for s in SETTINGS:
        value = getattr(settings, s.field)
        mark = "" if value == getattr(defaults, s.field) else "   (changed)"
        print(f"{s.key:<18} {s.show(value)}{mark}")
    return 0
