"""The pure packages stay pure: no UI, storage or Anki libraries, no hidden clock or randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "quizzer"
#: The packages that hold the domain: glossary -> concepts -> cards -> study -> stats, and
#: decksources (Quizlet, CSV and Anki notes -> concepts).
PURE_PACKAGES = ("concepts", "glossary", "cards", "scheduling", "study", "stats", "decksources")
FORBIDDEN_IMPORTS = (
    "textual",
    "tinydb",
    "genanki",
    "anki",
    "quizzer.progress",
    "quizzer.library",
    "quizzer.services",
    "quizzer.ui",
    "quizzer.anki",
    "quizzer.cli",
    "quizzer.paths",
    "quizzer.fsutil",
    "rich",
)
CORE_FILES = sorted(
    [path for name in PURE_PACKAGES for path in (PACKAGE / name).rglob("*.py")]
    + [PACKAGE / "errors.py"],
    key=lambda path: path.relative_to(PACKAGE).as_posix(),
)


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_core_has_modules() -> None:
    assert len(CORE_FILES) >= 4


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_core_imports_no_adapter(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [
        name
        for name in _imports(tree)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN_IMPORTS)
    ]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_core_reads_no_clock_and_no_global_random(path: Path) -> None:
    """Time and randomness come in as arguments (``now``, ``rng``) so tests are deterministic."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("now", "utcnow", "today", "time"):
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("datetime", "date", "time"):
                raise AssertionError(
                    f"{path.name}:{node.lineno} reads the clock ({base.id}.{node.attr})"
                )
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            raise AssertionError(f"{path.name}:{node.lineno} uses the global random generator")


def test_at_most_three_modules_loose_at_the_package_root() -> None:
    loose = sorted(
        p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert len(loose) <= 3, loose
