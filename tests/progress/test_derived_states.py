"""Card states are the replay of every device's events in (at, dev, seq) order, whatever
order the events arrive in; fuzz agrees across devices; undo stays on its device; settings
are last-writer-wins per setting; bad events are reported and skipped."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

import quizzer.progress.derive as derive
import quizzer.progress.events as ev
from quizzer.cards.card import CardKey
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.replay import replay as replay_answers
from quizzer.scheduling.scheduler import answer
from quizzer.scheduling.settings import SchedulerSettings
from tests.unit.test_replay import FUZZED, KEY, OTHER, PARIS, _history

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARDS = [f"demo/c{i}|en:term>en:definition" for i in range(4)]


class Device:
    """Writes events as one device would (its own sequence numbers)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seq = 0

    def event(self, op: str, at: datetime, **fields: Any) -> ev.AnyEvent:
        self.seq += 1
        data = {"id": f"{self.name}-{self.seq}", "dev": self.name, "seq": self.seq}
        data |= {"at": ev.to_ms(at), "op": op, **fields}
        return ev.from_dict(data)

    def answer(self, card: str, grade: int, at: datetime, **fields: Any) -> ev.AnyEvent:
        return self.event("answer", at, card=card, grade=grade, mode="flip", ms=1000, **fields)


def two_devices_history() -> list[ev.AnyEvent]:
    """Devices a and b answer the same cards over a month, interleaved in time."""
    a, b = Device("a"), Device("b")
    rng = random.Random(7)
    out: list[ev.AnyEvent] = []
    for day in range(30):
        for device in (a, b):
            at = T0 + timedelta(days=day, minutes=rng.randrange(600))
            out.append(device.answer(rng.choice(CARDS), rng.choice((1, 3, 3, 4)), at))
    return out


def states_of(replay: derive.Replay) -> dict[str, dict[str, Any]]:
    return {card: state.to_dict() for card, state in sorted(replay.states.items())}


def test_the_state_is_the_scheduler_applied_in_order_with_fuzz_seeded_by_the_event_id() -> None:
    events = two_devices_history()
    replay = derive.replay(events, UTC)
    for card in CARDS:
        mine = sorted(
            (e for e in events if isinstance(e, ev.Answer) and e.card == card), key=lambda e: e.key
        )
        state = CardState.new(CardKey.parse(card), mine[0].when)
        for event in mine:
            state = answer(
                state, event.grade, event.when, SchedulerSettings(), random.Random(event.id), tz=UTC
            ).state
        assert replay.states[card].to_dict() == state.to_dict()
    reviews = replay.reviews()
    assert len(reviews) == len(events)
    assert [r.id for r in reviews] == [e.id for e in sorted(events, key=lambda e: e.key)]


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.randoms(use_true_random=False), st.integers(1, 6))
def test_any_order_of_delivery_gives_the_same_states(rnd: random.Random, batches: int) -> None:
    events = two_devices_history()
    expected = states_of(derive.replay(events, UTC))
    shuffled = list(events)
    rnd.shuffle(shuffled)
    replay = derive.Replay(UTC)
    size = -(-len(shuffled) // batches)
    for start in range(0, len(shuffled), size):
        replay.add(shuffled[start : start + size])
    replay.add(shuffled[:5])  # delivered twice (a conflict copy): counted once
    assert states_of(replay) == expected
    assert len(replay.reviews()) == len(events)


def test_fuzz_agrees_across_devices_and_is_fuzz() -> None:
    device = Device("a")
    events = [device.answer(CARDS[0], 3, T0 + timedelta(days=d * 20)) for d in range(6)]
    one, two = derive.replay(events, UTC), derive.replay(list(reversed(events)), UTC)
    assert one.states[CARDS[0]].due == two.states[CARDS[0]].due
    plain = derive.replay(events, UTC, SchedulerSettings(fuzz=False))
    assert one.states[CARDS[0]].due != plain.states[CARDS[0]].due


def test_an_out_of_order_answer_replays_only_its_card() -> None:
    a, b = Device("a"), Device("b")
    replay = derive.Replay(UTC)
    replay.add(
        [
            a.answer(CARDS[0], 3, T0 + timedelta(days=3)),
            a.answer(CARDS[1], 3, T0 + timedelta(days=3)),
        ]
    )
    late = b.answer(CARDS[0], 1, T0 + timedelta(days=1))
    assert replay.add([late]) == {CARDS[0]}
    assert [r.id for r in replay.reviews(CARDS[0])] == ["b-1", "a-1"]


def test_undo_takes_back_its_own_devices_event_only() -> None:
    a, b = Device("a"), Device("b")
    first = a.answer(CARDS[0], 3, T0)
    second = a.answer(CARDS[0], 1, T0 + timedelta(days=2))
    theirs = b.answer(CARDS[1], 3, T0 + timedelta(hours=1))
    undo = a.event("undo", T0 + timedelta(days=2, minutes=1), target=second.id)
    rogue = a.event("undo", T0 + timedelta(days=3), target=theirs.id)
    missing = b.event("undo", T0 + timedelta(days=3), target="b-99")
    replay = derive.replay([first, second, theirs, undo, rogue, missing], UTC)
    assert [r.id for r in replay.reviews()] == [first.id, theirs.id]
    assert (
        replay.states[CARDS[0]].to_dict() == derive.replay([first], UTC).states[CARDS[0]].to_dict()
    )
    reasons = {p.event: p.reason for p in replay.problems}
    assert "another device's event" in reasons[rogue.id]
    assert "isn't there" in reasons[missing.id]
    assert replay.undone == {second.id: undo.id}


def test_an_undo_that_arrives_before_its_target_still_undoes_it() -> None:
    a = Device("a")
    target = a.answer(CARDS[0], 3, T0)
    undo = a.event("undo", T0 + timedelta(minutes=1), target=target.id)
    replay = derive.Replay(UTC)
    replay.add([undo])
    replay.add([target])
    assert replay.reviews() == [] and replay.problems == []


def test_settings_last_writer_wins_per_setting_by_time_device_and_sequence() -> None:
    a, b = Device("a"), Device("b")
    early = a.event("settings", T0, values={"new_per_day": 5, "desired_retention": 0.85})
    late = b.event("settings", T0 + timedelta(hours=1), values={"new_per_day": 9})
    for order in ([early, late], [late, early]):
        replay = derive.Replay(UTC)
        replay.add(order)
        assert replay.settings.new_per_day == 9
        assert replay.settings.desired_retention == 0.85
        assert replay.setters["new_per_day"].dev == "b"
        assert replay.setters["desired_retention"].dev == "a"


def test_an_answer_keeps_the_settings_it_was_given_under() -> None:
    a, b = Device("a"), Device("b")
    given_under = ev.settings_digest(SchedulerSettings())
    answers = [
        a.answer(CARDS[0], 3, T0 + timedelta(days=d * 5), params=given_under) for d in range(4)
    ]
    # b changed the retention before a's answers, but a was offline and didn't know.
    change = b.event("settings", T0 - timedelta(days=1), values={"desired_retention": 0.7})
    replay = derive.replay([*answers, change], UTC)
    alone = derive.replay(answers, UTC)
    assert replay.states[CARDS[0]].to_dict() == alone.states[CARDS[0]].to_dict()
    assert replay.settings.desired_retention == 0.7


def test_bury_suspend_leech_and_practice() -> None:
    a = Device("a")
    until = T0 + timedelta(days=1)
    events = [
        a.event("bury", T0, card=CARDS[0], until=ev.to_ms(until)),
        a.event("suspend", T0, card=CARDS[1]),
        a.event("leech", T0, card=CARDS[2]),
        a.event("practice", T0, card=CARDS[3], grade=3, mode="cram", ms=10),
    ]
    replay = derive.replay(events, UTC)
    assert replay.states[CARDS[0]].buried_until == until
    assert replay.states[CARDS[1]].suspended
    assert replay.states[CARDS[2]].leech
    assert CARDS[3] not in replay.states
    assert [p.mode for p in replay.practice()] == ["cram"]
    replay.add([a.event("unsuspend", T0 + timedelta(hours=1), card=CARDS[1])])
    assert not replay.states[CARDS[1]].suspended


def test_a_cache_of_states_with_the_events_it_holds_goes_on_like_a_full_replay() -> None:
    events = sorted(two_devices_history(), key=lambda e: e.key)
    head, tail = events[:40], events[40:]
    cached = derive.replay(head, UTC)
    resumed = derive.Replay(UTC, states={c: s.copy() for c, s in cached.states.items()})
    resumed.add(head, stepped=True)
    resumed.add(tail)
    assert states_of(resumed) == states_of(derive.replay(events, UTC))
    assert [r.id for r in resumed.reviews()] == [e.id for e in events]


def test_the_leech_answer_is_named() -> None:
    a = Device("a")
    events = [a.answer(CARDS[0], 4, T0)]
    for day in range(1, 40):
        events.append(a.answer(CARDS[0], 1 if day % 2 else 4, T0 + timedelta(days=day * 3)))
    replay = derive.replay(events, UTC, SchedulerSettings(leech_threshold=2, leech_every=1))
    assert replay.leeched
    assert replay.states[CARDS[0]].leech


#: UTC+14: a study day (from 04:00) there starts at 14:00 UTC the day before.
KIRITIMATI = ZoneInfo("Pacific/Kiritimati")


def test_a_log_delivered_in_slices_gives_each_card_its_answers_replay() -> None:
    """Answers carried over with the due dates the learner was given (as an upgrade or a
    merge writes them), delivered a few at a time with some late: each card's state is what
    ``scheduling.replay`` gives its answers, study days counted in the zone given."""
    _, mine = _history(KEY, FUZZED, 7)
    _, other = _history(OTHER, FUZZED, 8)
    log = sorted(mine + other, key=lambda r: r.reviewed_at)
    events: list[ev.AnyEvent] = []
    for seq, review in enumerate(log, start=1):
        data = {"id": f"old-{seq}", "dev": "old", "seq": seq, "at": ev.to_ms(review.reviewed_at)}
        data |= {"op": "answer", "card": review.card_id, "grade": review.grade, "mode": "flip"}
        assert review.due is not None
        data |= {"ms": 0, "review": review.id, "due": ev.to_ms(review.due)}
        events.append(ev.from_dict(data))
    late = events[len(events) // 2]
    for zone in (PARIS, KIRITIMATI):
        replayed = derive.Replay(zone, FUZZED)
        on_time = [e for e in events if e is not late]
        for start in range(0, len(on_time), 3):
            replayed.add(on_time[start : start + 3])
        assert isinstance(late, ev.Answer)
        assert replayed.add([late]) == {late.card}  # only its card replayed again
        for key in (KEY, OTHER):
            expected = replay_answers(key.id, log, FUZZED, zone)
            assert expected is not None
            assert replayed.states[key.id].to_dict() == expected.to_dict()
            assert [r.id for r in replayed.reviews(key.id)] == [
                r.id for r in log if r.card_id == key.id
            ]
    # The zone matters for this log: replayed in UTC, some card's memory differs.
    in_utc = derive.replay(events, UTC, FUZZED)
    assert any(
        in_utc.states[key.id].stability != replayed.states[key.id].stability for key in (KEY, OTHER)
    )
