"""A step whose attempt crashed mid-way (claim taken, never completed) runs again when its action is
idempotent by construction (memo.executor.reruns), so the person hears the true result once; any
other step keeps the truthful "can't confirm". A live lease still keeps two runs apart."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.base import ExecutionContext, ExecutionResult, RerunUnsafe
from memo.capabilities.dispatch import ARGS_MODELS
from memo.executor.ledger import Claim, LedgerEntry, operation_id, replay_of
from memo.executor.reruns import RERUNS, may_rerun
from memo.executor.step import IDEMPOTENCY_MISSING_RESULT, MAX_RERUNS, StepInProgress, run_step
from tests.support.clock import FakeClock
from tests.support.conversation import LogEvents

from .fakes import T0, MemoryLedger, approval_for, task

LEASE = 90
OP = operation_id("wamid.T1", "s1")


class IdempotentCapabilities:
    """Performs a step the way an idempotent capability does: the effect is keyed by the step, so
    doing it again changes nothing; records each call's context."""

    def __init__(self, raise_on_rerun: BaseException | None = None) -> None:
        self.effects: set[str] = set()
        self.contexts: list[ExecutionContext] = []
        self.raise_on_rerun = raise_on_rerun

    def execute(
        self, capability: str, action: str, args: dict[str, Any], ctx: ExecutionContext
    ) -> ExecutionResult:
        self.contexts.append(ctx)
        if ctx.rerun_of is not None and self.raise_on_rerun is not None:
            raise self.raise_on_rerun
        self.effects.add(f"{ctx.trace_id}:{ctx.step_id}")
        return ExecutionResult(
            success=True,
            capability=capability,
            action=action,
            data={"title": args.get("title", "")},
            external_ids={"reminderId": f"r-{ctx.step_id}"},
            summary=f"reminder {args.get('title', '')}",
        )


def run(step, capabilities, ledger, clock):
    return run_step(step, capabilities=capabilities, ledger=ledger, clock=clock, lease_seconds=LEASE)


def crashed_attempt(ledger: MemoryLedger, step, clock: FakeClock) -> LedgerEntry:
    """The claim an attempt took before it died (its Lambda timed out, or it was killed)."""
    ledger.claim(OP, capability=step.capability, step_id=step.step_id, args_hash=step.args_hash, at=clock())
    entry = ledger.get(OP)
    assert entry is not None
    return entry


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


def test_every_action_the_dispatcher_knows_is_decided_with_a_reason() -> None:
    assert set(RERUNS) == set(ARGS_MODELS)
    assert all(len(rule.reason) > 20 for rule in RERUNS.values())
    safe = {key for key, rule in RERUNS.items() if rule.safe}
    assert ("reminders", "create") in safe and ("notes", "save") in safe and ("lists", "add") in safe
    assert {("reminders", "update"), ("reminders", "snooze"), ("items", "undo")}.isdisjoint(safe)


@pytest.mark.parametrize(
    ("capability", "action", "args", "allowed"),
    [
        ("reminders", "delete", {"reminderIds": ["a", "b~series"]}, True),
        ("reminders", "delete", {"reminderIds": ["a", "b~occurrence"]}, False),  # a skip moves on
        ("reminders", "delete_all", {"reminderIds": ["a"]}, True),
        ("reminders", "delete_all", {}, False),  # a fresh listing would hide its own tombstones
        ("notes", "delete_all", {"noteIds": ["n"]}, True),
        ("notes", "delete_all", {}, False),
        ("lists", "clear", {"listName": "groceries", "itemIds": ["i"]}, True),
        ("lists", "clear", {"listName": "groceries"}, False),
        ("reminders", "update", {"reminderIds": ["a"], "title": "x"}, False),
        ("calendar", "create", {}, False),  # not decided: never re-run
    ],
)
def test_some_actions_are_safe_only_with_pinned_targets(
    capability: str, action: str, args: dict[str, Any], allowed: bool
) -> None:
    assert may_rerun(capability, action, args) is allowed


def test_a_crashed_create_runs_again_once_and_tells_the_truth(
    clock: FakeClock, log_events: LogEvents
) -> None:
    ledger, capabilities, step = MemoryLedger(), IdempotentCapabilities(), task()
    crashed = crashed_attempt(ledger, step, clock)
    clock.advance(seconds=LEASE + 1)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.success and not outcome.replayed
    assert capabilities.contexts[0].rerun_of == crashed.at
    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.reruns == 1
    assert log_events.named("STEP_RERUN")[0]["rerun"] == 1
    assert not log_events.named(IDEMPOTENCY_MISSING_RESULT)
    again = run(step, capabilities, ledger, clock)  # a later retry replays it: no third run
    assert again.replayed and again.result == replay_of(outcome.result) and len(capabilities.contexts) == 1


def test_a_live_lease_is_still_in_progress_elsewhere(clock: FakeClock) -> None:
    ledger, capabilities, step = MemoryLedger(), IdempotentCapabilities(), task()
    crashed_attempt(ledger, step, clock)
    clock.advance(seconds=LEASE - 1)

    with pytest.raises(StepInProgress):
        run(step, capabilities, ledger, clock)
    assert capabilities.contexts == []


class RacedTakeOver(MemoryLedger):
    """Another re-run of the same step takes the crashed claim over just before this one does."""

    def take_over(self, entry: LedgerEntry, *, at) -> Claim:
        super().take_over(entry, at=at)  # the other re-run wins
        return super().take_over(entry, at=at)  # ours finds the claim no longer the crashed one's


def test_of_two_reruns_only_one_takes_the_claim_over(clock: FakeClock) -> None:
    ledger, capabilities, step = RacedTakeOver(), IdempotentCapabilities(), task()
    crashed_attempt(ledger, step, clock)
    clock.advance(seconds=LEASE + 1)

    with pytest.raises(StepInProgress):  # the winner is running: retry later, replay its result
        run(step, capabilities, ledger, clock)
    assert capabilities.contexts == []


def test_a_step_whose_reruns_keep_crashing_is_not_run_again(clock: FakeClock) -> None:
    ledger, capabilities, step = MemoryLedger(), IdempotentCapabilities(), task()
    entry = crashed_attempt(ledger, step, clock)
    for _ in range(MAX_RERUNS):
        entry = ledger.get(OP) or entry
        ledger.take_over(entry, at=clock())  # each re-run died too
    clock.advance(seconds=LEASE + 1)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT and capabilities.contexts == []


def test_args_that_differ_from_the_crashed_attempts_are_not_rerun(clock: FakeClock) -> None:
    ledger, capabilities = MemoryLedger(), IdempotentCapabilities()
    crashed_attempt(ledger, task(args={"title": "call mom", "when": "2025-03-02T18:00:00+00:00"}), clock)
    clock.advance(seconds=LEASE + 1)

    outcome = run(
        task(args={"title": "call dad", "when": "2025-03-02T18:00:00+00:00"}), capabilities, ledger, clock
    )

    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT and capabilities.contexts == []


def test_an_operation_that_cannot_tell_on_a_rerun_settles_as_cannot_confirm(
    clock: FakeClock, log_events: LogEvents
) -> None:
    ledger, step = MemoryLedger(), task()
    capabilities = IdempotentCapabilities(raise_on_rerun=RerunUnsafe("time passed"))
    crashed_attempt(ledger, step, clock)
    clock.advance(seconds=LEASE + 1)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT
    assert log_events.named(IDEMPOTENCY_MISSING_RESULT)[0]["reason"] == "rerun_unsafe"
    again = run(step, capabilities, ledger, clock)
    assert again.replayed and again.result == replay_of(outcome.result) and len(capabilities.contexts) == 1


def test_a_crashed_step_whose_approval_expired_since_is_not_rerun(clock: FakeClock) -> None:
    ledger, capabilities = MemoryLedger(), IdempotentCapabilities()
    args = {"title": "call mom", "when": "2025-03-02T18:00:00+00:00"}
    step = task(args=args, approval=approval_for(args, expires_at=T0 + timedelta(seconds=30)))
    crashed_attempt(ledger, step, clock)
    clock.advance(seconds=LEASE + 1)  # past the lease, and past the approval

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT and capabilities.contexts == []


def test_an_attempt_that_outlived_its_lease_still_reports_its_true_result(
    clock: FakeClock, log_events: LogEvents
) -> None:
    """A slow attempt whose claim a re-run took over: its completion is refused, its answer stands."""
    ledger, step = MemoryLedger(), task()

    class SlowThenTakenOver(IdempotentCapabilities):
        def execute(self, capability, action, args, ctx):
            if ctx.rerun_of is None:
                clock.advance(seconds=LEASE + 1)
                run(step, IdempotentCapabilities(), ledger, clock)  # the re-run takes over and completes
            return super().execute(capability, action, args, ctx)

    outcome = run(step, SlowThenTakenOver(), ledger, clock)

    assert outcome.result.success
    assert log_events.named("STEP_COMPLETION_TAKEN_OVER")
    entry = ledger.get(OP)
    assert entry is not None and entry.status == "completed" and entry.reruns == 1


class Killed(BaseException):
    """The Lambda died here (not an exception the step sees: nothing after it ran)."""


EVENTS = st.sampled_from(["run", "killed_before", "killed_after", "wait_short", "wait_long"])


@settings(max_examples=150, deadline=None)
@given(st.lists(EVENTS, min_size=1, max_size=14))
def test_no_sequence_of_crashes_and_retries_runs_a_safe_step_twice_at_once_or_lies(events: list[str]) -> None:
    """Whatever kills and waits come in between: an attempt never runs while an earlier attempt's
    lease is live, and every answer that says it worked is the one true result."""
    ledger, clock, step = MemoryLedger(), FakeClock(T0), task()
    effects: list[str] = []
    live_until: list[Any] = []  # when the lease of the last killed attempt runs out
    answers: list[ExecutionResult] = []

    class Capability(IdempotentCapabilities):
        kill: str | None = None

        def execute(self, capability, action, args, ctx):
            assert not live_until or clock() >= live_until[-1], "ran inside a live lease"
            if self.kill == "before":
                raise Killed
            result = super().execute(capability, action, args, ctx)
            effects.append("done")
            if self.kill == "after":
                raise Killed
            return result

    for event in events:
        if event == "wait_short":
            clock.advance(seconds=LEASE // 3)
            continue
        if event == "wait_long":
            clock.advance(seconds=LEASE * 2)
            continue
        capability = Capability()
        capability.kill = {"killed_before": "before", "killed_after": "after"}.get(event)
        try:
            outcome = run(step, capability, ledger, clock)
        except Killed:
            live_until.append(clock() + timedelta(seconds=LEASE))
            continue
        except StepInProgress:
            continue
        if outcome.result.success:
            answers.append(outcome.result)
        else:
            assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT  # only after MAX_RERUNS
            entry = ledger.get(OP)
            assert entry is not None and entry.reruns >= MAX_RERUNS
    # A replay words the same reply (it is the result but for the data: `replay_of`).
    assert all(replay_of(answer) == replay_of(answers[0]) for answer in answers)
    if answers:
        assert effects  # what it said it did, it did
