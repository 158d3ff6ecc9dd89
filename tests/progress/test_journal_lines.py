"""The journal's own rules at their edges (``progress.journal``), on real files.

The
store-level tests reach the line format, the scan's stopping rules and the writer's
repairs only through whole stores; here each is held on its own.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import stat
import zlib
from pathlib import Path
from typing import Any

import pytest

from quizzer.errors import StoreError
from quizzer.progress import journal
from quizzer.progress.journal import (
    JournalDamage,
    JournalWriter,
    ReadResult,
    decode,
    encode,
    header,
    header_event,
    iter_lines,
    read,
    scan,
    start_new,
)

ANSWER = {"op": "r", "card": "বাংলা", "seq": 1}
OTHER = {"op": "r", "card": "x", "seq": 2}


def _line(body: bytes, checksum: int | None = None) -> bytes:
    crc = zlib.crc32(body) if checksum is None else checksum
    return b"%08x " % crc + body + b"\n"


def _parts(result: ReadResult) -> tuple[list[Any], int, bytes]:
    """What a read gave, as plain values to compare with the dicts written."""
    return list(result.events), result.end, result.torn


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "p.json.journal"


def test_a_line_is_its_checksum_a_space_the_compact_json_and_a_newline() -> None:
    body = '{"op":"r","card":"বাংলা","seq":1}'.encode()
    # Text is kept as UTF-8, not \u escapes: the line is the bytes a person reads.
    assert encode(ANSWER) == b"%08x " % zlib.crc32(body) + body + b"\n"
    assert encode({}) == b"%08x {}\n" % zlib.crc32(b"{}")


def test_decode_takes_a_line_with_or_without_its_newline() -> None:
    line = encode(ANSWER)
    assert decode(line) == ANSWER
    assert decode(line[:-1]) == ANSWER
    assert decode(encode({})) == {}  # the shortest line there is (11 bytes and a newline)
    assert decode(encode({})[:-1]) == {}


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"\n",
        b"0000000 {}\n",  # a checksum one digit short
        b"%08x\t{}\n" % zlib.crc32(b"{}"),  # no space after the checksum
        b"%08x {}\n" % (zlib.crc32(b"{}") ^ 1),  # the wrong checksum
        _line(b"[1, 2]"),  # verifies, but is not an event
        _line(b'"text"'),
        _line(b"{not json}"),
        _line(b'{"x": "\xff"}'),  # not UTF-8
        b"zzzzzzzz {}\n",
    ],
)
def test_a_damaged_line_decodes_to_none(line: bytes) -> None:
    assert decode(line) is None


def test_a_checksum_that_is_not_hex_does_not_verify() -> None:
    # Base 17 spelling of the right checksum: only reading it as hex tells it apart.
    for n in range(200):
        body = b'{"n":%d}' % n
        crc, digits = zlib.crc32(body), ""
        while crc:
            crc, digit = divmod(crc, 17)
            digits = "0123456789abcdefg"[digit] + digits
        if "g" in digits and len(digits) <= 8:
            break
    line = digits.rjust(8, "0").encode() + b" " + body + b"\n"
    assert decode(line) is None


def test_scan_yields_the_offset_after_each_line_from_where_it_starts(path: Path) -> None:
    first, second = encode(ANSWER), encode(OTHER)
    path.write_bytes(first + second)
    assert list(scan(path)) == [(len(first), ANSWER), (len(first) + len(second), OTHER)]
    assert list(scan(path, len(first))) == [(len(first) + len(second), OTHER)]
    assert list(scan(path.with_name("missing"))) == []


def test_a_last_line_that_verifies_without_its_newline_counts(path: Path) -> None:
    first, second = encode(ANSWER), encode(OTHER)
    path.write_bytes(first + second[:-1])
    assert list(scan(path)) == [(len(first), ANSWER), (len(first) + len(second) - 1, OTHER)]
    result = read(path)
    assert result.events == [ANSWER, OTHER]
    assert result.end == len(first) + len(second) - 1 and result.torn == b""


def test_a_last_line_cut_short_is_torn_not_damage(path: Path) -> None:
    first, second = encode(ANSWER), encode(OTHER)
    path.write_bytes(first + second[:-3])
    assert _parts(read(path)) == ([ANSWER], len(first), second[:-3])


def test_a_damaged_last_line_followed_only_by_zeros_and_newlines_is_torn(path: Path) -> None:
    first = encode(ANSWER)
    tail = b"0000 cut\n\x00\x00\n\n"
    path.write_bytes(first + tail)
    assert _parts(read(path)) == ([ANSWER], len(first), tail)


def test_a_damaged_line_with_good_lines_after_it_is_damage_naming_line_and_byte(
    path: Path,
) -> None:
    first, second = encode(ANSWER), encode(OTHER)
    path.write_bytes(first + second + b"garbage\n" + first)
    with pytest.raises(JournalDamage) as caught:
        read(path)
    offset = len(first) + len(second)
    assert (caught.value.path, caught.value.line, caught.value.offset) == (path, 3, offset)
    assert str(caught.value) == f"{path}: journal line 3 (byte {offset}) is damaged"


def test_damage_on_the_first_line_is_line_1(path: Path) -> None:
    path.write_bytes(b"garbage\n" + encode(ANSWER))
    with pytest.raises(JournalDamage) as caught:
        list(scan(path))
    assert (caught.value.line, caught.value.offset) == (1, 0)
    # Garbage that is only NULs after a damaged line is not "good data after it"...
    path.write_bytes(encode(ANSWER) + b"garbage\n\x00\x00")
    assert read(path).events == [ANSWER]
    # ...but a single other byte is.
    path.write_bytes(encode(ANSWER) + b"garbage\nX")
    with pytest.raises(JournalDamage):
        read(path)


def test_reading_from_the_end_or_a_missing_file_gives_nothing(path: Path) -> None:
    data = encode(ANSWER)
    path.write_bytes(data)
    assert read(path, len(data)) == ReadResult([], len(data), b"")
    assert read(path.with_name("missing"), 7) == ReadResult([], 7, b"")


def test_read_result_is_a_frozen_slotted_value() -> None:
    value = ReadResult([], 0, b"")
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.end = 1  # type: ignore[misc]
    assert not hasattr(value, "__dict__")


def test_a_new_journal_holds_only_its_header(path: Path) -> None:
    size = start_new(path, 4)
    assert path.read_bytes() == encode({"op": "header", "gen": 4})
    assert size == path.stat().st_size
    assert header_event(4) == {"op": "header", "gen": 4}
    assert header(path) == 4 and journal.generation(path) == 4
    start_new(path, 0)
    assert header(path) == 0 and journal.generation(path) == 0


@pytest.mark.parametrize(
    "first",
    [
        _line(b'{"op":"header","gen":-1}'),
        _line(b'{"op":"header","gen":true}'),
        _line(b'{"op":"header","gen":"3"}'),
        _line(b'{"op":"header"}'),
        _line(b'{"op":"r","gen":3}'),  # an answer, not a header
        _line(b'{"gen":3}'),
        _line(b'{"op":"header","gen":3}', checksum=0),
        b"",
    ],
)
def test_only_a_header_that_verifies_names_a_generation(path: Path, first: bytes) -> None:
    path.write_bytes(first + encode(ANSWER))
    assert header(path) is None
    assert journal.generation(path) == 0


def test_no_journal_or_a_folder_has_no_header(path: Path) -> None:
    assert header(path) is None and journal.generation(path) == 0
    path.mkdir()
    assert header(path) is None


def test_a_first_line_over_4_kib_is_not_read_as_a_header(path: Path) -> None:
    def padded(size: int) -> bytes:
        shell = b'{"op":"header","gen":3,"pad":"%s"}'
        return _line(shell % (b"x" * (size - 9 - len(shell % b"") - 1)))

    fits = padded(4097)  # 4096 bytes and the newline: read whole
    assert len(fits) == 4097
    path.write_bytes(fits)
    assert header(path) == 3
    too_long = padded(4098)
    assert len(too_long) == 4098
    path.write_bytes(too_long)
    assert header(path) is None


def test_iter_lines_gives_every_line_with_its_offset_and_event(path: Path) -> None:
    first, second = encode(ANSWER), encode(OTHER)
    path.write_bytes(first + b"bad\n" + second)
    assert list(iter_lines(path)) == [
        (0, first, ANSWER),
        (len(first), b"bad\n", None),
        (len(first) + 4, second, OTHER),
    ]


def test_a_writer_creates_its_journal_readable_and_syncs_its_folder(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[Path] = []
    monkeypatch.setattr(journal, "fsync_dir", synced.append)
    old = os.umask(0o022)
    try:
        writer = JournalWriter(path, 0)
    finally:
        os.umask(old)
    writer.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert synced == [path.parent]  # the new name is durable, not only its bytes
    JournalWriter(path, 0).close()
    assert synced == [path.parent]  # an existing journal: nothing new to sync


def test_a_writer_appends_after_a_clean_journal_and_each_append_is_synced(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    size = start_new(path, 1)
    synced: list[int] = []

    def sync(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(journal, "_sync", sync)
    writer = JournalWriter(path, size)
    assert writer.end == size and synced == []  # nothing to repair: nothing synced
    end = writer.append(ANSWER)
    assert end == writer.end == size + len(encode(ANSWER)) == path.stat().st_size
    assert synced == [end]
    writer.append_nosync(OTHER)
    assert synced == [end]
    writer.sync()
    assert synced == [end, path.stat().st_size]
    assert writer.path == path
    writer.close()
    writer.close()  # closing twice is harmless: no other file (stdout here) is closed
    os.fstat(1)
    assert read(path).events == [header_event(1), ANSWER, OTHER]
    assert read(path).torn == b""


def test_a_writer_drops_a_torn_last_line_before_appending(path: Path) -> None:
    good = encode(ANSWER)
    path.write_bytes(good + b"0123 half a li")
    with JournalWriterClosing(path, len(good)) as writer:
        assert path.read_bytes() == good
        writer.append(OTHER)
    assert _parts(read(path)) == ([ANSWER, OTHER], len(good) + len(encode(OTHER)), b"")


def test_a_writer_ends_a_last_event_that_lost_its_newline(path: Path) -> None:
    good = encode(ANSWER)
    path.write_bytes(good[:-1])
    with JournalWriterClosing(path, len(good) - 1) as writer:
        assert writer.end == len(good) and path.read_bytes() == good
        assert writer.append(OTHER) == len(good) + len(encode(OTHER))
    assert read(path).events == [ANSWER, OTHER]


def test_a_second_writer_on_the_same_journal_is_refused(path: Path) -> None:
    with JournalWriterClosing(path, 0):
        with pytest.raises(StoreError) as caught:
            JournalWriter(path, 0)
        assert caught.value.message == "the journal is in use by another quizzer process"
        assert caught.value.hint == "close the other quizzer first"
        assert caught.value.path == path
    JournalWriter(path, 0).close()  # free again once the first has closed


def test_a_failed_write_takes_its_partial_line_back(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    with JournalWriterClosing(path, 0) as writer:
        writer.append(ANSWER)

        def half_then_full(fd: int, data: bytes) -> int:
            real_write(fd, bytes(data[:7]))
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", half_then_full)
        with pytest.raises(OSError):
            writer.append(OTHER)
        monkeypatch.setattr(os, "write", real_write)
        assert path.read_bytes() == encode(ANSWER)
        assert writer.end == len(encode(ANSWER))
        writer.append(OTHER)
    assert read(path).events == [ANSWER, OTHER]


def test_short_writes_are_continued(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write

    def three_bytes_at_a_time(fd: int, data: bytes) -> int:
        return real_write(fd, bytes(data[:3]))

    with JournalWriterClosing(path, 0) as writer:
        monkeypatch.setattr(os, "write", three_bytes_at_a_time)
        writer.append(ANSWER)
        monkeypatch.setattr(os, "write", real_write)
    assert path.read_bytes() == encode(ANSWER)
    assert json.loads(path.read_bytes()[9:]) == ANSWER


class JournalWriterClosing:
    """A :class:`JournalWriter` as a context manager, closed on the way out."""

    def __init__(self, path: Path, end: int) -> None:
        self.writer = JournalWriter(path, end)

    def __enter__(self) -> JournalWriter:
        return self.writer

    def __exit__(self, *exc: object) -> None:
        self.writer.close()
