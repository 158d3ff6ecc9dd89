"""Where quizzer finds bundled decks and keeps the user's decks and progress."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from platformdirs import user_cache_path, user_data_path, user_state_path

APP_NAME = "quizzer"

#: Environment variables that override the default locations.
ENV_DB = "QUIZZER_DB"
ENV_DECKS = "QUIZZER_DECKS"
ENV_CACHE = "QUIZZER_CACHE"
ENV_STATE = "QUIZZER_STATE"


def bundled_decks_dir() -> Path:
    """The decks shipped with quizzer (``decks/`` in a checkout, packaged in a wheel)."""
    here = Path(__file__).resolve().parent
    packaged = here / "_bundled_decks"
    if packaged.is_dir():
        return packaged
    return here.parent / "decks"


def user_dir() -> Path:
    """The platform's per-user data directory for quizzer."""
    return user_data_path(APP_NAME, appauthor=False)


def user_decks_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where imported decks go: ``override``, else ``$QUIZZER_DECKS``, else the user data dir."""
    if override:
        return Path(override)
    env = os.environ.get(ENV_DECKS)
    if env:
        return Path(env)
    return user_dir() / "decks"


def default_db_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The progress store: ``override`` (``--db``), else ``$QUIZZER_DB``, else the user data dir."""
    if override:
        return Path(override)
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env)
    return user_dir() / "progress.json"


def cache_dir() -> Path:
    """Where quizzer keeps what it can rebuild (parsed decks): ``$QUIZZER_CACHE`` or the
    platform's user cache dir. Deleting it loses nothing."""
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env)
    return user_cache_path(APP_NAME, appauthor=False)


def state_dir() -> Path:
    """Where this machine keeps what belongs to it alone (its device identity):
    ``$QUIZZER_STATE`` or the platform's user state dir. Never inside a synced store folder,
    so a copied store folder can't carry one machine's identity to another."""
    env = os.environ.get(ENV_STATE)
    if env:
        return Path(env)
    return user_state_path(APP_NAME, appauthor=False)


def machine_file(store: str | os.PathLike[str], suffix: str) -> Path:
    """This machine's own file about the store at ``store`` (``.ui.json``: the choice it
    remembers; ``.anki.json``: its record of Anki exports). It lives in :func:`state_dir`,
    not beside the store: a store is often a folder inside a synced one (``~/Sync/quizzer``),
    where a file beside it would be written by every device and end in sync conflicts."""
    where = os.fsencode(Path(store).expanduser().absolute())
    digest = hashlib.sha256(where).hexdigest()[:20]
    return state_dir() / "stores" / f"{digest}{suffix}"


def beside_store(store: str | os.PathLike[str], suffix: str) -> Path:
    """Where earlier versions of quizzer kept :func:`machine_file`'s file: beside the store. It is
    read (never written) while the machine has no file of its own yet."""
    path = Path(store)
    return path.with_name(path.name + suffix)
