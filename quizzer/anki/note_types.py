"""The note types of an Anki collection: fields, templates (which fields each card shows)
and whether a type is cloze, from either schema Anki writes.

* Schema 18 (``collection.anki21b``): tables ``notetypes`` (its ``config`` a protobuf
  ``Notetype.Config`` whose field 1 is the kind, 1 = cloze), ``fields`` and ``templates``
  (its ``config`` a protobuf ``Template.Config``: field 1 the question format, 2 the answer).
* Schema 11 (``collection.anki21``, ``collection.anki2``): the JSON in ``col.models``
  (``type`` 1 = cloze, ``flds``, ``tmpls`` with ``qfmt`` and ``afmt``).

The connection is the package reader's (read-only, with limits); this only queries it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from quizzer.decksources.anki_notes import NoteType, Template, is_cloze_template, template_of

#: ``Notetype.Config.kind`` of a cloze note type (schema 18), ``type`` in schema 11.
KIND_CLOZE = 1


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while pos < len(data):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
    raise ValueError("truncated varint")


def proto_fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of each varint and length-delimited field of a protobuf
    message (a note type's configuration, a package's ``meta``); fixed-width fields are
    skipped. Raises ``ValueError`` for bytes that are no protobuf message."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
            yield number, value
        elif wire == 2:
            length, pos = _varint(data, pos)
            if pos + length > len(data):
                raise ValueError("truncated field")
            yield number, data[pos : pos + length]
            pos += length
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        else:
            raise ValueError(f"unexpected wire type {wire}")


def _text(value: int | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def _schema18(conn: sqlite3.Connection) -> dict[int, NoteType]:
    fields: dict[int, list[tuple[int, str]]] = {}
    for ntid, ord_, name in conn.execute("SELECT ntid, ord, name FROM fields"):
        fields.setdefault(int(ntid), []).append((int(ord_), str(name)))
    templates: dict[int, list[Template]] = {}
    cloze_templates: set[int] = set()
    for ntid, ord_, name, config in conn.execute("SELECT ntid, ord, name, config FROM templates"):
        parts = dict(proto_fields(bytes(config or b"")))
        question, answer = _text(parts.get(1, b"")), _text(parts.get(2, b""))
        if is_cloze_template(question):
            cloze_templates.add(int(ntid))
        templates.setdefault(int(ntid), []).append(
            template_of(int(ord_), str(name), question, answer)
        )
    out: dict[int, NoteType] = {}
    for ntid, name, config in conn.execute("SELECT id, name, config FROM notetypes"):
        kind = dict(proto_fields(bytes(config or b""))).get(1, 0)
        out[int(ntid)] = NoteType(
            id=int(ntid),
            name=str(name),
            fields=tuple(name for _ord, name in sorted(fields.get(int(ntid), []))),
            templates=tuple(sorted(templates.get(int(ntid), []), key=lambda t: t.ord)),
            cloze=kind == KIND_CLOZE or int(ntid) in cloze_templates,
        )
    return out


def _schema11(conn: sqlite3.Connection) -> dict[int, NoteType]:
    (models_json,) = conn.execute("SELECT models FROM col").fetchone()
    models: dict[str, Any] = json.loads(models_json or "{}")
    out: dict[int, NoteType] = {}
    for mid, model in models.items():
        templates = tuple(
            template_of(int(t["ord"]), str(t["name"]), str(t["qfmt"]), str(t["afmt"]))
            for t in sorted(model.get("tmpls", []), key=lambda t: int(t["ord"]))
        )
        cloze = model.get("type") == KIND_CLOZE or any(
            is_cloze_template(str(t["qfmt"])) for t in model.get("tmpls", [])
        )
        fields = tuple(
            str(f["name"]) for f in sorted(model.get("flds", []), key=lambda f: int(f["ord"]))
        )
        out[int(mid)] = NoteType(int(mid), str(model.get("name", mid)), fields, templates, cloze)
    return out


def note_types(conn: sqlite3.Connection) -> dict[int, NoteType]:
    """Every note type of the collection, by id."""
    tables = dict(conn.execute("SELECT name, type FROM sqlite_master"))
    if all(tables.get(t) == "table" for t in ("notetypes", "fields", "templates")):
        return _schema18(conn)
    return _schema11(conn)
