"""Checksummed event lines: what is read back, what a crash leaves, what damage looks like."""

from __future__ import annotations

import pytest

import quizzer.progress.eventlines as eventlines


def _event(seq: int, **extra: object) -> dict[str, object]:
    return {"id": f"dev-{seq}", "dev": "dev", "seq": seq, "at": 1_700_000_000_000 + seq} | extra


def test_lines_read_back_as_written_with_tabs_newlines_and_scripts_in_text() -> None:
    events = [_event(1, typed="a\tb\nc"), _event(2, typed="কোয়ান্টাইজেশন ‫العربية‬")]
    data = eventlines.encode_all(events)
    assert data.count(b"\n") == 2
    parsed = eventlines.parse(data)
    assert parsed.events == events
    assert (parsed.end, parsed.damage) == (len(data), [])


def test_a_line_cut_short_at_the_end_is_the_torn_tail_not_damage() -> None:
    whole = eventlines.encode_all([_event(1), _event(2)])
    data = whole + eventlines.encode(_event(3))[:-7]
    parsed = eventlines.parse(data)
    assert [event["seq"] for event in parsed.events] == [1, 2]
    assert parsed.end == len(whole) < len(data) and parsed.damage == []


def test_a_bad_checksum_on_the_last_line_is_torn_too() -> None:
    whole = eventlines.encode(_event(1))
    last = bytearray(eventlines.encode(_event(2)))
    last[3] ^= 0x01
    parsed = eventlines.parse(whole + bytes(last))
    assert parsed.end == len(whole) and len(parsed.events) == 1 and parsed.damage == []


def test_a_changed_line_in_the_middle_is_reported_and_skipped() -> None:
    lines = [eventlines.encode(_event(seq)) for seq in (1, 2, 3)]
    damaged = bytearray(lines[1])
    damaged[10] = ord("X")
    data = lines[0] + bytes(damaged) + lines[2]
    parsed = eventlines.parse(data, offset=100, line=7)
    assert [event["seq"] for event in parsed.events] == [1, 3]
    assert len(parsed.damage) == 1
    assert parsed.damage[0].line == 8 and parsed.damage[0].offset == 100 + len(lines[0])
    assert "checksum" in parsed.damage[0].reason
    assert parsed.end == 100 + len(data)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"no tab here", "no checksum"),
        (b'{"id": 1}\tzzzzzzzz', "8 hex"),
        (b"[1, 2]\t%08x", "JSON object"),
        (b'{"seq": 1}\t%08x', "no string id"),
    ],
)
def test_a_line_that_is_no_event_says_why(line: bytes, reason: str) -> None:
    if b"%08x" in line:
        import zlib

        body = line.split(b"\t")[0]
        line = line.replace(b"%08x", b"%08x" % zlib.crc32(body))
    with pytest.raises(ValueError, match=reason):
        eventlines.decode(line)
