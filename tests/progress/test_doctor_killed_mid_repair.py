"""`quizzer doctor` killed mid-repair: what it left is said to be an interrupted repair, and
running the doctor again restores everything.

A repair takes several steps (the damaged snapshot moved aside, a month file restored from
its mirror, a new snapshot, the card states and the statistics cache rebuilt); a kill in
between can leave the files in a state that is neither the damage nor the repair. The
doctor keeps a marker while it works: until it is done, opening the store is refused and
every message says that rerunning the repair is safe. Here a real ``quizzer doctor``
process is killed with SIGKILL at random points, half of them once its marker is there.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quizzer.cli.main import main
from quizzer.progress import reviewlog
from quizzer.progress.files import RERUN, repair_marker_path
from tests.progress import store_builder as sb

KILLS = 20
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A store whose snapshot and one month file are cut short (their backups are whole)."""
    db = tmp_path_factory.mktemp("built") / "p.json"
    ids = sb.build(db)
    db.write_bytes(db.read_bytes()[:200])
    month = reviewlog.month_path(db, "2026-08")
    month.write_bytes(month.read_bytes()[:50])
    return db, ids


def _doctor(db: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "quizzer", "doctor", "--db", str(db)]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _run(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str]:
    code = main(list(words))
    out = capsys.readouterr()
    assert "Traceback" not in out.err, out.err
    return code, out.out + out.err


def test_a_doctor_killed_anywhere_is_finished_by_the_next(
    built: tuple[Path, list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    damaged, ids = built
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "decks"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QUIZZER_DECKS": str(tmp_path / "decks")}
    rng = random.Random(25)
    started = time.monotonic()
    whole = _doctor(_copy(damaged, tmp_path / "timing"), env)
    whole.communicate()
    span = time.monotonic() - started  # how long one repair takes here, start-up included
    interrupted = 0
    for kill in range(KILLS):
        db = _copy(damaged, tmp_path / f"kill{kill}")
        marker = repair_marker_path(db)
        process = _doctor(db, env)
        if kill % 2:  # once the repair has begun changing files
            deadline = time.monotonic() + 5
            while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.05))
        else:
            time.sleep(rng.uniform(0, span))
        process.send_signal(signal.SIGKILL)
        process.communicate()
        code, text = _run(capsys, "doctor", "--check", "--db", str(db))
        if marker.exists():
            interrupted += 1
            assert code == 3 and RERUN in text, text
            code, text = _run(capsys, "log", "export", "--csv", "-", "--db", str(db))
            assert code == 3 and "was interrupted" in text and RERUN in text, text
        code, text = _run(capsys, "doctor", "--db", str(db))
        assert code == 0, (kill, text)
        assert not marker.exists()
        assert _run(capsys, "doctor", "--check", "--db", str(db))[0] == 0
        with sb.open_db(db, read_only=True) as store:
            assert [r.id for r in store.reviews()] == ids, kill
    assert interrupted >= KILLS // 4  # the kills did land mid-repair


def _copy(db: Path, to: Path) -> Path:
    shutil.copytree(db.parent, to)
    return to / db.name
