"""The deck options preset shipped in every package ("quizzer"), as Anki's schema-11 JSON.

Anki imports it when "Import any deck presets" is ticked, and gives it to the
exported decks. It carries what a learner of several directions of one concept
needs: siblings buried (new, review and interday learning: one card of a concept a
day), new cards served in the order the package gave them (mixed directions, see
:func:`quizzer.anki.exporter.new_card_positions`) instead of one card type for
weeks, and the learner's own scheduling: desired retention, learning steps, daily
limits, maximum interval, leech rule and, once ``quizzer optimize`` has fitted
them, the FSRS-6 parameters.

What a package can't carry: FSRS itself is one switch for the whole collection
(Deck options → FSRS), not part of a preset; and Anki drops a preset's FSRS
parameters unless the import also ticks "Import any learning progress".
"""

from __future__ import annotations

import copy
import json
import sqlite3
from typing import Any

import fsrs

from quizzer.anki.ids import stable_id
from quizzer.scheduling.settings import SchedulerSettings

PRESET_NAME = "quizzer"
#: The preset's id: the same in every export, so re-imports don't pile up copies.
PRESET_ID = stable_id("deck-config", PRESET_NAME)

# Anki's enums (proto/anki/deck_config.proto).
_GATHER_DECK = 0
_SORT_ORDER_GATHERED = 1
_LEECH_ACTION = {"suspend": 0, "flag": 1}  # Anki's "tag only" is closest to flagging


def _minutes(steps_s: tuple[int, ...]) -> list[float]:
    return [round(s / 60, 4) for s in steps_s]


def deck_preset(
    base: dict[str, Any], settings: SchedulerSettings | None, timestamp: float
) -> dict[str, Any]:
    """The preset's schema-11 JSON: ``base`` (the collection's "Default" preset, for every
    key Anki expects) with ``settings`` (quizzer's defaults when ``None``)."""
    settings = settings or SchedulerSettings()
    preset = copy.deepcopy(base)
    preset.update(
        id=PRESET_ID,
        name=PRESET_NAME,
        mod=int(timestamp),
        usn=-1,
        buryInterdayLearning=True,
        newGatherPriority=_GATHER_DECK,
        newSortOrder=_SORT_ORDER_GATHERED,
        newMix=0,
        interdayLearningMix=0,
        reviewOrder=0,
        desiredRetention=settings.desired_retention,
    )
    preset["new"].update(
        bury=True,
        perDay=settings.new_per_day,
        delays=_minutes(settings.learning_steps_s),
        order=1,  # legacy "show new cards in order added" (due order)
    )
    preset["rev"].update(
        bury=True, perDay=settings.reviews_per_day, maxIvl=settings.maximum_interval_days
    )
    preset["lapse"].update(
        delays=_minutes(settings.relearning_steps_s),
        leechFails=settings.leech_threshold,
        leechAction=_LEECH_ACTION[settings.leech_action],
    )
    params = [float(p) for p in settings.parameters]
    if params != [float(p) for p in fsrs.scheduler.DEFAULT_PARAMETERS]:
        preset["fsrsParams6"] = [round(p, 4) for p in params]  # fitted by `quizzer optimize`
    return preset


def install_preset(
    cursor: sqlite3.Cursor, settings: SchedulerSettings | None, timestamp: float
) -> None:
    """Add the quizzer options preset and give it to every deck but Anki's "Default"."""
    dconf_json, decks_json = cursor.execute("SELECT dconf, decks FROM col").fetchone()
    dconf = json.loads(dconf_json)
    dconf[str(PRESET_ID)] = deck_preset(dconf["1"], settings, timestamp)
    decks = json.loads(decks_json)
    for deck_id, deck in decks.items():
        if deck_id != "1":
            deck["conf"] = PRESET_ID
    cursor.execute(
        "UPDATE col SET dconf = ?, decks = ?",
        (json.dumps(dconf, sort_keys=True), json.dumps(decks, sort_keys=True)),
    )
