"""Any order of delivering the same events gives the same states.

Devices sync whenever they can: one device may read another's log whole, in pieces, out
of order (a device that was offline for a week), or twice (a conflict copy beside the
log). Histories of up to three devices are drawn (answers, practice, bury, suspend,
unsuspend, leech flags, settings changes, undos of the device's own events and undos
aimed at another device's, clocks that tie across devices and now and then step back),
then delivered in any order, cut into any batches, with repeats: the replay must equal
the replay of the events all at once — every card's state, the review log in order, the
practice answers, the settings and who set them, what is undone, the leech answers, and
the events reported as skipped.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import quizzer.progress.derive as derive
import quizzer.progress.events as ev
from quizzer.scheduling.settings import SchedulerSettings
from tests.strategies import BOUNDED

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
CARDS = [f"order/c{i}|ru:term>bn:definition" for i in range(3)]
#: Settings changes a device may make (each valid on its own and with the others).
SETTINGS: list[dict[str, Any]] = [
    {"desired_retention": 0.85},
    {"desired_retention": 0.95, "maximum_interval_days": 365},
    {"maximum_interval_days": 20},
    {"learning_steps_s": [30, 300]},
    {"fuzz": False},
    {"leech_threshold": 2, "leech_action": "flag"},
    {"leech_threshold": 3},
]
#: The digest of the default settings: an answer given under them says so now and then.
DEFAULTS = ev.settings_digest(SchedulerSettings())
#: How far a device's clock moves between two of its events (minutes): ties with itself
#: and with other devices are common, a step back happens.
STEPS = [0, 0, 1, 10, 600, 1440, 4 * 1440, -30]
KINDS = ["answer"] * 6 + ["practice", "bury", "suspend", "unsuspend", "leech", "settings"]
KINDS += ["undo", "undo", "foreign undo"]


@st.composite
def histories(draw: st.DrawFn) -> list[ev.AnyEvent]:
    """Events of one to three devices, each device's in its own sequence."""
    devices = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True))
    out: list[ev.AnyEvent] = []
    for dev in devices:
        minutes = 0
        undoable: list[str] = []  # this device's events an undo may take back, oldest first
        for seq in range(1, draw(st.integers(0, 14)) + 1):
            kind = draw(st.sampled_from(KINDS))
            minutes += draw(st.sampled_from(STEPS))
            data: dict[str, Any] = {"id": f"{dev}-{seq}", "dev": dev, "seq": seq, "op": kind}
            data["at"] = ev.to_ms(T0 + timedelta(minutes=minutes))
            card = draw(st.sampled_from(CARDS))
            if kind == "answer":
                data |= {"card": card, "grade": draw(st.integers(1, 4)), "mode": "flip"}
                data["ms"] = 1500
                if draw(st.booleans()):
                    data["params"] = DEFAULTS
            elif kind == "practice":
                data |= {"card": card, "grade": draw(st.integers(1, 4)), "mode": "cram"}
                data["ms"] = 900
            elif kind == "bury":
                data |= {"card": card, "until": data["at"] + 86_400_000}
            elif kind in ("suspend", "unsuspend", "leech"):
                data["card"] = card
            elif kind == "settings":
                data["values"] = draw(st.sampled_from(SETTINGS))
            elif kind == "undo":
                if not undoable:
                    continue
                data["target"] = undoable.pop()
            else:  # an undo aimed at another device's event: reported and skipped
                data |= {"op": "undo", "target": f"{'b' if dev == 'a' else 'a'}-1"}
            if data["op"] in ("answer", "practice", "bury"):
                undoable.append(data["id"])
            out.append(ev.from_dict(data))
    return out


@st.composite
def deliveries(draw: st.DrawFn) -> tuple[list[ev.AnyEvent], list[list[ev.AnyEvent]]]:
    """A history, and the same events in any order, cut into batches, some twice."""
    events = draw(histories())
    order = draw(st.permutations(events))
    repeats = draw(st.lists(st.sampled_from(events), max_size=4)) if events else []
    stream = [*order]
    for event in repeats:
        stream.insert(draw(st.integers(0, len(stream))), event)
    cuts = sorted(draw(st.lists(st.integers(0, len(stream)), max_size=5)))
    batches = [stream[i:j] for i, j in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
    return events, batches


def outcome(replay: derive.Replay) -> dict[str, Any]:
    """Everything a device shows of a replay."""
    return {
        "states": {card: state.to_dict() for card, state in sorted(replay.states.items())},
        "reviews": [(r.id, r.card_id, r.grade) for r in replay.reviews()],
        "practice": [p.id for p in replay.practice()],
        "settings": replay.settings.to_dict(),
        "setters": {name: event.id for name, event in sorted(replay.setters.items())},
        "undone": sorted(replay.undone.items()),
        "leeched": sorted(replay.leeched),
        "problems": sorted((p.event, p.dev, p.reason) for p in replay.problems),
    }


@BOUNDED
@given(deliveries())
def test_any_delivery_order_gives_the_same_states(
    delivery: tuple[list[ev.AnyEvent], list[list[ev.AnyEvent]]],
) -> None:
    events, batches = delivery
    expected = outcome(derive.replay(events, UTC))
    replay = derive.Replay(UTC)
    for batch in batches:
        replay.add(batch)
    assert outcome(replay) == expected


@BOUNDED
@given(histories(), st.randoms(use_true_random=False))
def test_two_devices_reading_each_others_logs_in_pieces_agree(
    events: list[ev.AnyEvent], rnd: Any
) -> None:
    """Each device replays its own events as it writes them and the others' as they come,
    a piece of a log at a time (in each log's order, as a reader of a growing log sees
    them): both end where a replay of everything starts from nothing ends."""
    expected = outcome(derive.replay(events, UTC))
    logs: dict[str, list[ev.AnyEvent]] = {}
    for event in events:
        logs.setdefault(event.dev, []).append(event)
    for dev in logs:
        replay = derive.Replay(UTC)
        replay.add(logs[dev])
        read = dict.fromkeys(logs, 0)
        read[dev] = len(logs[dev])
        while any(read[other] < len(logs[other]) for other in logs):
            other = rnd.choice([o for o in logs if read[o] < len(logs[o])])
            upto = rnd.randint(read[other] + 1, len(logs[other]))
            replay.add(logs[other][read[other] : upto])
            read[other] = upto
        assert outcome(replay) == expected, dev
