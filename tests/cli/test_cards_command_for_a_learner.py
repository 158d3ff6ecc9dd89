"""`quizzer cards` as a new learner reads it: in a 60-column terminal every line fits and
breaks between words, a card found by a text it doesn't show (its Arabic, while it asks
English → Bangla) says where, with that text on its own line, joined and ordered for a
terminal without bidi; a few cards found show their answers; and a mistyped card id to
suspend is refused (exit 2) before anything is written, the good ids with it (the real
command in-process, a real store on disk)."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from quizzer.ui.textshape import cells, display_text

LORA = CardKey("training-efficiency/lora", Pair("en", "term", "bn", "term"))
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    with open_store(path, rng=random.Random(1)) as store:
        grades: tuple[Grade, ...] = (1, 3, 3, 3, 4, 3, 3)
        for i, grade in enumerate(grades):
            store.record(LORA, grade, T0 + timedelta(days=i), Answer(duration_ms=2000 + i))
    return path


def test_in_a_60_column_terminal(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # Rich prints as to a terminal
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("TMUX", "/tmp/tmux-test")  # a terminal without bidi: joined here
    argv = ["cards", "training-efficiency", "--search", "لورا", "--db", str(db)]
    assert main(argv) == 0
    out = ANSI.sub("", capsys.readouterr().out)
    lines = out.splitlines()
    assert all(cells(line) <= 60 for line in lines), out
    assert lines[0] == f"{LORA.id}  due"  # answered in March, due since
    at = lines.index("  found in Arabic term:")
    # Prompt → answer, wrapped (if at all) between words, never inside one.
    words = " ".join(line.strip() for line in lines[1:at])
    assert words == "Low-Rank Adaptation (LoRA) → লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)"
    assert lines[at + 1] == "  " + display_text("لورا (التكييف منخفض الرتبة)")
    assert "  2 earlier answers, then:" in lines
    answers = [line for line in lines if line.startswith("  2026-03-")]
    assert len(answers) == 5 and answers[-1].split()[2] == "Good"


def test_piped_each_text_on_one_line_in_logical_order(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "--search", "لورا", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "  found in Arabic term:\n  لورا (التكييف منخفض الرتبة)\n" in out
    assert "  Low-Rank Adaptation (LoRA) → লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)\n" in out


def test_a_mistyped_card_id_changes_nothing(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = "training-efficiency/lroa|en:term>bn:term"
    argv = ["cards", "--suspend", LORA.id, "--suspend", typo, "--db", str(db)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"no card '{typo}'" in err and "hint: `quizzer cards --search TEXT`" in err
    with open_store(db, read_only=True) as store:
        state = store.card(LORA)
        assert state is not None and not state.suspended
        assert store.card(typo) is None
