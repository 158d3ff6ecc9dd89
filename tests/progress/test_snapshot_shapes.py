"""Whatever JSON stands in the snapshot, the store opens or says it is damaged; the doctor repairs.

A property test over the snapshot's structure: a value of any shape (nested up to far
deeper than a decoder follows) put in place of a table, a record or one field of it.
Opening the store, reading its log and cards, and ``doctor --check`` either work or raise
:class:`StoreError`, never anything else; ``doctor`` then leaves it healthy with every
answer (the backup and journal are whole).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.errors import StoreError
from quizzer.progress import doctor
from tests.progress import store_builder as sb

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
#: Where in the document the value goes: a table, the meta record, a field of it, a card.
PLACES = st.sampled_from(
    [
        ("meta",),
        ("meta", "1"),
        ("meta", "1", "undo"),
        ("meta", "1", "recent"),
        ("meta", "1", "months"),
        ("meta", "1", "gen"),
        ("settings",),
        ("settings", "1"),
        ("cards",),
        ("cards", "*"),
        ("cards", "*", "due"),
        ("cards", "*", "state"),
    ]
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    db = tmp_path_factory.mktemp("built") / "p.json"
    return db, sb.build(db, july=3, august=3, pending=2)


def _planted(raw: bytes, place: tuple[str, ...], value: Any, depth: int) -> bytes:
    doc = json.loads(raw)
    *parents, last = place
    node = doc
    for key in parents:
        node = node[next(iter(node))] if key == "*" else node[key]
    key = next(iter(node)) if last == "*" else last
    node[key] = "\0PLANTED\0"
    text = json.dumps(doc).encode()
    # Nesting deeper than json.dumps writes, wrapped around the value as text.
    planted = b"[" * depth + json.dumps(value).encode() + b"]" * depth
    return text.replace(b'"\\u0000PLANTED\\u0000"', planted, 1)


def _read(db: Path) -> list[str] | None:
    """The log's ids as an open reads them, ``None`` when the store says it is damaged."""
    try:
        with sb.open_db(db, read_only=True) as store:
            ids = [r.id for r in store.reviews()]
            for state in store.cards():
                assert state.card_id
            return ids
    except StoreError:
        return None


@settings(  # the same examples every run, as tests/strategies.py's BOUNDED
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(place=PLACES, value=VALUES, depth=st.sampled_from([0, 1, 3, 50, 100_000]))
def test_any_snapshot_shape_opens_or_is_damage_the_doctor_repairs(
    built: tuple[Path, list[str]],
    tmp_path_factory: pytest.TempPathFactory,
    place: tuple[str, ...],
    value: Any,
    depth: int,
) -> None:
    source, ids = built
    folder = tmp_path_factory.mktemp("shape")
    shutil.copytree(source.parent, folder, dirs_exist_ok=True)
    db = folder / source.name
    db.write_bytes(_planted(source.read_bytes(), place, value, depth))
    read = _read(db)
    found = doctor.check(db)
    if read is None:
        assert not found.healthy
    if not found.healthy:
        fixed = doctor.repair(db)
        assert fixed.healthy, fixed.problems
    assert _read(db) == ids


def test_an_emptied_manifest_of_months_loses_no_answer(  # found by random examples
    built: tuple[Path, list[str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    source, ids = built
    folder = tmp_path_factory.mktemp("manifest")
    shutil.copytree(source.parent, folder, dirs_exist_ok=True)
    db = folder / source.name
    db.write_bytes(_planted(source.read_bytes(), ("meta", "1", "months"), {}, 0))
    if not doctor.check(db).healthy:
        doctor.repair(db)
    assert _read(db) == ids
