"""The store's in-memory image (``progress.state``) event by event, and a snapshot's layout checks.

The store
tests fold events through whole stores; here each event's effect on the card states,
the undo stack (exactly 50 deep) and the recent answers, the compact journal form of a
state, and each layout problem of a snapshot (with the message the doctor prints) are
held on their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from quizzer.errors import StoreError
from quizzer.progress.journal_events import SlimCard, as_event, card_data, review_data
from quizzer.progress.state import (
    UNDO_DEPTH,
    State,
    buried_state,
    document_problem,
    full_state,
    invalid_cards,
    slim_state,
)
from quizzer.scheduling.settings import SchedulerSettings
from tests.progress import store_builder as sb

CARD = sb.card(1).id
AT = "2026-09-01T09:00:00+00:00"
DUE = "2026-09-01T09:10:00+00:00"


def review(rid: str = "r1", at: str = AT, card_id: str = CARD, **more: Any) -> dict[str, Any]:
    data = {
        "id": rid,
        "card_id": card_id,
        "reviewed_at": at,
        "grade": 3,
        "mode": "flip",
        "duration_ms": 0,
        "phase": "new",
        "due": DUE,
        "stability": 2.3,
        "difficulty": 5.1,
    }
    data.update(more)
    return data


def state(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "card_id": CARD,
        "state": 1,
        "step": 1,
        "stability": 2.3,
        "difficulty": 5.1,
        "due": DUE,
        "last_review": AT,
        "reps": 1,
        "lapses": 0,
        "leech": False,
        "flagged": False,
        "suspended": False,
        "buried_until": None,
        "first_review": AT,
    }
    data.update(changes)
    return data


def record(rid: str = "r1", at: str = AT, card_id: str = CARD, **slim: Any) -> dict[str, Any]:
    return {"op": "record", "review": review(rid, at, card_id), "card": {"state": 1, **slim}}


BURY = {"id": "b1", "card_id": CARD, "at": AT, "until": "2026-09-02T04:00:00+00:00"}


def test_a_slim_state_drops_what_the_review_says_and_unset_flags() -> None:
    full = state(step=None, reps=3, lapses=1, leech=True, suspended=False)
    assert slim_state(full) == {"state": 1, "step": None, "reps": 3, "lapses": 1, "leech": True}
    buried = state(buried_until="2026-09-02T04:00:00+00:00", flagged=True)
    assert slim_state(buried) == {
        "state": 1,
        "step": 1,
        "reps": 1,
        "lapses": 0,
        "flagged": True,
        "buried_until": "2026-09-02T04:00:00+00:00",
    }


def test_a_full_state_is_the_slim_one_with_the_review_and_the_first_answer() -> None:
    got = full_state({"state": 2}, review(), None)  # type: ignore[arg-type]
    assert got == state(state=2, step=None, reps=1)
    before = state(first_review="2026-08-01T09:00:00+00:00")
    slim = {"state": 2, "step": 0, "reps": 4, "lapses": 2, "leech": True, "flagged": True}
    got = full_state(slim, review(), before)  # type: ignore[arg-type]
    assert got == state(
        state=2,
        step=0,
        reps=4,
        lapses=2,
        leech=True,
        flagged=True,
        first_review="2026-08-01T09:00:00+00:00",
    )
    # A state from before first_review was kept: the answer's time stands in.
    slim_old: SlimCard = {"state": 2, "suspended": True}
    got = full_state(slim_old, review_data(review()), card_data(state(first_review=None)))
    assert got["first_review"] == AT and got["suspended"] is True
    for slim_state_round_trip in (state(), state(leech=True, buried_until=DUE)):
        kept = slim_state(slim_state_round_trip)
        assert full_state(kept, review_data(review()), card_data(state())) == slim_state_round_trip


def test_a_bury_of_a_new_card_makes_a_new_card_state_and_leaves_a_studied_one_alone() -> None:
    new = buried_state(None, BURY)  # type: ignore[arg-type]
    assert new["reps"] == 0 and new["due"] == AT and new["buried_until"] == BURY["until"]
    before = state()
    got = buried_state(before, BURY)  # type: ignore[arg-type]
    assert got == state(buried_until=BURY["until"])
    assert before["buried_until"] is None  # a copy: the undo stack keeps the state before


def test_record_then_undo_restores_the_state_and_the_stacks() -> None:
    st = State()
    st.apply(record("r1", seq=3) | {"seq": 3})  # type: ignore[arg-type]
    assert st.seq == 3
    assert st.raw[CARD] == full_state({"state": 1}, review(), None)  # type: ignore[arg-type]
    assert st.undo == [{"review_id": "r1", "card_id": CARD, "before": None, "review": review()}]
    assert st.recent == [["r1", CARD, AT, "new"]]
    after_first = dict(st.raw[CARD])
    st.apply(record("r2", "2026-09-01T09:10:00+00:00") | {"seq": 2})  # type: ignore[arg-type]
    assert st.seq == 3  # the highest seen
    assert st.undo[-1]["before"] == after_first
    st.apply({"op": "undo", "review_id": "r2", "card_id": CARD, "restore": after_first})
    assert st.raw[CARD] == after_first
    assert [e["review_id"] for e in st.undo] == ["r1"]  # type: ignore[typeddict-item]
    assert [r[0] for r in st.recent] == ["r1"]
    # An undo whose answer is not on top of the stack leaves the stack alone.
    st.apply({"op": "undo", "review_id": "r9", "card_id": CARD, "restore": after_first})
    assert len(st.undo) == 1 and len(st.recent) == 1
    st.apply({"op": "undo", "review_id": "r1", "card_id": CARD, "restore": None})
    assert st.undo == [] and st.recent == [] and CARD not in st.raw
    assert st.get(CARD) is None


def test_the_undo_stack_keeps_the_last_50_changes() -> None:
    assert UNDO_DEPTH == 50
    st = State()
    for i in range(51):
        st.apply(record(f"r{i}"))  # type: ignore[arg-type]
    assert [e["review_id"] for e in st.undo] == [f"r{i}" for i in range(1, 51)]  # type: ignore[typeddict-item]
    st.apply({"op": "bury", "bury": BURY})  # type: ignore[typeddict-item]
    assert len(st.undo) == 50 and st.undo[-1]["bury_id"] == "b1"  # type: ignore[typeddict-item]
    assert st.undo[0]["review_id"] == "r2"  # type: ignore[typeddict-item]
    assert len(st.recent) == 51  # recent answers are kept by time, not by count


def test_bury_then_unbury() -> None:
    st = State()
    st.apply(record())  # type: ignore[arg-type]
    before = dict(st.raw[CARD])
    st.apply({"op": "bury", "bury": BURY})  # type: ignore[typeddict-item]
    assert st.raw[CARD] == {**before, "buried_until": BURY["until"]}
    assert st.undo[-1] == {"bury_id": "b1", "card_id": CARD, "before": before, "bury": BURY}
    st.apply({"op": "unbury", "bury_id": "b9", "card_id": CARD, "restore": before})  # type: ignore[typeddict-item]
    assert len(st.undo) == 2  # not the top one: the stack stays
    st.apply({"op": "unbury", "bury_id": "b1", "card_id": CARD, "restore": before})  # type: ignore[typeddict-item]
    assert st.raw[CARD] == before and len(st.undo) == 1
    assert st.get(CARD) is not None and st.get(CARD).buried_until is None  # type: ignore[union-attr]


def _flags_before(entry: Any) -> tuple[Any, Any]:
    """An undo entry's kept suspension and leech flags (read anew at each call)."""
    return entry["before"]["suspended"], entry["before"]["leech"]


def test_a_suspension_survives_undoing_the_answers_before_it() -> None:
    other = sb.card(2).id
    st = State()
    st.apply(record("r1"))  # type: ignore[arg-type]
    st.apply(record("r2", card_id=other))  # type: ignore[arg-type]
    st.apply(record("r3"))  # type: ignore[arg-type]
    suspended = {**st.raw[CARD], "suspended": True, "leech": True}
    st.apply({"op": "state", "card_id": CARD, "state": suspended})  # type: ignore[typeddict-item]
    assert st.raw[CARD] == suspended
    first, second, third = st.undo
    assert first["before"] is not None and first["before"]["suspended"] is True
    assert first["before"]["leech"] is True and first["before"]["reps"] == 0
    assert first["before"]["due"] == DUE
    assert third["before"]["suspended"] is True  # type: ignore[index]
    assert third["before"]["reps"] == 1  # type: ignore[index]  # the state after r1, flags added
    assert second["before"] is None  # another card: untouched
    # A state written without the flags (an older quizzer) means neither is set.
    bare = {k: v for k, v in suspended.items() if k not in ("suspended", "leech")}
    st.apply(as_event({"op": "state", "card_id": CARD, "state": bare}))
    assert _flags_before(third) == (False, False)
    st.apply({"op": "state", "card_id": CARD, "state": suspended})
    resumed = card_data({**suspended, "suspended": False, "leech": False})
    st.apply({"op": "state", "card_id": CARD, "state": resumed})
    assert _flags_before(third) == (False, False)


def test_settings_history_and_unknown_events() -> None:
    st = State()
    st.apply({"op": "settings", "settings": {"new_per_day": 7}})
    assert st.settings == SchedulerSettings(new_per_day=7)
    st.apply(as_event({"op": "review", "review": review()}))
    st.apply({"op": "header", "gen": 3})
    assert st.raw == {} and st.undo == [] and st.gen == 0
    with pytest.raises(ValueError) as caught:
        st.apply(as_event({"op": "nonsense"}))
    assert str(caught.value) == 'unknown journal event "nonsense"'
    with pytest.raises(ValueError) as caught:
        st.apply(as_event({"seq": 4}))
    assert str(caught.value) == "a journal event without an op"


def test_a_damaged_card_state_is_named_when_it_is_first_used(tmp_path: Path) -> None:
    st = State()
    st.raw[CARD] = state(due=5)  # type: ignore[assignment]
    with pytest.raises(StoreError) as caught:
        st.get(CARD)
    assert caught.value.message == (
        f"progress store is damaged (the state of card {CARD} is invalid: due is not a time: 5)"
    )
    assert caught.value.path is None  # no file to name
    assert (
        caught.value.hint
        == "run `quizzer doctor --db the progress store` to restore it from the backup"
    )
    st.source = tmp_path / "p.json"
    with pytest.raises(StoreError) as caught:
        st.get(CARD)
    assert (
        caught.value.hint == f"run `quizzer doctor --db {st.source}` to restore it from the backup"
    )
    assert caught.value.path == st.source
    st.put(CARD, state())  # type: ignore[arg-type]
    got = st.get(CARD)
    assert got is not None and got is st.get(CARD)  # built once, then kept


def test_a_document_keeps_three_days_of_recent_answers_and_sorted_months() -> None:
    st = State()
    st.gen, st.seq, st.created = 3, 9, "2026-01-01T00:00:00+00:00"
    st.recent = [
        ["r0", CARD, "2026-08-29T08:59:59+00:00", "new"],  # just over three days before
        ["r1", CARD, "2026-08-29T09:00:00+00:00", "new"],  # exactly three days
        ["r2", CARD, AT, "review"],
    ]
    st.months = {"2026-09": [1, 3], "2026-07": [2, 1]}
    st.put(CARD, state())  # type: ignore[arg-type]
    st.put("broken", state(card_id="broken"))  # type: ignore[arg-type]
    doc = st.to_document(120)
    meta = doc["meta"]["1"]
    assert meta == {
        "schema": 4,
        "gen": 3,
        "journal_offset": 120,
        "seq": 9,
        "created": "2026-01-01T00:00:00+00:00",
        "undo": [],
        "recent": st.recent,
        "months": {"2026-07": [2, 1], "2026-09": [1, 3]},
    }
    assert list(meta["months"]) == ["2026-07", "2026-09"]
    assert [r[0] for r in meta["recent"]] == ["r1", "r2"]
    assert set(doc["cards"]) == {str(sb.card(1).int_id), "invalid:broken"}
    assert doc["settings"] == {"1": SchedulerSettings().to_dict()}
    again = State.from_document(doc)
    assert (again.gen, again.seq, again.created, again.months) == (3, 9, st.created, st.months)
    assert again.recent == st.recent and again.raw[CARD] == state()
    st.months = None
    assert "months" not in st.to_document(0)["meta"]["1"]


def test_a_document_from_before_manifests_has_no_months(tmp_path: Path) -> None:
    st = State.from_document({"meta": {"1": {"gen": 2}}, "settings": {"1": {}}, "cards": {}})
    assert st.months is None and st.gen == 2 and st.settings == SchedulerSettings()
    bare = State.from_document({}, tmp_path / "p.json")
    assert (bare.gen, bare.seq, bare.created, bare.source) == (0, 0, None, tmp_path / "p.json")
    fresh = State()
    assert (fresh.gen, fresh.seq, fresh.created, fresh.source) == (0, 0, None, None)
    with pytest.raises(ValueError, match=r"^meta.gen is not a whole number"):
        State.from_document({"meta": {"1": {"gen": -1}}})


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        ([], "not a TinyDB document"),
        ({"meta": []}, 'table "meta" is not a table: []'),
        ({"settings": 5}, 'table "settings" is not a table: 5'),
        ({"cards": "x"}, 'table "cards" is not a table: "x"'),
        ({"meta": {"1": []}}, "the meta record is not an object"),
        ({"meta": {"1": {"schema": -1}}}, "meta.schema is not a whole number of 0 or more: -1"),
        ({"meta": {"1": {"gen": True}}}, "meta.gen is not a whole number of 0 or more: true"),
        (
            {"meta": {"1": {"journal_offset": 1.5}}},
            "meta.journal_offset is not a whole number of 0 or more: 1.5",
        ),
        ({"meta": {"1": {"seq": "1"}}}, 'meta.seq is not a whole number of 0 or more: "1"'),
        ({"meta": {"1": {"undo": {}}}}, "meta.undo is not a list of records"),
        ({"meta": {"1": {"recent": {}}}}, "meta.recent is not a list of answers"),
        (
            {"meta": {"1": {"undo": [5]}}},
            "meta.undo[0]: an undo entry is invalid: it is 5, not an object",
        ),
        (
            {"meta": {"1": {"recent": [["r", CARD, AT, "new"], 5]}}},
            "meta.recent[1]: a recent answer is invalid: it is 5, not [answer id, card id, time, "
            "phase]",
        ),
        ({"meta": {"1": {"months": []}}}, "meta.months is not a table: []"),
        (
            {"settings": {"1": {"new_per_day": -1}}},
            "the scheduler settings are invalid (new_per_day must be at least 0, got -1)",
        ),
        (
            {"settings": {"1": 5}},
            "the scheduler settings are invalid (it is 5, not an object)",
        ),
        ({"cards": {"1": 5}}, 'card record "1" has no card id'),
        ({"cards": {"7": {"card_id": 5}}}, 'card record "7" has no card id'),
    ],
)
def test_a_bad_snapshot_layout_says_what_is_wrong(doc: Any, problem: str) -> None:
    assert document_problem(doc) == problem


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"meta": {"1": {"schema": 4, "gen": 0, "journal_offset": 0, "seq": 0, "months": {}}}},
        {"meta": {}, "settings": {"1": {}}, "cards": {"1": {"card_id": "damaged later"}}},
    ],
)
def test_a_good_snapshot_layout(doc: Any) -> None:
    assert document_problem(doc) is None


def test_invalid_cards_names_each_bad_record_by_its_key() -> None:
    doc = {"cards": {"1": state(), "2": state(due=5), "3": state(reps=-1)}}
    bad = invalid_cards(doc)
    assert [key for key, _ in bad] == ["2", "3"]
    assert bad[1][1].endswith(" is invalid: reps is -1, less than 0")
    assert invalid_cards({}) == []


def test_a_new_store_numbers_its_events_from_1_and_notes_when_it_was_created(
    tmp_path: Path,
) -> None:
    import json
    from datetime import datetime

    from quizzer.progress.files import journal_path

    db = tmp_path / "p.json"
    with sb.open_db(db) as store:
        store.record(sb.card(1), 3, sb.LATER)
        store.record(sb.card(2), 3, sb.LATER)
        lines = journal_path(db).read_bytes().splitlines()
        assert [json.loads(line[9:])["seq"] for line in lines[1:]] == [1, 2]
    created = json.loads(db.read_bytes())["meta"]["1"]["created"]
    assert datetime.fromisoformat(created).utcoffset() is not None
