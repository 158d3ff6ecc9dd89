"""`quizzer stats` after `quizzer merge` of Anki's own export: Anki's answers counted with
quizzer's, and the report says where the answers came from.

A real store on disk answered in four quiz modes, exported with progress, imported into
Anki's own engine with scheduling, answered there, exported by Anki and merged back.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from anki.collection import Collection

from quizzer.anki import export_apkg
from quizzer.anki.model import directions_for
from quizzer.cards.card import CardKey
from quizzer.cli.main import main
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from tests.anki_support import export_with_scheduling, import_package
from tests.factories import ru_bn_deck

DIRECTIONS = directions_for(("meaning",), [("ru", "bn")])
#: (concept, days ago, mode, grade) answered in quizzer; the 40-day-old one is outside 30 days.
HERE = [
    (0, 40, "flip", 3),
    (0, 5, "flip", 3),
    (1, 5, "choice", 1),
    (1, 3, "choice", 3),
    (2, 3, "typed", 3),
    (3, 2, "learn", 3),
    (0, 2, "flip", 4),
]
ANKI_ANSWERS = 5


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store after the Anki package with ``ANKI_ANSWERS`` new answers was merged."""
    tmp = tmp_path_factory.mktemp("sources")
    db = tmp / "store" / "progress.json"
    db.parent.mkdir()
    deck = ru_bn_deck("demo", 8)
    now = datetime.now(UTC)
    with open_store(db) as store:
        for concept, days_ago, mode, grade in sorted(HERE, key=lambda h: -h[1]):
            key = CardKey(deck.concepts[concept].uid, DIRECTIONS[0].pair)
            at = now - timedelta(days=days_ago)
            store.record(key, grade, at, Answer(mode=mode, duration_ms=1500))  # type: ignore[arg-type]
        states = {c.card_id: c for c in store.cards()}
        reviews = store.reviews()
    out = tmp / "quizzer.apkg"
    export_apkg(
        [deck],
        out,
        directions=DIRECTIONS,
        progress=states,
        reviews=reviews,
        timestamp=now.timestamp() - 120,
    )
    (tmp / "anki").mkdir()
    col = Collection(str(tmp / "anki" / "collection.anki2"))
    try:
        import_package(col, out, scheduling=True)
        deck_id = col.decks.id_for_name("AI Glossary")
        assert deck_id is not None and col.db is not None
        col.decks.select(deck_id)
        before = col.db.scalar("select count() from revlog")
        for _ in range(ANKI_ANSWERS):
            card = col.sched.getCard()
            assert card is not None
            col.sched.answerCard(card, 3)
        assert col.db.scalar("select count() from revlog") == before + ANKI_ANSWERS
        apkg = export_with_scheduling(col, tmp / "anki.apkg")
    finally:
        col.close()
    assert main(["merge", str(apkg), "--db", str(db)]) == 0
    return db


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decks = tmp_path / "decks"
    write_deck(ru_bn_deck("demo", 8), decks / "demo.toml")
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))


def test_stats_json_counts_anki_answers_and_says_where_answers_came_from(
    merged: Path, library: None, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    with open_store(merged, read_only=True) as store:
        modes = Counter(r.mode for r in store.reviews())
    assert modes == Counter({"flip": 3, "choice": 2, "typed": 1, "learn": 1, "anki": ANKI_ANSWERS})
    assert main(["stats", "--db", str(merged), "--json", "--deck", "demo"]) == 0
    data = json.loads(capsys.readouterr().out)
    total = len(HERE) + ANKI_ANSWERS
    assert data["totals"]["reviews"] == total
    # Anki's answers were given now, quizzer's days ago: today is Anki's alone.
    assert data["today"]["reviews"] == ANKI_ANSWERS
    assert data["streak"]["studied_today"] is True
    assert sum(d["reviews"] for d in data["reviews_per_day"]) == total
    assert sum(s["reviews"] for s in data["languages"]) == total
    sources = data["sources"]
    assert sources["total"] == total and sources["recent_total"] == total - 1
    by = sources["by_source"]
    assert {mode: s["answers"] for mode, s in by.items()} == {
        "flip": 3,
        "choice": 2,
        "typed": 1,
        "learn": 1,
        "anki": ANKI_ANSWERS,
    }
    assert by["flip"]["recent_answers"] == 2  # the 40-day-old answer is all time only
    assert by["anki"]["share"] == pytest.approx(ANKI_ANSWERS / total)
    assert by["anki"]["correct_rate"] == 1.0 and by["choice"]["correct_rate"] == 0.5


def test_stats_report_shows_the_sources_at_60_columns(
    merged: Path, library: None, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    capsys.readouterr()
    assert main(["stats", "--db", str(merged), "--deck", "demo"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 60
    start = next(i for i, line in enumerate(lines) if "Where answers came from" in line)
    table = lines[start:]
    rows = {line.split("│")[1].strip(): line.split("│")[2:-1] for line in table if "│" in line}
    assert list(rows) == ["Flip", "Multiple choice", "Typed", "Learn", "In quizzer", "Anki", "All"]
    total = len(HERE) + ANKI_ANSWERS
    assert [cell.strip() for cell in rows["Anki"]] == [
        str(ANKI_ANSWERS),
        f"{ANKI_ANSWERS / total:.1%}",
        str(ANKI_ANSWERS),
        "100.0%",
    ]
    assert [cell.strip() for cell in rows["In quizzer"]][:2] == [str(len(HERE)), f"{7 / 12:.1%}"]
    assert [cell.strip() for cell in rows["All"]][:3] == [str(total), "100.0%", str(total - 1)]
    assert any("quizzer merge" in line for line in table)
