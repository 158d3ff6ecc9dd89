"""The writer's lock file (``progress.lock``): who holds it, its journal mark, its messages.

The store
tests take the lock through whole stores and other processes; here the lock file's
text, each rule for reading it back and each message a refused process prints are held
on their own, on real files with real ``flock`` locks (two open files of one process
lock each other out, as two processes do).
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import socket
from datetime import datetime
from pathlib import Path

import pytest

from quizzer.errors import StoreError
from quizzer.progress.lock import (
    READ_ONLY_COMMANDS,
    Holder,
    StoreLock,
    active_holder,
    journal_in_use,
    parse_mark,
    read_mark,
    try_exclusive,
)


@pytest.fixture
def lock(tmp_path: Path) -> Path:
    return tmp_path / "p.json.lock"


class Held:
    """Another open file holding an exclusive ``flock`` on ``path`` (as another process would)."""

    def __init__(self, path: Path, text: bytes | None = None) -> None:
        if text is not None:
            path.write_bytes(text)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT)
        fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def __enter__(self) -> Held:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


@pytest.mark.parametrize(
    ("text", "holder"),
    [
        ("4242\nbox\n2026-08-01T09:00\n", Holder(4242, "box", "2026-08-01T09:00")),
        ("4242\nbox", Holder(4242, "box", "")),
        ("4242", Holder(4242, "", "")),
        ("", Holder(None, "", "")),
        ("x\nbox\nsoon", Holder(None, "box", "soon")),
    ],
)
def test_a_holder_is_read_from_pid_host_and_since_lines(text: str, holder: Holder) -> None:
    assert Holder.parse(text) == holder


@pytest.mark.parametrize(
    ("holder", "said"),
    [
        (Holder(4242, "box", "9:00"), "process 4242 on box (since 9:00)"),
        (Holder(4242, "", ""), "process 4242"),
        (Holder(None, "box", ""), "another process on box"),
        (Holder(0, "", "9:00"), "another process (since 9:00)"),
        (Holder(None, "", ""), "another process"),
    ],
)
def test_a_holder_is_described_with_what_is_known(holder: Holder, said: str) -> None:
    assert holder.describe() == said


def test_holder_is_a_frozen_slotted_value() -> None:
    value = Holder(1, "", "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.pid = 2  # type: ignore[misc]
    assert not hasattr(value, "__dict__")


def test_nobody_holds_a_missing_empty_or_released_lock_file(lock: Path) -> None:
    assert active_holder(lock) is None
    lock.write_bytes(b"")
    assert active_holder(lock) is None
    lock.write_bytes(b" \n\n\n")
    assert active_holder(lock) is None
    lock.write_bytes(b"4242\nbox\n9:00\n")  # its holder died: the kernel let go
    assert active_holder(lock) is None


def test_a_held_lock_file_names_its_holder_even_with_bytes_that_are_not_utf8(lock: Path) -> None:
    with Held(lock, b"4242\nb\xffx\n9:00\n"):
        assert active_holder(lock) == Holder(4242, "b\ufffdx", "9:00")
    assert active_holder(lock) is None  # and it is not left locked by the look


def test_the_journal_mark_is_the_fourth_line(lock: Path) -> None:
    assert parse_mark("1\nh\nt\njournal 000000000003 000000000000120\n") == (3, 120)
    assert parse_mark("\n\n\njournal 3 120") == (3, 120)
    for text in (
        "journal 3 120\n",  # not where a mark is
        "1\nh\nt\n",
        "1\nh\nt\njournal 3\n",
        "1\nh\nt\njournal 3 120 7\n",
        "1\nh\nt\njournol 3 120\n",
        "1\nh\nt\njournal -3 120\n",
        "1\nh\nt\njournal 3 x\n",
        "1\nh\nt\n\njournal 3 120\n",
    ):
        assert parse_mark(text) is None, text
    assert read_mark(lock) is None
    lock.write_bytes(b"1\nh\xff\nt\njournal 3 120\n")
    assert read_mark(lock) == (3, 120)
    lock.unlink()
    lock.mkdir()
    assert read_mark(lock) is None


def test_a_lock_writes_its_holder_and_keeps_the_last_mark(
    lock: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "p.json"
    held = StoreLock(lock, store)
    text = lock.read_text()
    pid, host, since, rest = text.split("\n")
    assert (int(pid), host, rest) == (os.getpid(), socket.gethostname(), "")
    assert datetime.fromisoformat(since).utcoffset() is not None
    assert active_holder(lock) == Holder(os.getpid(), host, since)
    assert (held.previous_mark, held.taken_over) == (None, None)
    held.mark(2, 345)
    assert held.previous_mark == (2, 345)
    assert lock.read_text() == text + "journal 000000000002 000000000000345\n"
    held.mark(3, 7)  # fixed width: the new mark overwrites the old in place
    assert lock.read_text() == text + "journal 000000000003 000000000000007\n"
    held.release()
    # Nobody holds it, but the mark stays for the next writer and the doctor.
    assert lock.read_text() == "\n\n\njournal 000000000003 000000000000007\n"
    assert active_holder(lock) is None and read_mark(lock) == (3, 7)
    held.release()  # twice is harmless
    held.mark(4, 1)  # after release: nothing written
    assert read_mark(lock) == (3, 7)
    again = StoreLock(lock, store)
    assert again.previous_mark == (3, 7) and again.taken_over is None
    assert lock.read_text().endswith("\njournal 000000000003 000000000000007\n")
    again.release()


def test_a_released_lock_without_a_mark_is_left_empty(lock: Path, tmp_path: Path) -> None:
    held = StoreLock(lock, tmp_path / "p.json")
    held.release()
    assert lock.read_bytes() == b""


def test_a_lock_left_by_a_dead_process_is_taken_over_and_named(lock: Path, tmp_path: Path) -> None:
    lock.write_text("4242\nbox\n9:00\njournal 000000000001 000000000000050\n")
    held = StoreLock(lock, tmp_path / "p.json")
    assert held.taken_over == Holder(4242, "box", "9:00")
    assert held.previous_mark == (1, 50)
    held.release()
    # Our own pid in the file (a lock this process released) is not a take-over.
    lock.write_text(f"{os.getpid()}\nbox\n9:00\n")
    held = StoreLock(lock, tmp_path / "p.json")
    assert held.taken_over is None
    held.release()


def test_a_held_lock_refuses_a_second_writer_naming_the_first(lock: Path, tmp_path: Path) -> None:
    store = tmp_path / "p.json"
    with Held(lock, b"4242\nbox\n9:00\n"), pytest.raises(StoreError) as caught:
        StoreLock(lock, store)
    assert caught.value.message == (
        "the progress store is in use by process 4242 on box (since 9:00)"
    )
    assert caught.value.hint == (
        f"close the other quizzer first; meanwhile {READ_ONLY_COMMANDS} read the store "
        f"without waiting for it (lock file: {lock})"
    )
    assert caught.value.path == store
    assert lock.read_bytes() == b"4242\nbox\n9:00\n"  # the holder's text is left alone


def test_the_read_only_commands_are_named() -> None:
    assert READ_ONLY_COMMANDS == (
        "`quizzer stats`, `quizzer leeches`, `quizzer settings` (without --set/--reset), "
        "`quizzer log export`, `quizzer export anki --with-progress` and `quizzer doctor --check`"
    )


def test_a_lock_is_created_in_a_new_folder_readable_by_all(tmp_path: Path) -> None:
    lock = tmp_path / "new" / "p.json.lock"
    old = os.umask(0o022)
    try:
        StoreLock(lock, tmp_path / "new" / "p.json").release()
    finally:
        os.umask(old)
    assert lock.stat().st_mode & 0o777 == 0o644


def test_a_journal_held_by_a_writer_refuses_the_lock(lock: Path, tmp_path: Path) -> None:
    journal = tmp_path / "p.json.journal"
    assert not journal_in_use(journal)  # no journal yet
    journal.write_bytes(b"")
    assert not journal_in_use(journal)
    with Held(journal):
        assert journal_in_use(journal)
        with pytest.raises(StoreError) as caught:
            StoreLock(lock, tmp_path / "p.json", journal)
        assert caught.value.message == "the progress store is in use by another process"
        # The lock it took for a moment is given back.
        assert active_holder(lock) is None
    assert not journal_in_use(journal)  # looking did not leave it locked
    StoreLock(lock, tmp_path / "p.json", journal).release()


def test_try_exclusive_takes_a_free_lock_only(lock: Path) -> None:
    lock.write_bytes(b"")
    fd = os.open(lock, os.O_RDONLY)
    try:
        with Held(lock):
            assert not try_exclusive(fd)
        assert try_exclusive(fd)
        assert not active_holder(lock)  # empty file: nobody, even while locked
    finally:
        os.close(fd)


def test_a_removed_or_replaced_lock_file_is_noticed_before_the_next_write(
    lock: Path, tmp_path: Path
) -> None:
    store = tmp_path / "p.json"
    held = StoreLock(lock, store)
    held.verify()
    lock.unlink()
    with pytest.raises(StoreError) as caught:
        held.verify()
    assert caught.value.message == (
        "the store's lock file was removed or replaced while this process wrote it"
    )
    assert caught.value.hint == (
        "close this quizzer and open it again (every answer so far is saved); "
        f"don't remove {lock} while quizzer runs"
    )
    assert caught.value.path == store
    lock.write_text("")  # same name, another file
    with pytest.raises(StoreError):
        held.verify()
    held.release()


def test_a_lock_two_folders_down_makes_both(tmp_path: Path) -> None:
    lock = tmp_path / "a" / "b" / "p.json.lock"
    StoreLock(lock, tmp_path / "a" / "b" / "p.json").release()
    assert lock.exists()


def test_lock_files_that_are_not_utf8_are_still_read(lock: Path, tmp_path: Path) -> None:
    with Held(lock, b"4242\nb\xffx\n9:00\n"), pytest.raises(StoreError) as caught:
        StoreLock(lock, tmp_path / "p.json")
    assert caught.value.message == (
        "the progress store is in use by process 4242 on b\ufffdx (since 9:00)"
    )
    lock.write_bytes(b"4242\nb\xffx\n9:00\n")  # its holder died
    held = StoreLock(lock, tmp_path / "p.json")
    assert held.taken_over == Holder(4242, "b\ufffdx", "9:00")
    held.release()


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True
    )
    return int(child.stdout)


def test_without_flock_the_file_itself_is_the_lock(
    lock: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where flock is missing (Windows), the lock file is created exclusively and a holder
    # whose process no longer runs counts as stale.
    from quizzer.progress import lock as lock_module

    monkeypatch.setattr(lock_module, "HAS_FLOCK", False)
    store = tmp_path / "p.json"
    old = os.umask(0o022)
    try:
        held = StoreLock(lock, store)
    finally:
        os.umask(old)
    assert lock.stat().st_mode & 0o777 == 0o644
    pid, host, _since, _ = lock.read_text().split("\n")
    assert (int(pid), host) == (os.getpid(), socket.gethostname())
    assert active_holder(lock) is not None and active_holder(lock).pid == os.getpid()  # type: ignore[union-attr]
    assert try_exclusive(0)  # nothing to lock with: always "taken"
    with pytest.raises(StoreError) as caught:
        StoreLock(lock, store)
    assert caught.value.message.startswith(f"the progress store is in use by process {os.getpid()}")
    held.release()
    assert not lock.exists()  # released: the file is gone
    dead = _dead_pid()
    lock.write_bytes(b"%d\nbox\n9:00\n" % dead)
    assert active_holder(lock) is None  # its holder is gone
    lock.write_bytes(b"x\nb\xffx\n9:00\n")  # no pid at all
    assert active_holder(lock) is None
    lock.write_bytes(b"%d\nb\xffx\n9:00\n" % dead)
    taken = StoreLock(lock, store)
    assert taken.taken_over == Holder(dead, "b\ufffdx", "9:00")
    assert lock.read_text().startswith(f"{os.getpid()}\n")
    taken.release()
    assert not lock.exists()
    lock.write_bytes(b"")  # an empty lock file: no holder, taken over
    StoreLock(lock, store).release()


def test_without_flock_a_stale_lock_that_cannot_be_removed_is_refused(
    lock: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.progress import lock as lock_module

    monkeypatch.setattr(lock_module, "HAS_FLOCK", False)
    lock.write_bytes(b"%d\nbox\n9:00\n" % _dead_pid())
    monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: None)
    # Tried twice, then given up: never a loop, never a second writer.
    with pytest.raises(StoreError) as caught:
        StoreLock(lock, tmp_path / "p.json")
    assert caught.value.message == "the progress store is in use by another process"


def test_without_flock_a_holder_we_may_not_signal_still_counts_as_running(
    lock: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizzer.progress import lock as lock_module

    monkeypatch.setattr(lock_module, "HAS_FLOCK", False)

    def not_ours(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    lock.write_bytes(b"4242\nbox\n9:00\n")
    monkeypatch.setattr(os, "kill", not_ours)
    # Another user's process: it may well be a writer, so the lock is not stale.
    assert active_holder(lock) == Holder(4242, "box", "9:00")
