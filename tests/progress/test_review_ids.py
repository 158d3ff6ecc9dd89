"""Review ids are unique even for answers to one card in the same millisecond.

An id is the answer's time and card plus a random salt, so that two processes answering a
card at the same moment (a merge of their logs) never give two answers one id.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.progress import store_builder
from tests.progress.conftest import OpenDb

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def test_answers_to_one_card_at_one_instant_get_distinct_ids_and_all_are_logged(
    tmp_path: Path, open_db: OpenDb
) -> None:
    key = store_builder.card(1)
    with open_db(tmp_path / "p.json") as store:
        ids = [store.record(key, 3, NOW).id for _ in range(200)]
    assert len(set(ids)) == 200
    with open_db(tmp_path / "p.json", read_only=True) as store:
        assert sorted(r.id for r in store.reviews()) == sorted(ids)
