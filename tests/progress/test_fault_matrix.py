"""The fault matrix: every file the store writes, damaged every way, then each command.

A store with three months of answers (:mod:`store_builder`) is built once; its files
are *discovered* (every file under its folder, the lock included), and each is
damaged nine ways, plus bad values inside files that still parse. Then, in order, as
a learner would meet them: ``quizzer stats``, a writer recording one answer and
closing, ``quizzer doctor --check``, ``quizzer doctor`` and a reader. Asserted:

- no traceback anywhere (every command returns an exit code, every API call returns
  or raises :class:`StoreError`);
- no acknowledged answer lost beyond what the damage itself destroyed (answers whose
  only copy was in the damaged file);
- no loss reported as "ok": a lost answer means ``doctor --check`` found a problem and
  ``doctor`` printed a ``lost:`` line;
- damaged bytes kept for a person to inspect, whenever damage was reported.

The commands run in-process (``quizzer.cli.main.main``), so the whole matrix takes
seconds, not minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.errors import StoreError
from quizzer.progress import journal
from tests.progress import store_builder as sb

Damage = Callable[[bytes], bytes | None]  # the new bytes; None deletes the file


def _flip(at: Callable[[int], int]) -> Damage:
    def flip(raw: bytes) -> bytes:
        if not raw:
            return b"\x20"
        i = at(len(raw))
        return raw[:i] + bytes([raw[i] ^ 0x20]) + raw[i + 1 :]

    return flip


DAMAGES: dict[str, Damage] = {
    "deleted": lambda raw: None,
    "emptied": lambda raw: b"",
    "half": lambda raw: raw[: len(raw) // 2],
    "flip-middle": _flip(lambda n: n // 2),
    "flip-start": _flip(lambda n: 1 if n > 1 else 0),
    "random": lambda raw: random.Random(len(raw)).randbytes(max(len(raw), 64)),
    "other-json": lambda raw: b'{"hello": [1, 2, 3]}',
    "garbage-appended": lambda raw: raw + b"\x00garbage\xff",
    "last-byte-cut": lambda raw: raw[:-1],
}


def _edit_json(change: Callable[[dict[str, Any]], None]) -> Damage:
    def edit(raw: bytes) -> bytes:
        doc = json.loads(raw)
        change(doc)
        return json.dumps(doc).encode()

    return edit


def _first_review(doc: dict[str, Any]) -> dict[str, Any]:
    first: dict[str, Any] = next(iter(doc["reviews"].values()))
    return first


def _meta(doc: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = doc["meta"]["1"]
    return meta


def _first_card(doc: dict[str, Any]) -> dict[str, Any]:
    return next(iter(doc["cards"].values()))


#: Bad values inside files that still parse: (file, what is done to it).
VALUES: dict[str, tuple[str, Damage]] = {
    "month grade 9": (
        "p.json.log/2026-08.json",
        _edit_json(lambda d: _first_review(d).update(grade=9)),
    ),
    "month time garbage": (
        "p.json.log/2026-08.json",
        _edit_json(lambda d: _first_review(d).update(reviewed_at="garbage")),
    ),
    "month renamed key": (
        "p.json.log/2026-08.json",
        _edit_json(lambda d: _first_review(d).update(graed=_first_review(d).pop("grade"))),
    ),
    "month empty table": ("p.json.log/2026-08.json", lambda raw: b'{"reviews": {}}'),
    "mirror grade 9": (
        "p.json.log/2026-07.json.bak",
        _edit_json(lambda d: _first_review(d).update(grade=9)),
    ),
    "undo time garbage": (
        "p.json",
        _edit_json(lambda d: _meta(d)["undo"][-1]["review"].update(reviewed_at="garbage")),
    ),
    "recent time garbage": (
        "p.json",
        _edit_json(lambda d: _meta(d)["recent"][-1].__setitem__(2, "x")),
    ),
    "card due naive": (
        "p.json",
        _edit_json(lambda d: _first_card(d).update(due="2026-09-01T00:00:00")),
    ),
    "negative journal offset": ("p.json", _edit_json(lambda d: _meta(d).update(journal_offset=-5))),
    "schema 0": ("p.json", _edit_json(lambda d: _meta(d).update(schema=0))),
    "snapshot as schema 1": ("p.json", lambda raw: b'{"reviews": {}}'),
    "journal event grade 9, checksum recomputed": ("p.json.journal", lambda raw: _bad_event(raw)),
    "journal header gen garbage": (
        "p.json.journal",
        lambda raw: b'00000000 {"op":"header","gen":"x"}\n' + raw.split(b"\n", 1)[1],
    ),
}


def _bad_event(raw: bytes) -> bytes:
    """The journal with its third line's answer graded 9, under a checksum that verifies."""
    lines = raw.split(b"\n")
    event = json.loads(lines[2][9:])
    event["review"]["grade"] = 9
    lines[2] = journal.encode(event).rstrip(b"\n")
    return b"\n".join(lines)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("template")
    ids = sb.build(root / "p.json")
    return root, ids


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse only
            code = int(exc.code or 0)
        except Exception:
            code = -1
            out.write(traceback.format_exc())
    return code, out.getvalue()


def _api(call: Callable[[], object], log: list[str]) -> object:
    try:
        return call()
    except StoreError as exc:
        log.append(f"StoreError: {exc.message}")
        return None
    except Exception:
        log.append(traceback.format_exc())
        return None


def _differs(before: bytes, after: bytes) -> bytes:
    """The bytes of ``after`` past its common prefix with ``before`` (what the damage wrote)."""
    n = 0
    for a, b in zip(before, after, strict=False):
        if a != b:
            break
        n += 1
    return after[n:]


def _kept(root: Path, name: str, before: bytes, damaged: bytes) -> bool:
    written = _differs(before, damaged)
    if not written:
        return True  # only bytes taken away: nothing of the damage's own to keep
    for file in root.rglob("*"):
        if not file.is_file():
            continue
        raw = file.read_bytes()
        if raw == damaged:
            return True
        if (".damaged-" in file.name or file.name.endswith(".torn")) and written in raw:
            return True
    return False


def _case(template: tuple[Path, list[str]], tmp_path: Path, name: str, damage: Damage) -> None:
    source, acknowledged = template
    root = tmp_path / "store"
    shutil.copytree(source, root)
    db = root / "p.json"
    target = root / name
    before = {f: (root / f).read_bytes() for f in _files(root)}
    original = before[name]
    damaged = damage(original)
    if damaged is None:
        target.unlink()
    else:
        target.write_bytes(damaged)
    # Answers whose only copy was in the damaged file: the damage may destroy those.
    destroyable = {
        rid
        for rid in acknowledged
        if [f for f, raw in before.items() if rid.encode() in raw] == [name]
    }
    errors: list[str] = []
    outputs: list[str] = []
    stats_code, out = _run("stats", "--db", str(db))
    outputs.append(out)
    writer = _api(lambda: sb.open_db(db), errors)
    expected = set(acknowledged)
    if writer is not None:
        review = _api(lambda: writer.record(sb.card(40), 3, sb.LATER), errors)  # type: ignore[attr-defined]
        if review is not None:
            expected.add(review.id)  # type: ignore[attr-defined]
        _api(writer.close, errors)  # type: ignore[attr-defined]
    check_code, check_out = _run("doctor", "--check", "--db", str(db))
    fix_code, fix_out = _run("doctor", "--db", str(db))
    outputs += [check_out, fix_out]

    def read() -> set[str]:
        with sb.open_db(db, read_only=True) as store:
            return {r.id for r in store.reviews()}

    got = _api(read, errors)
    tracebacks = [t for t in errors + outputs if "Traceback" in t]
    assert not tracebacks, tracebacks[0]
    assert got is not None, f"the reader failed after the doctor: {errors}\n{fix_out}"
    lost = expected - got  # type: ignore[operator]
    assert lost <= destroyable, f"lost beyond the damage: {sorted(lost - destroyable)}\n{fix_out}"
    if lost:
        assert stats_code != 0, f"{len(lost)} answers lost, stats said nothing: {outputs[0]}"
        assert check_code != 0, f"{len(lost)} answers lost, doctor --check said: {check_out}"
        assert "lost:" in fix_out, f"{len(lost)} answers lost, the doctor said: {fix_out}"
    assert fix_code == 0, fix_out
    assert _run("doctor", "--check", "--db", str(db))[0] == 0, "one doctor run is enough"
    if check_code != 0 and damaged is not None:
        assert _kept(root, name, original, damaged), f"damaged bytes of {name} not kept"


def test_the_store_writes_the_files_the_matrix_expects(template: tuple[Path, list[str]]) -> None:
    root, ids = template
    names = _files(root)
    # Discovered, not listed: this only guards that the builder made a store worth damaging.
    assert {"p.json", "p.json.journal", "p.json.bak", "p.json.journal.prev"} <= set(names)
    # Two months and their mirrors, the current month's file and mirror, one month's cache.
    assert sum(n.startswith("p.json.log/") for n in names) == 7 and len(ids) == 38
    assert sum(n.endswith(".answers.cache") for n in names) == 1


@pytest.mark.parametrize("kind", list(DAMAGES))
def test_every_file_damaged_every_way(
    template: tuple[Path, list[str]], tmp_path: Path, kind: str
) -> None:
    failures = []
    for index, name in enumerate(_files(template[0])):
        try:
            _case(template, tmp_path / str(index), name, DAMAGES[kind])
        except AssertionError as exc:
            failures.append(f"{name} {kind}: {str(exc)[:600]}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("what", list(VALUES))
def test_bad_values_inside_valid_files(
    template: tuple[Path, list[str]], tmp_path: Path, what: str
) -> None:
    name, damage = VALUES[what]
    _case(template, tmp_path, name, damage)
