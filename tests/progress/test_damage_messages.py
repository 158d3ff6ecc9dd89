"""A bad value in a file that still parses is named in plain words.

Each message names the file, the record (the answer by its id and card, the card state by
its card) and what is wrong, with the value as the file holds it (JSON): no Python
``repr`` of a dict cut mid-key, no ``ValueError('…')``. Real store files on disk (the
store of :mod:`store_builder`), the real CLI: ``quizzer stats`` and ``quizzer doctor --check``.
"""

from __future__ import annotations

import json
import re
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey
from quizzer.errors import StoreError
from quizzer.progress import aggregates, files, journal, journal_path
from tests.cli_support import run
from tests.progress import store_builder as sb

#: What a Python repr in a message looks like: a dict or list of texts, an exception's call.
_REPR = re.compile(r"\{'|\['|': |\w+Error\(|\w+Damage\(|\bb'|\bNone\b|\bTrue\b|\bFalse\b")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("built") / "p.json"
    sb.build(db)
    return db


def _edit(file: Path, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    change(doc)
    file.write_text(json.dumps(doc), encoding="utf-8")
    return doc


def _replace(doc: dict[str, Any], new: dict[str, Any]) -> None:
    """Make ``doc`` hold ``new`` instead of what it held."""
    doc.clear()
    doc.update(new)


def _first(table: dict[str, Any]) -> dict[str, Any]:
    first: dict[str, Any] = next(iter(table.values()))
    return first


def _meta(doc: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = doc["meta"]["1"]
    return meta


def _output(capsys: pytest.CaptureFixture[str], db: Path) -> tuple[str, str]:
    """What ``stats`` says on stderr, and ``doctor --check``'s problem lines."""
    _, _, err = run(capsys, "stats", "--db", str(db))
    _, out, _ = run(capsys, "doctor", "--check", "--db", str(db))
    problems = "\n".join(line for line in out.splitlines() if line.startswith("problem:"))
    return err, problems


@pytest.fixture
def db(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built.parent, tmp_path / "s")
    return tmp_path / "s" / "p.json"


def _said(capsys: pytest.CaptureFixture[str], db: Path, stats: str, doctor: str) -> None:
    """``stats`` fails with ``stats`` (its first line), ``doctor --check`` finds ``doctor``."""
    err, problems = _output(capsys, db)
    assert err.splitlines()[0] == f"quizzer: error: {stats}"
    assert problems == f"problem: {doctor}"


def test_a_card_state_without_a_utc_offset_names_its_card(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _edit(db, lambda d: _first(d["cards"]).update(due="2026-09-01T00:00:00"))
    card = _first(doc["cards"])["card_id"]
    what = f'the state of card {card} is invalid: due has no UTC offset: "2026-09-01T00:00:00"'
    _said(capsys, db, f"{db}: progress store is damaged ({what})", f"{db}: {what}")


def test_an_undo_entry_names_its_answer_and_what_is_wrong_inside(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _edit(db, lambda d: _meta(d)["undo"][-1]["review"].update(reviewed_at="garbage"))
    entry = _meta(doc)["undo"][-1]
    at = len(_meta(doc)["undo"]) - 1
    what = (
        f"meta.undo[{at}]: the undo entry for answer {entry['review_id']} of card "
        f'{entry["card_id"]} is invalid: in its answer, reviewed_at is not a time: "garbage"'
    )
    damaged = f"{db}: progress store is damaged (unexpected content: {what})"
    _said(capsys, db, damaged, damaged)


def test_a_bad_grade_in_a_month_file_names_the_record_and_its_answer(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    month = db.parent / "p.json.log" / "2026-08.json"
    doc = _edit(month, lambda d: _first(d["reviews"]).update(grade=9))
    review = _first(doc["reviews"])
    _, problems = _output(capsys, db)
    assert problems == (
        f"problem: {month}: review log file is damaged (record 1: answer {review['id']} of card "
        f"{review['card_id']} is invalid: grade is 9, not 1 to 4)"
    )


def _third_journal_line(
    db: Path, change: Callable[[dict[str, Any]], None]
) -> tuple[Path, dict[str, Any]]:
    """The journal's third line (an answer) changed under a checksum that verifies."""
    jpath = journal_path(db)
    lines = jpath.read_bytes().split(b"\n")
    event = json.loads(lines[2][9:])
    change(event)
    lines[2] = journal.encode(event).rstrip(b"\n")
    jpath.write_bytes(b"\n".join(lines))
    return jpath, event


def test_a_journal_line_whose_value_is_wrong_names_its_answer(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jpath, event = _third_journal_line(db, lambda e: e["review"].update(grade=0))
    err, _ = _output(capsys, db)
    review = event["review"]
    assert err.splitlines()[0] == (
        f'quizzer: error: {jpath}: the journal is damaged (journal event "record" for answer '
        f"{review['id']} of card {review['card_id']} is invalid: in its answer, grade is 0, "
        "not 1 to 4)"
    )


DAMAGES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "card id mangled": ("p.json", lambda d: _first(d["cards"]).update(card_id="zzz")),
    "card state 9": ("p.json", lambda d: _first(d["cards"]).update(state=9)),
    "card reps a text": ("p.json", lambda d: _first(d["cards"]).update(reps="3")),
    "recent time garbage": ("p.json", lambda d: _meta(d)["recent"][-1].__setitem__(2, "x")),
    "undo entry a number": ("p.json", lambda d: _meta(d)["undo"].__setitem__(0, 5)),
    "negative offset": ("p.json", lambda d: _meta(d).update(journal_offset=-5)),
    "seq a text": ("p.json", lambda d: _meta(d).update(seq="x")),
    "cards a list": ("p.json", lambda d: d.update(cards=[1])),
    "schema a text": ("p.json", lambda d: _meta(d).update(schema="4")),
    "month time garbage": (
        "p.json.log/2026-08.json",
        lambda d: _first(d["reviews"]).update(reviewed_at="garbage"),
    ),
    "month key renamed": (
        "p.json.log/2026-08.json",
        lambda d: _first(d["reviews"]).update(graed=_first(d["reviews"]).pop("grade")),
    ),
    "mirror card id a number": (
        "p.json.log/2026-07.json.bak",
        lambda d: _first(d["reviews"]).update(card_id=5),
    ),
    "month of another layout": (
        "p.json.log/2026-08.json",
        lambda d: _replace(d, {"hello": [1, 2, 3]}),
    ),
    "manifest entry with a text": (
        "p.json",
        lambda d: _meta(d)["months"].update({"2026-08": [1, "2"]}),
    ),
    "settings not an object": ("p.json", lambda d: d.update(settings={"1": 5})),
}


@pytest.mark.parametrize(("name", "damage"), DAMAGES.values(), ids=DAMAGES.keys())
def test_no_message_shows_a_python_repr(
    db: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    damage: Callable[[dict[str, Any]], None],
) -> None:
    file = db.parent / name
    _edit(file, damage)
    err, problems = _output(capsys, db)
    said = f"{err}\n{problems}"
    assert str(file) in said  # the file is named
    assert problems, "doctor --check finds it"
    assert not _REPR.search(said.replace(str(db.parent), "")), said


@pytest.mark.parametrize("step", ["x", -1, 1.5])
def test_a_learning_step_that_is_no_whole_number_is_damage_not_a_traceback(
    db: Path, capsys: pytest.CaptureFixture[str], step: object
) -> None:
    """The scheduler compares the step with its count of steps: ``"x"`` was a ``TypeError``
    in the first answer to the card."""
    doc = _edit(db, lambda d: _first(d["cards"]).update(step=step))
    key = CardKey.parse(_first(doc["cards"])["card_id"])
    what = f"the state of card {key.id} is invalid: step "
    with sb.open_db(db) as store, pytest.raises(StoreError) as caught:
        store.record(key, 3, sb.LATER)
    assert caught.value.message.startswith(f"progress store is damaged ({what}")
    assert caught.value.path == db
    _, problems = _output(capsys, db)
    assert problems.startswith(f"problem: {db}: {what}")
    code, out, _ = run(capsys, "doctor", "--db", str(db))
    assert code == 0, out
    with sb.open_db(db) as store:
        assert store.record(key, 3, sb.LATER).grade == 3


def test_a_journal_answer_whose_step_is_no_whole_number_is_damage(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jpath, _ = _third_journal_line(db, lambda e: e["card"].update(step="x"))
    err, _ = _output(capsys, db)
    assert err.splitlines()[0].startswith(f"quizzer: error: {jpath}: the journal is damaged (")
    assert err.splitlines()[0].endswith('is invalid: card.step is not a whole number: "x")')


def test_a_month_file_of_another_layout_says_what_it_holds(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its tables, as JSON: not the first bytes of the file as a bytes repr."""
    month = db.parent / "p.json.log" / "2026-08.json"
    month.write_text('{"hello": [1, 2, 3], "reviews": {}}', encoding="utf-8")
    _, problems = _output(capsys, db)
    assert (
        f"problem: {month}: review log file is damaged (not a table of reviews: its tables "
        'are ["hello", "reviews"])'
    ) in problems.splitlines()


def _seal_changed(month: Path, old: bytes, new: bytes) -> None:
    """A change in the seal, which its checksum doesn't cover (the answers' bytes kept)."""
    raw = month.read_bytes()
    at = raw.rindex(b',"seal":')
    assert raw[at:].count(old) == 1
    month.write_bytes(raw[:at] + raw[at:].replace(old, new))


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (b'"gen":', b'"gen":"5","was":', 'its seal\'s gen is not a whole number of 0 or more: "5"'),
        (b'"month":"2026-08"', b'"month":"2026-07"', 'sealed as 20 answers of "2026-07", holds'),
    ],
)
def test_a_seal_that_doesnt_hold_says_its_values_as_the_file_holds_them(
    db: Path, capsys: pytest.CaptureFixture[str], old: bytes, new: bytes, said: str
) -> None:
    month = db.parent / "p.json.log" / "2026-08.json"
    _seal_changed(month, old, new)
    _, problems = _output(capsys, db)
    assert f"problem: {month}: review log file is damaged ({said}" in problems, problems
    assert not _REPR.search(problems.replace(str(db.parent), "")), problems


def test_a_statistics_cache_whose_body_is_no_json_is_named_in_plain_words(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Sealed (its checksum verifies), but no JSON: where, not ``JSONDecodeError('…')``."""
    cache = files.stats_path(db)
    assert cache.exists()  # the store's second session saved it
    cache.write_bytes(seal_bytes(aggregates.MAGIC, aggregates.VERSION, b'{"tie": '))
    _, out, _ = run(capsys, "doctor", "--check", "--db", str(db))
    said = " ".join(out.split())
    assert (
        "note: p.json.stats: the statistics cache is damaged (in its body, invalid JSON at "
        "line 1, column 9, byte 8: expecting value); it only sums the review log"
    ) in said, said


def seal_bytes(magic: bytes, version: int, body: bytes) -> bytes:
    """A cache file's bytes around ``body`` as it is (its header's checksum verifying)."""
    return b"%s %d %08x\n" % (magic, version, zlib.crc32(body)) + body


def test_a_missing_journal_says_how_many_answers_cant_be_told(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The snapshot and its month files hold what the last compaction folded in, nothing
    after it: the five answers the journal held are not counted anywhere else."""
    jpath = journal_path(db)
    jpath.unlink()
    gen = _meta(json.loads(db.read_text(encoding="utf-8")))["gen"]
    _, problems = _output(capsys, db)
    assert problems == (
        f"problem: {jpath}: the journal is missing (the snapshot has absorbed generation {gen}; "
        "answers given since its last compaction, if any, are gone: how many can't be told, "
        "only the journal held them)"
    )
