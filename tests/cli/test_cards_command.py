"""`quizzer cards DECK --search TEXT --json`: a card found by its Bengali, Arabic or Russian
text (compared as answers are: case, marks and spacing aside), with its answers (time, grade,
mode, device, duration); the status filter; suspend and unsuspend; bad input exits 2."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer

LORA = CardKey("training-efficiency/lora", Pair("en", "term", "bn", "term"))
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    with open_store(path, rng=random.Random(1)) as store:
        store.record(LORA, 1, T0, Answer(duration_ms=4200))
        store.record(LORA, 3, T0 + timedelta(minutes=2), Answer(duration_ms=2500))
    return path


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(["cards", *argv]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text",
    [
        "লোরা",  # Bengali
        "لورا",  # Arabic
        "адаптация НИЗКОГО ранга",  # Russian, another case
        "low rank adaptation",  # English without its hyphen
    ],
)
def test_a_card_is_found_by_any_language_with_its_history(
    db: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    found = _json(capsys, "training-efficiency", "--search", text, "--json", "--db", str(db))
    cards = {card["card"]: card for card in found["cards"]}
    assert LORA.id in cards
    card = cards[LORA.id]
    assert card["status"] == "learning"
    assert card["texts"]["bn"]["term"] == "লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)"
    history = card["history"]
    assert [a["grade"] for a in history] == [1, 3]
    assert [a["duration_ms"] for a in history] == [4200, 2500]
    assert history[0]["at"] == T0.isoformat()
    assert all(a["mode"] == "flip" and a["device"] for a in history)


def test_a_search_finds_only_the_concepts_holding_it(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = _json(capsys, "--search", "لورا", "--json", "--db", str(db))
    assert {card["concept"] for card in found["cards"]} == {"lora"}
    # Never studied in another direction: the direction chosen last (the default) is listed
    # for the others, new.
    everything = _json(capsys, "training-efficiency", "--json", "--db", str(db))
    assert len(everything["cards"]) > 10
    assert {c["status"] for c in everything["cards"]} == {"new", "learning"}


def test_state_filter_and_suspending(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--suspend", LORA.id, "--db", str(db)]) == 0
    assert "suspended" in capsys.readouterr().out
    suspended = _json(capsys, "--state", "suspended", "--json", "--db", str(db))
    assert [c["card"] for c in suspended["cards"]] == [LORA.id]
    with open_store(db, read_only=True) as store:
        state = store.card(LORA)
        assert state is not None and state.suspended
    assert main(["cards", "--unsuspend", LORA.id, "--db", str(db)]) == 0
    capsys.readouterr()
    assert _json(capsys, "--state", "suspended", "--json", "--db", str(db))["cards"] == []


def test_text_output_shows_the_card_and_its_texts(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "--search", "lora", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert LORA.id in out and "Low-Rank Adaptation (LoRA)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--suspend", "not-a-card"], "not a card id"),
        (["--direction", "en>bn"], "is not a direction"),
        (["no-such-deck"], "no deck named"),
    ],
)
def test_bad_input_exits_2(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["cards", *argv, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_editing_a_bundled_text_keeps_it_beside_the_user_decks(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = tmp_path / "decks"
    common = ["--db", str(db), "--decks", str(decks)]
    argv = ["cards", "--edit", "training-efficiency/lora", "bn:term", "লোরা (নিম্ন-র‍্যাঙ্ক)"]
    assert main([*argv, *common]) == 0
    assert "overrides" in capsys.readouterr().out
    override = decks / "overrides" / "training-efficiency.json"
    assert override.is_file()
    # The bundled file is untouched; the deck as loaded has the new text, the old one as
    # its provenance, and the same concept id: the card's answers are still its own.
    found = _json(capsys, "--search", "নিম্ন", "--json", *common)
    (card,) = [c for c in found["cards"] if c["card"] == LORA.id]
    assert card["texts"]["bn"]["term"] == "লোরা (নিম্ন-র‍্যাঙ্ক)"
    assert [a["grade"] for a in card["history"]] == [1, 3]
    from quizzer.library.decks import find_deck

    deck = find_deck("training-efficiency", decks).deck
    lora = deck.get("lora")
    assert lora is not None
    source = lora.entries["bn"].term.source
    assert (source.kind, source.original) == ("corrected", "লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)")
    assert source.file is not None  # the glossary line it came from is kept


def test_editing_an_own_deck_rewrites_its_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from quizzer.concepts.deck import loads
    from quizzer.library.decks import write_deck
    from tests.factories import ru_bn_deck

    decks = tmp_path / "decks"
    decks.mkdir()
    write_deck(ru_bn_deck("mine", 2), decks / "mine.toml")
    common = ["--db", str(db), "--decks", str(decks)]
    assert main(["cards", "--edit", "mine/c1", "ru:definition", "новое определение", *common]) == 0
    capsys.readouterr()
    deck = loads((decks / "mine.toml").read_text(encoding="utf-8"))
    c1 = deck.get("c1")
    assert c1 is not None
    text = c1.entries["ru"].definition
    assert text.text == "новое определение"
    assert (text.source.kind, text.source.original) == ("corrected", "определение 1")
    assert not (decks / "overrides").exists()
    # Bad edits: exit 2, nothing written.
    before = (decks / "mine.toml").read_bytes()
    for bad in (
        ["mine/c9", "ru:term", "x"],
        ["mine/c1", "ar:term", "x"],
        ["mine/c1", "ru:term", " "],
    ):
        assert main(["cards", "--edit", *bad, *common]) == 2
    assert (decks / "mine.toml").read_bytes() == before
