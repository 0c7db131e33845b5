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

The executor args of a resolved step are the resolver's semantic args plus the entity ids found
(`executor_args_for`); "delete all" and "clear the list" pin the ids there are now (`pinned_set`).

The answer to a disambiguation is applied by `apply_selection(state, selected_ids, pending=...)`:
it writes the disambiguated step's executor args from the candidates frozen in the pending question
(never querying again) and clears `state.disambiguation`; `resolve_entities` then runs again for
the steps still open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.capabilities.common import NOT_FOUND
from memo.capabilities.dispatch import ARGS_MODELS
from memo.capabilities.items import Reminder
from memo.capabilities.lists import UNNAMED_LIST
from memo.capabilities.reminder_args import OCCURRENCE
from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    DisambiguationKind,
    LatestAction,
    PendingHITL,
    PlanStep,
    TurnState,
)
from memo.observability import logger, mask_phone
from memo.resolution import recurring
from memo.resolution.candidates import Ambiguous, Found, ItemsReader, Lookup, Missing
from memo.resolution.list_names import list_to_add_to, list_to_clear, moved_where_it_is, named_list_to_clear
from memo.resolution.lookup import lookup
from memo.resolution.resolvers import ResolverResult

#: Actions on "everything": the items there are at resolution are pinned into the args.
PINNED_ACTIONS = frozenset({"delete_all", "clear"})


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


#: In a step's failed result: the lists its words are on, when which one is to be asked.
ON_LISTS = "onLists"


@dataclass
class _Progress:
    """The state as the steps are resolved, and which steps ended how."""

    state: TurnState
    resolved: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def resolve(self, step: PlanStep, args: dict[str, Any]) -> None:
        stays = moved_where_it_is(self.state, step, args)
        if stays is not None:
            self.miss(step, stays)
            return
        self.state = self.state.with_executor_args(step.id, args)
        self.resolved.append(step.id)

    def fail(self, step: PlanStep, code: str, message: str) -> None:
        self.state = _failed(self.state, step, code, message)
        self.failed.append(step.id)

    def miss(self, step: PlanStep, message: str, lists: tuple[str, ...] = ()) -> None:
        self.state = _failed(self.state, step, NOT_FOUND, message, {ON_LISTS: list(lists)} if lists else None)
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
    semantic = {k: v for k, v in result.args.items() if k not in ("within", "times")}
    # One read of the upcoming reminders at most, shared by every check of this step that needs it.
    upcoming = recurring.upcoming(reads.repository, state.thread_id, reads.now)
    found, scope_kind = _narrowed(step, result, semantic, found, state, upcoming)
    within = result.args.get("within")
    if isinstance(within, dict) and semantic.get("scope") == OCCURRENCE:
        # "skip the gym next week": each of its times on those days is skipped.
        semantic = {**semantic, "skipFrom": within["from"], "skipUntil": within["until"]}
    if isinstance(found, Found):
        once = frozenset[str]()
        if "scope" in semantic and step.capability == "reminders":
            once = recurring.one_time(upcoming, found.ids)
        progress.resolve(step, executor_args_for(step, {**semantic, **found.extra}, found.ids, once))
        logger.info("ENTITY_RESOLVED", extra={**log, "count": len(found.ids)})
    elif isinstance(found, Missing):
        progress.miss(step, found.message, found.lists)
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
    upcoming: Callable[[], Sequence[Reminder]],
) -> tuple[Lookup, DisambiguationKind | None]:
    """The reminders found, narrowed to their next time within the days the words named, and, for
    one repeating reminder, turned into "this one or the whole series?" (`recurring_scope`);
    `upcoming` loads the user's upcoming reminders (once)."""
    language, timezone = state.input.language, state.input.timezone
    if isinstance(found, Found) and "times" in result.args:
        # "skip the next two vitamins": the days of those times, as if they were said
        days, refused = recurring.next_times(
            found.ids,
            int(result.args.pop("times")),
            upcoming,
            language=language,
            timezone=timezone,
        )
        if days is None:
            return Missing(refused), None
        result.args["within"] = days
    if isinstance(found, Found) and "within" in result.args:
        kept, outside = recurring.coming_within(
            found.ids,
            result.args["within"],
            upcoming,
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
        upcoming,
        language=language,
        timezone=timezone,
    )
    if scope_candidates is None:
        return found, None
    # A repeating reminder: "this one or the whole series?" (a single choice).
    return Ambiguous(candidates=scope_candidates, allow_multiple=False, extra=found.extra), "recurring_scope"


def _failed(
    state: TurnState, step: PlanStep, code: str, message: str, data: dict[str, Any] | None = None
) -> TurnState:
    result = ExecutionResult(
        success=False,
        capability=step.capability,
        action=step.action,
        error_code=code,
        error=message,
        data=data or {},
    )
    return state.with_execution_result(step.id, result.model_dump(mode="json"))


def executor_args_for(
    step: PlanStep, semantic_args: dict[str, Any], ids: Sequence[str], once: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The executor args of a targeted step: the resolver's args plus the chosen entity ids (a part
    of a repeating reminder named in its id, not in those of `once`, one-time reminders)."""
    unique = list(dict.fromkeys(ids))
    key = (step.capability, step.action)
    args: dict[str, Any]
    if key in (("reminders", "update"), ("reminders", "delete")):
        # "just this one" / "the whole series" of a repeating reminder travels in its id.
        semantic_args, unique = recurring.with_scope(semantic_args, unique, once)
        args = {**semantic_args, "reminderIds": unique}
    elif key in (("notes", "delete"), ("notes", "update")):
        args = {**semantic_args, "noteIds": unique}
    elif key == ("lists", "remove"):
        resolved = [str(i) for i in semantic_args.get("resolvedIds", [])]
        args = {
            "listName": semantic_args["listName"],
            "itemIds": list(dict.fromkeys([*resolved, *unique])),
            "notFound": list(semantic_args.get("notFound", [])),
        }
        # "one tomato" off "3 tomatoes", "one milk" off "2 liters of milk": only when said
        args |= {key: semantic_args[key] for key in ("lower", "unclear") if semantic_args.get(key)}
    elif key == ("lists", "update"):
        args = {"listName": semantic_args["listName"], "itemIds": unique[:1], "text": semantic_args["text"]}
    else:
        raise ValueError(f"{step.capability}/{step.action} takes no entity ids")
    return ARGS_MODELS[key].model_validate(args).to_json()


def pinned_set(
    step: PlanStep, state: TurnState, repository: ItemsReader, now: datetime, args: dict[str, Any]
) -> dict[str, Any]:
    """ "Delete all" and "clear the list" mean the items there are now: their ids go into the
    executor args, so the approval's args hash covers exactly this set and the review policy counts
    what the step really touches."""
    if step.capability == "reminders":
        return {
            "reminderIds": [r.reminder_id for r in repository.list_upcoming_reminders(state.thread_id, now)]
        }
    if step.capability == "notes":
        return {"noteIds": [n.note_id for n in repository.list_notes(state.thread_id)]}
    if step.capability == "lists" and isinstance(args.get("listName"), str):
        return {"itemIds": [i.item_id for i in repository.list_items(state.thread_id, args["listName"])]}
    return {}


class SelectionError(ValueError):
    """A disambiguation answer that does not fit the frozen candidates."""


def selected_ids_from_results(state: TurnState, hitl_id: str | None = None) -> list[str]:
    """The chosen candidate ids stored by the resume (`hitlResults[..].parsed.candidateIds`)."""
    entries = [
        (key, entry)
        for key, entry in state.hitl_results.items()
        if entry.return_to is not None
        and entry.return_to.node == "entity_resolution"
        and (hitl_id is None or key == hitl_id)
    ]
    if not entries:
        return []
    # In the order answered: of two answered at the same instant, the later.
    _, (_, latest) = max(enumerate(entries), key=lambda pair: (pair[1][1].at, pair[0]))
    parsed = latest.parsed if isinstance(latest.parsed, dict) else {}
    ids = parsed.get("candidateIds", [])
    return [str(i) for i in ids] if isinstance(ids, list) else []


@dataclass(frozen=True)
class _Question:
    """The disambiguation being answered, as it was frozen when asked."""

    step_id: str
    candidates: list[DisambiguationCandidate]
    allow_multiple: bool
    original_args: dict[str, Any]


def _question(state: TurnState, pending: PendingHITL | None) -> _Question:
    context = pending.context if pending is not None else None
    if context is not None and context.candidates and context.resolver_step_id:
        return _Question(
            context.resolver_step_id,
            list(context.candidates),
            bool(context.allow_multiple),
            dict(context.original_args or {}),
        )
    if state.disambiguation is not None:
        d = state.disambiguation
        return _Question(d.resolver_step_id, list(d.candidates), d.allow_multiple, dict(d.original_args))
    raise SelectionError("no disambiguation to apply a selection to")


def apply_selection(
    state: TurnState,
    selected_ids: Sequence[str] | None = None,
    *,
    pending: PendingHITL | None = None,
) -> TurnState:
    """Write executor args for the disambiguated step from the user's choice and clear
    `state.disambiguation`.

    The candidates are the ones frozen in `pending.context` (the consumed pending question) or,
    without it, in `state.disambiguation` (frozen in the same item). `selected_ids` default to the
    resume's `hitlResults` entry. The repository is never queried: the ids chosen are the ids
    shown. Raises SelectionError for ids that were not offered, or several ids for a pick_one.
    """
    question = _question(state, pending)
    chosen = (
        list(selected_ids)
        if selected_ids is not None
        else selected_ids_from_results(state, pending.hitl_id if pending is not None else None)
    )
    chosen = list(dict.fromkeys(chosen))
    offered = {c.id for c in question.candidates}
    if not chosen:
        raise SelectionError("no candidate was selected")
    if any(i not in offered for i in chosen):
        raise SelectionError("a selected id was not among the candidates")
    if len(chosen) > 1 and not question.allow_multiple:
        raise SelectionError("several candidates selected for a single choice")
    output = state.planner_output
    step = output.step(question.step_id) if output is not None else None
    if step is None:
        raise SelectionError(f"step {question.step_id} is not in the plan")
    order = {c.id: index for index, c in enumerate(question.candidates)}
    chosen.sort(key=order.__getitem__)
    args = executor_args_for(step, dict(question.original_args), chosen)
    logger.info(
        "ENTITY_SELECTION_APPLIED",
        extra={
            "traceId": state.trace_id,
            "threadId": mask_phone(state.thread_id),
            "stepId": question.step_id,
            "count": len(chosen),
        },
    )
    return state.with_executor_args(question.step_id, args).with_disambiguation(None)
