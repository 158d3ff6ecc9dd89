"""What the learner can tune about scheduling: FSRS's parameters and the study-day rules.

:class:`SchedulerSettings` checks every value on the way in, so the store never
holds invalid settings; :meth:`SchedulerSettings.fsrs_scheduler` is the
``fsrs.Scheduler`` they describe (cached, fuzz off: :mod:`quizzer.scheduling.scheduler`
fuzzes with the caller's generator).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import timedelta
from functools import lru_cache
from typing import Any, Literal

import fsrs

NewOrder = Literal["deck", "random"]
LeechAction = Literal["suspend", "flag"]


@dataclass(frozen=True, slots=True)
class SchedulerSettings:
    """Everything the learner can tune about scheduling. Persisted in the progress store."""

    desired_retention: float = 0.9
    learning_steps_s: tuple[int, ...] = (60, 600)
    relearning_steps_s: tuple[int, ...] = (600,)
    maximum_interval_days: int = 36500
    fuzz: bool = True
    day_start_hour: int = 4
    new_per_day: int = 20
    reviews_per_day: int = 200
    new_order: NewOrder = "deck"
    bury_siblings: bool = True
    #: A later direction's new card of a concept waits until the concept's cards in the
    #: earlier directions studied with it have at least this stability, in days (0: off).
    ladder_days: int = 7
    leech_threshold: int = 8
    leech_every: int = 4
    leech_action: LeechAction = "suspend"
    parameters: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)

    def __post_init__(self) -> None:
        # Every way in (Python, the settings command, a stored document) passes here, so
        # invalid settings are never stored. ValueError names the setting.
        for name in ("fuzz", "bury_siblings"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        retention = self.desired_retention
        if isinstance(retention, bool) or not isinstance(retention, int | float):
            raise ValueError(f"desired_retention must be a number, got {retention!r}")
        if not 0.5 <= retention < 1.0:
            raise ValueError(f"desired_retention must be at least 0.5 and below 1, got {retention}")
        for name, low in (
            ("day_start_hour", 0),
            ("new_per_day", 0),
            ("reviews_per_day", 0),
            ("ladder_days", 0),
            ("maximum_interval_days", 1),
            ("leech_threshold", 1),
            ("leech_every", 1),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
            if value < low:
                raise ValueError(f"{name} must be at least {low}, got {value}")
        if self.day_start_hour > 23:
            raise ValueError(f"day_start_hour must be 0-23, got {self.day_start_hour}")
        if self.new_order not in ("deck", "random"):
            raise ValueError(f"new_order must be 'deck' or 'random', got {self.new_order!r}")
        if self.leech_action not in ("suspend", "flag"):
            raise ValueError(f"leech_action must be 'suspend' or 'flag', got {self.leech_action!r}")
        for name in ("learning_steps_s", "relearning_steps_s", "parameters"):
            value = getattr(self, name)
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise ValueError(f"{name} must be a list, got {value!r}")
            object.__setattr__(self, name, tuple(value))
        for name in ("learning_steps_s", "relearning_steps_s"):
            for step in getattr(self, name):
                if isinstance(step, bool) or not isinstance(step, int) or step <= 0:
                    raise ValueError(f"{name} must be positive whole seconds, got {step!r}")
        params = self.parameters
        if len(params) != len(fsrs.scheduler.DEFAULT_PARAMETERS):
            raise ValueError(
                f"parameters must be {len(fsrs.scheduler.DEFAULT_PARAMETERS)} numbers "
                f"(FSRS-6), got {len(params)}"
            )
        try:
            if any(isinstance(p, bool | str | bytes) for p in params):
                raise TypeError
            floats = tuple(float(p) for p in params)  # numpy floats from an optimiser too
        except (TypeError, ValueError):
            raise ValueError(f"parameters must be numbers, got {params!r:.80}") from None
        if not all(math.isfinite(p) for p in floats):
            raise ValueError("parameters must be finite numbers")
        object.__setattr__(self, "parameters", floats)
        try:
            self.fsrs_scheduler()  # fsrs checks each parameter against its bounds
        except (ValueError, TypeError) as exc:
            raise ValueError(f"parameters are outside FSRS's bounds ({exc})") from None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SchedulerSettings:
        """Inverse of :meth:`to_dict`; unknown keys are ignored, missing ones take defaults."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def fsrs_scheduler(self) -> fsrs.Scheduler:
        """The ``fsrs.Scheduler`` for these settings (fuzz off: we fuzz with our own rng)."""
        return _scheduler(
            self.parameters,
            self.desired_retention,
            self.learning_steps_s,
            self.relearning_steps_s,
            self.maximum_interval_days,
        )


@lru_cache(maxsize=16)
def _scheduler(
    parameters: tuple[float, ...],
    retention: float,
    learning: tuple[int, ...],
    relearning: tuple[int, ...],
    maximum: int,
) -> fsrs.Scheduler:
    return fsrs.Scheduler(
        parameters=parameters,
        desired_retention=retention,
        learning_steps=tuple(timedelta(seconds=s) for s in learning),
        relearning_steps=tuple(timedelta(seconds=s) for s in relearning),
        maximum_interval=maximum,
        enable_fuzzing=False,
    )
