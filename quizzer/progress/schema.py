"""The schema version of a progress store's snapshot, recognised from the document itself.

Apart from :mod:`quizzer.progress.migrate` (the migrations between versions, and what
they need) so that opening a store of the current schema, which only checks the version,
doesn't import them.
"""

from __future__ import annotations

from typing import Any

from quizzer.progress.values import shown_value

#: The snapshot layout this code writes (see :mod:`quizzer.progress.migrate` for older ones).
SCHEMA_VERSION = 4


#: The tables of a schema-1 store (TinyDB's ``_default`` when it was empty).
_V1_TABLES = frozenset({"cards", "reviews", "settings", "_default"})


def _is_v1(doc: dict[str, Any]) -> bool:
    """The positive signature of schema 1: only its tables, each a table of records it wrote."""
    if not doc or not set(doc) <= _V1_TABLES or not set(doc) & {"cards", "reviews"}:
        return False
    tables = doc.values()
    if not all(
        isinstance(t, dict) and all(isinstance(r, dict) for r in t.values()) for t in tables
    ):
        return False
    cards_ok = all(isinstance(r.get("card_id"), str) for r in doc.get("cards", {}).values())
    reviews_ok = all("id" in r and "reviewed_at" in r for r in doc.get("reviews", {}).values())
    return cards_ok and reviews_ok


def schema_of(doc: dict[str, Any]) -> int:
    """The schema version of a snapshot document, recognised by each version's own signature.

    Schema 1 had no ``meta`` table (only ``cards``, ``reviews``, ``settings``);
    schema 2 has ``meta.schema`` 2 and a ``journal_offset``; 3 and later say so.
    ``ValueError`` for anything else (wrong-layout JSON, ``meta.schema`` 0): damage,
    never an old store to migrate.
    """
    if "meta" not in doc:
        if _is_v1(doc):
            return 1
        raise ValueError(f"not a layout any quizzer wrote (tables {shown_value(sorted(doc), 60)})")
    table = doc["meta"]
    if not isinstance(table, dict):
        raise ValueError(f'table "meta" is not a table: {shown_value(table)}')
    meta = table.get("1")
    if not isinstance(meta, dict):
        raise ValueError(f"meta record is not an object: {shown_value(meta)}")
    schema = meta.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise ValueError(f"meta.schema is not a number: {shown_value(schema)}")
    if not (schema >= 3 or (schema == 2 and "journal_offset" in meta)):
        raise ValueError(f"meta.schema {schema} is no version quizzer wrote")
    # Part of every version's signature: each wrote these as whole numbers, and every
    # reader of an old store (the migration, the doctor's manifest) counts on it.
    for name in ("gen", "journal_offset", "seq"):
        got = meta.get(name, 0)
        if isinstance(got, bool) or not isinstance(got, int) or got < 0:
            raise ValueError(f"meta.{name} is not a whole number of 0 or more: {shown_value(got)}")
    return schema
