"""run_step: each plan step performs its side effect at most once, and only while its approval
still covers it — whatever re-runs it (Step Functions retry or redrive, a redelivered turn, a resume)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.base import CapabilityError, ExecutionResult
from memo.errors import ServiceFault, TransientFault
from memo.executor.ledger import operation_id, replay_of
from memo.executor.step import (
    APPROVAL_ARGS_CHANGED,
    APPROVAL_EXPIRED,
    IDEMPOTENCY_MISSING_RESULT,
    StepInProgress,
    TransientStepFailure,
    run_step,
)
from tests.support.clock import FakeClock
from tests.support.conversation import LogEvents

from .fakes import T0, CountingCapabilities, MemoryLedger, approval_for, task

LEASE = 90
# An action that is not safe to run again after a crashed attempt (memo.executor.reruns): the
# counting fake repeats its side effect, so these tests show a crashed attempt is never repeated.
UNSAFE = "update"


def run(step, capabilities, ledger, clock):
    return run_step(step, capabilities=capabilities, ledger=ledger, clock=clock, lease_seconds=LEASE)


@pytest.fixture
def capabilities() -> CountingCapabilities:
    return CountingCapabilities()


@pytest.fixture
def ledger() -> MemoryLedger:
    return MemoryLedger()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


def test_first_run_executes_once_and_records_its_replay_without_the_data(capabilities, ledger, clock) -> None:
    outcome = run(task(), capabilities, ledger, clock)

    assert outcome.result.success and not outcome.replayed
    assert len(capabilities.side_effects) == 1
    entry = ledger.get(operation_id("wamid.T1", "s1"))
    assert entry is not None and entry.status == "completed" and entry.success is True
    assert entry.replay is not None and entry.replay.external_ids == {"reminderId": "r-s1"}
    assert "call mom" not in repr(entry)  # the result's data stays out of the ledger


def test_a_rerun_after_completion_replays_the_stored_result(capabilities, ledger, clock, log_events) -> None:
    first = run(task(), capabilities, ledger, clock)
    clock.advance(minutes=3)
    again = run(task(), capabilities, ledger, clock)

    assert len(capabilities.side_effects) == 1
    assert again.replayed and again.result == replay_of(first.result)
    assert again.result.external_ids == first.result.external_ids
    assert log_events.named("STEP_REPLAYED")


def test_a_completed_entry_without_its_result_is_a_safe_failure(
    capabilities, ledger, clock, log_events: LogEvents
) -> None:
    run(task(), capabilities, ledger, clock)
    ledger.forget_replays()  # completed by an earlier release, which kept the result elsewhere

    outcome = run(task(), capabilities, ledger, clock)

    assert not outcome.result.success
    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT
    assert len(capabilities.side_effects) == 1
    assert log_events.named(IDEMPOTENCY_MISSING_RESULT)[0]["reason"] == "result_missing"


def test_a_claim_held_by_a_running_attempt_makes_the_rerun_wait(capabilities, ledger, clock) -> None:
    ledger.claim(
        operation_id("wamid.T1", "s1"), capability="reminders", step_id="s1", args_hash="x", at=clock()
    )
    clock.advance(seconds=LEASE - 1)

    with pytest.raises(StepInProgress):
        run(task(), capabilities, ledger, clock)
    assert capabilities.calls == 0


def test_a_claim_left_by_a_crashed_attempt_of_an_unsafe_step_is_never_run_again(
    capabilities, ledger, clock, log_events
) -> None:
    step = task(action=UNSAFE)
    ledger.claim(
        operation_id("wamid.T1", "s1"),
        capability="reminders",
        step_id="s1",
        args_hash=step.args_hash,
        at=clock(),
    )
    clock.advance(seconds=LEASE + 1)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == IDEMPOTENCY_MISSING_RESULT
    assert capabilities.calls == 0
    assert log_events.named(IDEMPOTENCY_MISSING_RESULT)[0]["reason"] == "attempt_abandoned"


def test_args_changed_after_approval_are_refused(capabilities, ledger, clock, log_events) -> None:
    approved = {"reminder_ids": ["r-1"]}
    edited = {"reminder_ids": ["r-1", "r-2"]}
    step = task(
        args=edited,
        action="delete",
        approval=approval_for(approved, expires_at=T0 + timedelta(minutes=5)),
    )

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == APPROVAL_ARGS_CHANGED and not outcome.result.success
    assert capabilities.calls == 0
    assert ledger.entries == {}  # nothing claimed: a corrected plan can still run this step
    assert log_events.named(APPROVAL_ARGS_CHANGED)


def test_an_expired_approval_is_refused(capabilities, ledger, clock) -> None:
    args = {"reminder_ids": ["r-1"]}
    step = task(args=args, action="delete", approval=approval_for(args, expires_at=T0 + timedelta(minutes=5)))
    clock.advance(minutes=5, seconds=1)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.error_code == APPROVAL_EXPIRED
    assert capabilities.calls == 0


def test_a_live_approval_of_the_same_args_runs_the_step(capabilities, ledger, clock) -> None:
    args = {"reminder_ids": ["r-1"]}
    step = task(
        args=args, action="delete", approval=approval_for(dict(args), expires_at=T0 + timedelta(minutes=5))
    )
    clock.advance(minutes=4, seconds=59)

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.result.success
    assert capabilities.side_effects == [("reminders", "delete", args)]


def test_an_approved_step_that_already_ran_is_replayed_even_after_expiry(capabilities, ledger, clock) -> None:
    args = {"reminder_ids": ["r-1"]}
    step = task(args=args, action="delete", approval=approval_for(args, expires_at=T0 + timedelta(minutes=5)))
    run(step, capabilities, ledger, clock)
    clock.advance(hours=1)  # a redrive long after the approval expired

    outcome = run(step, capabilities, ledger, clock)

    assert outcome.replayed and outcome.result.success
    assert len(capabilities.side_effects) == 1


def test_a_capability_error_is_a_recorded_failed_result(capabilities, ledger, clock) -> None:
    capabilities.fail_with.append(CapabilityError("NOT_FOUND", "No such reminder"))

    first = run(task(), capabilities, ledger, clock)
    again = run(task(), capabilities, ledger, clock)

    assert first.result.error_code == "NOT_FOUND" and first.result.error == "No such reminder"
    assert again.replayed and again.result == replay_of(first.result)
    assert not again.result.success and again.result.error_code == "NOT_FOUND"
    assert capabilities.calls == 1


def test_a_transient_fault_releases_the_claim_for_the_retry(capabilities, ledger, clock) -> None:
    capabilities.fail_with.append(TransientFault("AWS call failed transiently (ThrottlingException)"))

    with pytest.raises(TransientStepFailure):
        run(task(), capabilities, ledger, clock)
    assert ledger.entries == {}

    retried = run(task(), capabilities, ledger, clock)  # Step Functions' Retry
    assert retried.result.success and not retried.replayed
    assert len(capabilities.side_effects) == 1


def test_any_aws_fault_of_a_capability_releases_the_claim(capabilities, ledger, clock) -> None:
    capabilities.fail_with.append(ServiceFault("AWS call failed (AccessDeniedException)"))

    with pytest.raises(TransientStepFailure):
        run(task(), capabilities, ledger, clock)
    assert ledger.entries == {}


def test_an_unexpected_error_keeps_the_claim_so_the_step_is_not_repeated(capabilities, ledger, clock) -> None:
    capabilities.fail_with.append(RuntimeError("bug after a write?"))

    with pytest.raises(RuntimeError):
        run(task(action=UNSAFE), capabilities, ledger, clock)
    clock.advance(seconds=LEASE + 1)
    redriven = run(task(action=UNSAFE), capabilities, ledger, clock)

    assert redriven.result.error_code == IDEMPOTENCY_MISSING_RESULT
    assert capabilities.calls == 1


def test_losing_the_claim_race_answers_from_the_winner(capabilities, ledger, clock) -> None:
    winner = CountingCapabilities()
    op = operation_id("wamid.T1", "s1")

    class RacingLedger(MemoryLedger):
        """A concurrent attempt claims and completes just before our claim lands."""

        def __init__(self) -> None:
            super().__init__()
            self.claims = 0

        def claim(self, operation_id: str, **kwargs):
            self.claims += 1
            if self.claims == 1:
                run_step(task(), capabilities=winner, ledger=ledger_view, clock=clock)
            return super().claim(operation_id, **kwargs)

    racing = RacingLedger()
    ledger_view = MemoryLedger()
    ledger_view.entries = racing.entries

    outcome = run(task(), capabilities, racing, clock)

    assert outcome.replayed and outcome.result.success
    assert capabilities.calls == 0 and len(winner.side_effects) == 1
    assert racing.get(op) is not None


class CountingLedger(MemoryLedger):
    """Counts the ledger's requests by kind."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[str] = []

    def get(self, operation_id: str):
        self.requests.append("get")
        return super().get(operation_id)

    def claim(self, operation_id: str, **kwargs):
        self.requests.append("claim")
        return super().claim(operation_id, **kwargs)

    def complete(self, claim, result, *, at):
        self.requests.append("complete")
        return super().complete(claim, result, at=at)


def test_a_first_run_claims_without_reading_the_ledger_first(capabilities, clock) -> None:
    ledger = CountingLedger()
    args = {"title": "call mom", "when": "2025-03-02T18:00:00+00:00"}

    run(
        task(args=args, approval=approval_for(args, expires_at=T0 + timedelta(minutes=5))),
        capabilities,
        ledger,
        clock,
    )

    assert ledger.requests == ["claim", "complete"] and capabilities.calls == 1


def test_a_rerun_learns_the_outcome_from_its_failed_claim(capabilities, clock) -> None:
    """The lost claim carries the entry that won, with its replay: the rerun reads nothing more."""
    ledger = CountingLedger()
    first = run(task(), capabilities, ledger, clock)
    ledger.requests.clear()

    again = run(task(), capabilities, ledger, clock)

    assert ledger.requests == ["claim"]
    assert again.replayed and again.result == replay_of(first.result) and capabilities.calls == 1


def test_steps_of_one_turn_are_separate_operations(capabilities, ledger, clock) -> None:
    run(task("s1"), capabilities, ledger, clock)
    run(task("s2"), capabilities, ledger, clock)
    run(task("s1", trace_id="wamid.T2"), capabilities, ledger, clock)

    assert len(capabilities.side_effects) == 3


RERUN = st.sampled_from(["rerun", "rerun", "transient", "crash", "wait_short", "wait_long", "lose_result"])


@settings(max_examples=150, deadline=None)
@given(st.lists(RERUN, min_size=1, max_size=12))
def test_no_sequence_of_reruns_repeats_a_side_effect(events: list[str]) -> None:
    capabilities, ledger, clock = CountingCapabilities(), MemoryLedger(), FakeClock(T0)
    completed = None
    for event in events:
        if event == "transient":
            capabilities.fail_with.append(TransientFault("AWS call failed transiently (InternalServerError)"))
        elif event == "crash":
            capabilities.fail_with.append(RuntimeError("crash"))
        elif event == "wait_short":
            clock.advance(seconds=LEASE // 3)
            continue
        elif event == "wait_long":
            clock.advance(seconds=LEASE * 2)
            continue
        elif event == "lose_result":
            ledger.forget_replays()
            continue
        try:
            outcome = run(task(action=UNSAFE), capabilities, ledger, clock)
        except (StepInProgress, TransientStepFailure, RuntimeError):
            continue
        if outcome.result.success:
            if completed is not None:
                assert outcome.replayed and outcome.result == replay_of(completed)
            completed = outcome.result
        capabilities.fail_with.clear()
    assert len(capabilities.side_effects) <= 1


class FlakyCompletion(MemoryLedger):
    """A ledger whose completion write fails `failures` times after the side effect happened."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def complete(self, claim, result, *, at) -> None:
        if self.failures:
            self.failures -= 1
            raise TransientFault("AWS call failed transiently (ProvisionedThroughputExceededException)")
        super().complete(claim, result, at=at)


def test_a_failed_completion_is_retried_in_place_and_the_person_hears_the_truth(clock, log_events) -> None:
    capabilities, ledger = CountingCapabilities(), FlakyCompletion(failures=2)
    waits: list[float] = []

    outcome = run_step(task(), capabilities=capabilities, ledger=ledger, clock=clock, sleep=waits.append)

    assert outcome.result.success and len(capabilities.side_effects) == 1
    entry = ledger.get(operation_id("wamid.T1", "s1"))
    assert entry is not None and entry.status == "completed"
    assert len(waits) == 2 and log_events.named("STEP_COMPLETION_RETRY")
    again = run_step(task(), capabilities=capabilities, ledger=ledger, clock=clock, sleep=waits.append)
    assert again.replayed and len(capabilities.side_effects) == 1


def test_a_ledger_that_stays_down_still_reports_the_done_side_effect_and_never_repeats_it(
    clock, log_events
) -> None:
    capabilities, ledger = CountingCapabilities(), FlakyCompletion(failures=99)
    step = task(action=UNSAFE)

    outcome = run_step(step, capabilities=capabilities, ledger=ledger, clock=clock, sleep=lambda _: None)

    assert outcome.result.success  # not "couldn't confirm": the reminder exists
    assert log_events.named("STEP_COMPLETION_UNRECORDED")
    clock.advance(seconds=LEASE + 1)
    rerun = run(step, capabilities, ledger, clock)  # a redrive finds the claim, never runs again
    assert not rerun.result.success and len(capabilities.side_effects) == 1


# "Delete all": its claim rides on its first write (memo.executor.step.CLAIMED_BY_FIRST_WRITE).
DELETE_ALL = {"capability": "reminders", "action": "delete_all", "args": {"reminderIds": ["r1", "r2"]}}


def test_a_claim_carried_by_the_first_write_is_held_by_it_and_completed(capabilities, ledger, clock) -> None:
    claims: list[str] = []
    ledger.claim = lambda *a, **k: claims.append("claim")  # type: ignore[method-assign]

    outcome = run(task(**DELETE_ALL), capabilities, ledger, clock)

    assert outcome.result.success and claims == []  # no claim of its own: the write carried it
    assert len(capabilities.side_effects) == 1
    entry = ledger.get(operation_id("wamid.T1", "s1"))
    assert entry is not None and entry.status == "completed"


def test_a_first_write_refused_by_a_completed_claim_replays_and_does_nothing(
    capabilities, ledger, clock
) -> None:
    first = run(task(**DELETE_ALL), capabilities, ledger, clock)

    again = run(task(**DELETE_ALL), capabilities, ledger, clock)

    assert again.replayed and again.result == replay_of(first.result)
    assert again.result.external_ids == first.result.external_ids
    assert len(capabilities.side_effects) == 1


def test_a_first_write_refused_by_a_running_attempt_waits(capabilities, ledger, clock) -> None:
    ledger.claim(
        operation_id("wamid.T1", "s1"), capability="reminders", step_id="s1", args_hash="h", at=clock()
    )
    with pytest.raises(StepInProgress):
        run(task(**DELETE_ALL), capabilities, ledger, clock)
    assert capabilities.side_effects == []


class _CompletesInItsWrite(CountingCapabilities):
    """A delete_all whose one transaction is the whole step: it says what that write does."""

    def execute(self, capability, action, args, ctx):
        def result_of(written):
            return ExecutionResult(
                success=True,
                capability=capability,
                action=action,
                data={"count": len(written)},
                external_ids={"reminderIds": list(written)},
            )

        ctx.first_write.completed_as(result_of)
        ctx.first_write.entry_for(args["reminderIds"])
        ctx.first_write.sent()
        self.side_effects.append((capability, action, args))
        return result_of(args["reminderIds"])


def test_a_first_write_that_is_the_whole_step_completes_it_with_no_write_after(ledger, clock) -> None:
    capabilities = _CompletesInItsWrite()
    completes: list[str] = []
    ledger.complete = lambda *a, **k: completes.append("complete")  # type: ignore[method-assign]

    outcome = run(task(**DELETE_ALL), capabilities, ledger, clock)

    assert outcome.result.success and completes == []
    entry = ledger.get(operation_id("wamid.T1", "s1"))
    assert entry is not None and entry.status == "completed" and entry.replay == replay_of(outcome.result)
    again = run(task(**DELETE_ALL), capabilities, ledger, clock)
    assert again.replayed and again.result.external_ids == {"reminderIds": ["r1", "r2"]}
    assert len(capabilities.side_effects) == 1


class _WritesNothing(CountingCapabilities):
    """Nothing to delete: the action returns without a write (so without its claim)."""

    def execute(self, capability, action, args, ctx):
        return ExecutionResult(success=True, capability=capability, action=action, data={"count": 0})


def test_an_action_that_wrote_nothing_is_claimed_then_and_completed(ledger, clock) -> None:
    outcome = run(task(**DELETE_ALL), _WritesNothing(), ledger, clock)

    assert outcome.result.success and outcome.result.data == {"count": 0}
    entry = ledger.get(operation_id("wamid.T1", "s1"))
    assert entry is not None and entry.status == "completed"


def test_a_fault_before_the_first_write_releases_nothing_and_retries(
    capabilities, ledger, clock, log_events: LogEvents
) -> None:
    capabilities.fail_with.append(TransientFault("throttled"))

    with pytest.raises(TransientStepFailure):
        run(task(**DELETE_ALL), capabilities, ledger, clock)

    assert ledger.get(operation_id("wamid.T1", "s1")) is None
    assert not log_events.named("STEP_CLAIM_LOST")
    assert run(task(**DELETE_ALL), capabilities, ledger, clock).result.success
    assert len(capabilities.side_effects) == 1
