"""The snapshot file's storage and its damage messages (``progress.snapshot``), on real files.

The
store-level tests see these messages only in part; here each one a person reads when
``p.json`` is damaged is held whole, with the hint that names the doctor.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tinydb import TinyDB

from quizzer.errors import StoreError
from quizzer.progress.snapshot import AtomicJSONStorage, dumps, parse


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "p.json"


def _hint(path: Path) -> str:
    return f"run `quizzer doctor --db {path}` to check it and restore from the journal or backup"


def test_the_snapshot_is_compact_utf8_json_that_tinydb_itself_reads(path: Path) -> None:
    storage = AtomicJSONStorage(path)
    assert storage.read() is None  # no file yet
    doc = {"meta": {"1": {"deck": "বাংলা"}}}
    storage.write(doc)
    assert path.read_bytes() == '{"meta":{"1":{"deck":"বাংলা"}}}'.encode()
    assert dumps(doc) == path.read_bytes()
    assert storage.read() == doc
    with TinyDB(path, access_mode="r") as db:
        assert db.table("meta").get(doc_id=1) == {"deck": "বাংলা"}


def test_a_read_only_storage_refuses_to_write(path: Path) -> None:
    storage = AtomicJSONStorage(path, read_only=True)
    with pytest.raises(StoreError) as caught:
        storage.write({})
    assert caught.value.message == "the progress store is open read-only"
    assert caught.value.path == path
    assert not path.exists()
    assert AtomicJSONStorage(path).read_only is False


def test_an_unreadable_snapshot_names_why(path: Path) -> None:
    path.mkdir()
    with pytest.raises(StoreError) as caught:
        AtomicJSONStorage(path).read()
    assert caught.value.message == "can't read the progress store: Is a directory"
    assert caught.value.path == path


def test_bytes_that_are_not_utf8_name_the_byte(path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        parse(b'{"a": "\xff"}', path)
    assert caught.value.message == "progress store is damaged (not UTF-8 at byte 7)"
    assert caught.value.hint == _hint(path)
    assert caught.value.path == path


@pytest.mark.parametrize(
    ("raw", "message", "line"),
    [
        (
            b'{"a": 1,\n "b": }',
            "invalid JSON at line 2, column 7, byte 15: expecting value",
            2,
        ),
        (b'{"a" 1}', "invalid JSON at line 1, column 6, byte 5: expecting ':' delimiter", 1),
        (
            b'{"a": "x',
            "invalid JSON at line 1, column 7, byte 6: unterminated string",
            1,
        ),
        (b"", "invalid JSON at line 1, column 1, byte 0: expecting value", 1),
        (b'{"a": 1} x', "invalid JSON at line 1, column 10, byte 9: extra data", 1),
        (
            b'{"a": "x\x01"}',
            "invalid JSON at line 1, column 9, byte 8: invalid control character",
            1,
        ),
    ],
)
def test_invalid_json_says_where_and_what(path: Path, raw: bytes, message: str, line: int) -> None:
    with pytest.raises(StoreError) as caught:
        parse(raw, path)
    assert caught.value.message == f"progress store is damaged ({message})"
    assert caught.value.line == line
    assert caught.value.hint == _hint(path)
    assert caught.value.path == path


@pytest.mark.parametrize("raw", [b"[]", b'"text"', b"5", b"null"])
def test_json_that_is_not_a_document(path: Path, raw: bytes) -> None:
    path.write_bytes(raw)
    with pytest.raises(StoreError) as caught:
        AtomicJSONStorage(path).read()
    assert caught.value.message == "progress store is damaged (not a TinyDB document)"
    assert caught.value.hint == _hint(path)
    assert caught.value.path == path


def test_a_document_reads_back_as_it_was_written(path: Path) -> None:
    doc = {"cards": {"1": {"due": "2026-09-01T00:00:00+00:00", "n": [1, 2.5, None, True]}}}
    AtomicJSONStorage(path).write(doc)
    assert parse(path.read_bytes(), path) == doc == json.loads(path.read_text("utf-8"))
