"""The fast constructors of frozen records (quizzer.concepts.records): what they build is
the object the class builds — its type, equal, same hash and repr, frozen — and a class
they can't build faithfully is refused."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.records import builder
from quizzer.glossary.alignment_report import ConceptReport, Match
from quizzer.glossary.entries import SourceEntry
from quizzer.glossary.parse import GlossaryEntry


def test_a_built_record_is_the_record_the_class_builds() -> None:
    made = Text("লোরা", Provenance("seed", "g.txt", 3))
    built = builder(Text)("লোরা", builder(Provenance)("seed", "g.txt", 3, None, None))
    assert type(built) is Text and type(built.source) is Provenance
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    assert pickle.loads(pickle.dumps(built)) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.text = "x"  # type: ignore[misc]
    assert dataclasses.replace(built, text="x") == Text("x", made.source)


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (Entry, (Text("a", Provenance("authored")), Text("b", Provenance("authored")))),
        (Concept, ("c", "d", "C", {})),
        (GlossaryEntry, (0, "term", "definition", 3, 4)),
        (Match, (None, "new", 1.0)),
        (ConceptReport, ("c", "new", (), ())),
    ],
)
def test_every_record_an_import_builds_fast_is_built_alike(cls: type, values: tuple) -> None:
    built, made = builder(cls)(*values), cls(*values)
    assert type(built) is cls and built == made and repr(built) == repr(made)


def test_a_class_it_cannot_build_faithfully_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        x: int

    with pytest.raises(TypeError, match="SourceEntry"):
        builder(SourceEntry)  # its __post_init__ sets the acronym
    with pytest.raises(TypeError, match="Unslotted"):
        builder(Unslotted)
    with pytest.raises(TypeError, match="str"):
        builder(str)
