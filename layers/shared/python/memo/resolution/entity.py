"""Entity resolution: from semantic resolver args to id-resolved executor args (machine-only).

`resolve_entities(state, repository, now, latest_actions=...)` goes through the plan's steps that
have a resolver result but no executor args yet:
- a resolver error -> a failed `executionResults[stepId]` (no interrupt);
- no target (create / save / add / list / show / clear / delete_all) -> the resolver's args;
- a target -> looked up among the user's own items (`memo.resolution.lookup`: by its words,
  English and Hebrew, or, for `targetRef: latest_action` ("it", "that", "זה"), by the ids named by
  the message the user quoted, else by the most recent matching latest action, that still exist):
    one match           -> `executorArgs[stepId]` with the ids;
    several close ones  -> `state.disambiguation` (candidates with entity ids, labels and a short
                           description; `allowMultiple` for a delete whose words are plural or
                           "all the ..."; kind pick_one / pick_many) -> the caller runs the gate;
    none                -> a failed `executionResults[stepId]` with NOT_FOUND and a user-facing
                           explanation, and no interrupt.
Only one disambiguation is open at a time: a second ambiguous step waits for the next call.

The answer to a disambiguation is applied by `memo.resolution.selection.apply_selection`; then
`resolve_entities` runs again for the steps still open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.capabilities.common import NOT_FOUND
from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import Disambiguation, DisambiguationKind, LatestAction, PlanStep, TurnState
from memo.observability import logger, mask_phone
from memo.resolution import recurring
from memo.resolution.candidates import Ambiguous, Found, ItemsReader, Lookup, Missing
from memo.resolution.executor_args import PINNED_ACTIONS, executor_args_for, pinned_set
from memo.resolution.list_names import list_to_add_to, list_to_clear, named_list_to_clear
from memo.resolution.lookup import lookup
from memo.resolution.resolvers import ResolverResult


@dataclass(frozen=True)
class EntityResolution:
    """The updated state, and what happened to each step this time."""

    state: TurnState
    resolved: tuple[str, ...] = ()
    not_found: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()

    @property
    def disambiguation(self) -> Disambiguation | None:
        return self.state.disambiguation

    @property
    def needs_hitl(self) -> bool:
        d = self.state.disambiguation
        return d is not None and d.resolver_step_id not in self.state.executor_args


@dataclass
class _Progress:
    """The state as the steps are resolved, and which steps ended how."""

    state: TurnState
    resolved: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def resolve(self, step: PlanStep, args: dict[str, Any]) -> None:
        self.state = self.state.with_executor_args(step.id, args)
        self.resolved.append(step.id)

    def fail(self, step: PlanStep, code: str, message: str) -> None:
        self.state = _failed(self.state, step, code, message)
        self.failed.append(step.id)

    def miss(self, step: PlanStep, message: str) -> None:
        self.state = _failed(self.state, step, NOT_FOUND, message)
        self.not_found.append(step.id)

    def outcome(self) -> EntityResolution:
        return EntityResolution(
            state=self.state,
            resolved=tuple(self.resolved),
            not_found=tuple(self.not_found),
            failed=tuple(self.failed),
        )


@dataclass(frozen=True)
class _Reads:
    """What the lookups read besides the state: the items, the time, and what "it/that" may mean."""

    repository: ItemsReader
    now: datetime
    latest_actions: Sequence[LatestAction]
    quoted: Sequence[LatestAction]
    in_flight: bool


def resolve_entities(
    state: TurnState,
    repository: ItemsReader,
    now: datetime,
    *,
    latest_actions: Sequence[LatestAction] = (),
    quoted: Sequence[LatestAction] = (),
    in_flight: bool = False,
) -> EntityResolution:
    """Resolve the targets of the steps that have no executor args yet (see the module doc).

    `latest_actions` are the thread's recent actions, most recent first (for "it/that");
    `quoted` the items named by the message of Memo's that the user's message replies to (WhatsApp's
    `context.id`, `memo.reply.quotes`), which "it/that" binds to first. `in_flight`: the person's
    previous request is still running (`memo.conversation.model.plan_in_flight`), so an unquoted
    "it/that" may mean what it is making, which no latest action names yet: it binds to nothing and
    the person is asked to say it again in a moment.
    """
    output = state.planner_output
    if output is None:
        raise ValueError("resolve_entities needs state.plannerOutput")
    reads = _Reads(repository, now, latest_actions, quoted, in_flight)
    progress = _Progress(state)
    for step in output.plan:
        state = progress.state
        if step.id in state.executor_args or step.id in state.execution_results:
            continue
        if state.disambiguation is not None and state.disambiguation.resolver_step_id == step.id:
            continue  # waiting for the user's choice
        raw = state.resolver_results.get(step.id)
        if raw is None:
            raise ValueError(f"step {step.id} has no resolver result: run resolve_all first")
        result = ResolverResult.from_json(raw)
        if result.error_code is not None:
            progress.fail(step, result.error_code, result.error or "")
        elif result.target is None:
            _resolve_untargeted(progress, step, result, reads)
        else:
            _resolve_target(progress, step, result, reads)
    return progress.outcome()


def _resolve_untargeted(progress: _Progress, step: PlanStep, result: ResolverResult, reads: _Reads) -> None:
    """A step with no target: the resolver's args, with the list named when it was left unnamed and
    the items of "everything" pinned."""
    state = progress.state
    args = dict(result.args)
    if (
        step.capability == "lists"
        and step.action in ("clear", "add")
        and args.get("listName") == UNNAMED_LIST
    ):
        named = (
            list_to_clear(state, reads.repository)
            if step.action == "clear"
            else list_to_add_to(state, reads.repository, args)
        )
        if isinstance(named, Missing):
            progress.miss(step, named.message)
            return
        args["listName"] = named
    elif step.capability == "lists" and step.action == "clear":
        named = named_list_to_clear(state, reads.repository, str(args.get("listName")))
        if isinstance(named, Missing):
            progress.miss(step, named.message)
            return
        args["listName"] = named
    if step.action in PINNED_ACTIONS:
        args.update(pinned_set(step, state, reads.repository, reads.now, args))
    progress.resolve(step, args)


def _resolve_target(progress: _Progress, step: PlanStep, result: ResolverResult, reads: _Reads) -> None:
    """A step with a target: its ids, a question (when no other is open), or NOT_FOUND."""
    assert result.target is not None
    state = progress.state
    log = {"traceId": state.trace_id, "threadId": mask_phone(state.thread_id), "stepId": step.id}
    found = lookup(
        step,
        result.target,
        state,
        reads.repository,
        reads.now,
        reads.latest_actions,
        reads.quoted,
        reads.in_flight,
    )
    semantic = {k: v for k, v in result.args.items() if k != "within"}
    found, scope_kind = _narrowed(step, result, semantic, found, state, reads)
    if isinstance(found, Found):
        progress.resolve(step, executor_args_for(step, {**semantic, **found.extra}, found.ids))
        logger.info("ENTITY_RESOLVED", extra={**log, "count": len(found.ids)})
    elif isinstance(found, Missing):
        progress.miss(step, found.message)
        logger.info("ENTITY_NOT_FOUND", extra=log)
    elif state.disambiguation is None:
        kind: DisambiguationKind = scope_kind or ("pick_many" if found.allow_multiple else "pick_one")
        disambiguation = Disambiguation(
            resolver_step_id=step.id,
            candidates=found.candidates,
            allow_multiple=found.allow_multiple,
            disambiguation_kind=kind,
            original_args={**semantic, **found.extra},
        )
        progress.state = state.with_disambiguation(disambiguation)
        logger.info(
            "ENTITY_DISAMBIGUATION",
            extra={**log, "candidates": len(found.candidates), "allowMultiple": found.allow_multiple},
        )


def _narrowed(
    step: PlanStep,
    result: ResolverResult,
    semantic: dict[str, Any],
    found: Lookup,
    state: TurnState,
    reads: _Reads,
) -> tuple[Lookup, DisambiguationKind | None]:
    """The reminders found, narrowed to their next time within the days the words named, and, for
    one repeating reminder, turned into "this one or the whole series?" (`recurring_scope`)."""
    language, timezone = state.input.language, state.input.timezone
    if isinstance(found, Found) and "within" in result.args:
        kept, outside = recurring.next_time_within(
            found.ids,
            result.args["within"],
            recurring.upcoming(reads.repository, state.thread_id, reads.now),
            language=language,
            timezone=timezone,
        )
        found = Found(kept, extra=found.extra) if kept else Missing(outside or "")
    if not isinstance(found, Found) or step.capability != "reminders":
        return found, None
    scope_candidates = recurring.scope_question(
        step,
        {**semantic, **found.extra},
        found.ids,
        recurring.upcoming(reads.repository, state.thread_id, reads.now),
        language=language,
        timezone=timezone,
    )
    if scope_candidates is None:
        return found, None
    # A repeating reminder: "this one or the whole series?" (a single choice).
    return Ambiguous(candidates=scope_candidates, allow_multiple=False, extra=found.extra), "recurring_scope"


def _failed(state: TurnState, step: PlanStep, code: str, message: str) -> TurnState:
    result = ExecutionResult(
        success=False, capability=step.capability, action=step.action, error_code=code, error=message
    )
    return state.with_execution_result(step.id, result.model_dump(mode="json"))
