"""Entity resolution: from semantic resolver args to id-resolved executor args (machine-only).

`resolve_entities(state, repository, now, latest_actions=...)` goes through the plan's steps that
have a resolver result but no executor args yet:
- a resolver error -> a failed `executionResults[stepId]` (no interrupt);
- no target (create / save / add / list / show / clear / delete_all) -> the resolver's args;
- a target -> matched against the user's own items (`memo.text.matching`, English and
  Hebrew) or, for `targetRef: latest_action` ("it", "that", "זה"), against the ids named by the
  message the user quoted (WhatsApp reply-to: several -> which one?), else of the most recent
  matching latest action, that still exist:
    one match           -> `executorArgs[stepId]` with the ids;
    several close ones  -> `state.disambiguation` (candidates with entity ids, labels and a short
                           description; `allowMultiple` for a delete whose words are plural or
                           "all the ..."; kind pick_one / pick_many) -> the caller runs the gate;
    none                -> a failed `executionResults[stepId]` with NOT_FOUND and a user-facing
                           explanation, and no interrupt.
Only one disambiguation is open at a time: a second ambiguous step waits for the next call.

On resume, `apply_selection(state, selected_ids, pending=...)` turns the answer into executor args
using the candidates frozen in the pending question (never querying again) and clears
`state.disambiguation`; then call `resolve_entities` again for the steps still open.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar
from zoneinfo import ZoneInfo

from memo.capabilities.base import ExecutionResult
from memo.capabilities.common import NOT_FOUND, say
from memo.capabilities.dispatch import ARGS_MODELS
from memo.capabilities.items import ListItem, Note, Reminder, list_key
from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    DisambiguationKind,
    LatestAction,
    PendingHITL,
    PlanStep,
    TurnState,
)
from memo.hitl.by_time import answer_by_time
from memo.hitl.templates import MAX_OPTIONS
from memo.observability import logger, mask_phone
from memo.resolution import recurring
from memo.resolution.position import position
from memo.resolution.resolvers import ResolverResult, TargetKind, TargetQuery
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.matching import match, rank
from memo.text.wording import quote

T = TypeVar("T")

#: Which ids of a latest action's externalIds name entities of each kind.
_REF_KEYS: dict[TargetKind, tuple[str, ...]] = {
    "reminder": ("reminderId", "reminderIds"),
    "note": ("noteId", "noteIds"),
    "list_item": ("listItemIds", "listItemId"),
}
_CAPABILITY_OF: dict[TargetKind, str] = {"reminder": "reminders", "note": "notes", "list_item": "lists"}
_MULTI_ACTIONS = frozenset({"delete", "remove"})
#: Actions on "everything": the items there are at resolution are pinned into the args.
_PINNED_ACTIONS = frozenset({"delete_all", "clear"})


class ItemsReader(Protocol):
    """What entity resolution reads: the user's own items (`ItemsRepository` satisfies it)."""

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]: ...
    def list_notes(self, thread_id: str) -> list[Note]: ...
    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]: ...
    def all_list_items(self, thread_id: str) -> list[ListItem]: ...


def _pinned_set(
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


# --- outcomes of a lookup ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Found:
    ids: list[str]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Ambiguous:
    candidates: list[DisambiguationCandidate]
    allow_multiple: bool
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Missing:
    message: str


_Lookup = _Found | _Ambiguous | _Missing


@dataclass(frozen=True)
class _Entity(Generic[T]):
    id: str
    label: str
    description: str | None
    item: T


# --- executor args ---------------------------------------------------------------------------------


def executor_args_for(step: PlanStep, semantic_args: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """The executor args of a targeted step: the resolver's args plus the chosen entity ids."""
    unique = list(dict.fromkeys(ids))
    key = (step.capability, step.action)
    args: dict[str, Any]
    if key in (("reminders", "update"), ("reminders", "delete")):
        # "just this one" / "the whole series" of a repeating reminder travels in its id.
        semantic_args, unique = recurring.with_scope(semantic_args, unique)
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
    else:
        raise ValueError(f"{step.capability}/{step.action} takes no entity ids")
    return ARGS_MODELS[key].model_validate(args).to_json()


# --- entities per kind -----------------------------------------------------------------------------


def _entities(
    target: TargetQuery, repository: ItemsReader, state: TurnState, now: datetime
) -> list[_Entity[Any]]:
    """The user's items of the target's kind: upcoming reminders, notes, or one list's items."""
    kind, thread_id = target.kind, state.thread_id
    language, tz = state.input.language, state.input.timezone
    if kind == "reminder":
        reminders = repository.list_upcoming_reminders(thread_id, now)
        return [_Entity(r.reminder_id, r.title, format_when(r.due_at, language, tz), r) for r in reminders]
    if kind == "note":
        notes = repository.list_notes(thread_id)
        return [_Entity(n.note_id, n.text, format_when(n.created_at, language, tz), n) for n in notes]
    items = repository.list_items(thread_id, target.list_name or "")
    return [_Entity(i.item_id, i.text, i.list_name, i) for i in items]


def _candidate(entity: _Entity[Any]) -> DisambiguationCandidate:
    due = getattr(entity.item, "due_at", None)  # a reminder's time: "the 6pm one", "the later one"
    data = {"at": due.isoformat()} if isinstance(due, datetime) else {}
    return DisambiguationCandidate(
        id=entity.id, label=entity.label, description=entity.description, data=data
    )


_NOUNS: dict[TargetKind, tuple[str, str]] = {
    "reminder": ("a reminder", "תזכורת"),
    "note": ("a note", "פתק"),
    "list_item": ("an item", "פריט"),
}
_NONE: dict[TargetKind, tuple[str, str]] = {
    "reminder": ("You don't have any upcoming reminders.", "אין לך תזכורות פעילות."),
    "note": ("You don't have any notes yet.", "אין לך עדיין פתקים."),
    "list_item": ("That list is empty.", "הרשימה הזאת ריקה."),
}


def _not_found_text(kind: TargetKind, words: Sequence[str], language: Language) -> str:
    noun_en, noun_he = _NOUNS[kind]
    shown = ", ".join(quote(w, language) for w in words)
    return say(
        language, f"I couldn't find {noun_en} matching {shown}.", f"לא מצאתי {noun_he} שמתאים ל{shown}."
    )


def _by_text(
    step: PlanStep, target: TargetQuery, entities: list[_Entity[Any]], language: Language
) -> _Lookup:
    text = target.text or ""
    multi = target.plural and step.action in _MULTI_ACTIONS
    if multi:
        ranked = rank(text, entities, lambda e: e.label)
        if not ranked:
            return _Missing(_not_found_text(target.kind, [text], language))
        if len(ranked) == 1:
            return _Found([ranked[0].item.id])
        # Every match, however many: the picker lists the first rows and "all" means all of them.
        return _Ambiguous([_candidate(s.item) for s in ranked], allow_multiple=True)
    outcome = match(text, entities, lambda e: e.label)
    if outcome.unique is not None:
        return _Found([outcome.unique.id])
    if not outcome.found:
        return _Missing(_not_found_text(target.kind, [text], language))
    return _Ambiguous([_candidate(s.item) for s in outcome.matches[:MAX_OPTIONS]], allow_multiple=False)


def _by_texts(target: TargetQuery, entities: list[_Entity[Any]], language: Language) -> _Lookup:
    """Several list items ("remove milk and eggs"): each word is matched on its own."""
    resolved: list[str] = []
    missing: list[str] = []
    ambiguous: dict[str, _Entity[Any]] = {}
    for text in target.texts:
        outcome = match(text, entities, lambda e: e.label)
        if outcome.unique is not None:
            resolved.append(outcome.unique.id)
        elif outcome.found:
            for scored in outcome.matches:
                ambiguous.setdefault(scored.item.id, scored.item)
        else:
            missing.append(text)
    for entity_id in resolved:
        ambiguous.pop(entity_id, None)
    if not resolved and not ambiguous:
        return _Missing(_not_found_text(target.kind, missing, language))
    extra = {"resolvedIds": resolved, "notFound": missing}
    if ambiguous:
        candidates = [_candidate(e) for e in list(ambiguous.values())[:MAX_OPTIONS]]
        return _Ambiguous(candidates, allow_multiple=True, extra=extra)
    return _Found(resolved, extra={"notFound": missing})


def _ref_ids(
    kind: TargetKind, latest_actions: Sequence[LatestAction], plural: bool = False
) -> list[str] | None:
    """Ids of the most recent latest action of the target's capability that names such entities;
    `plural` ("delete them", "both"): of every such action recorded with it (one request's)."""
    capability = _CAPABILITY_OF[kind]
    found: list[str] = []
    batch = None
    for action in latest_actions:
        if action.capability != capability or not action.external_ids:
            continue
        if batch is not None and action.request != batch:
            break
        ids: list[str] = []
        for key in _REF_KEYS[kind]:
            value = action.external_ids.get(key)
            if isinstance(value, str):
                ids.append(value)
            elif isinstance(value, list):
                ids.extend(value)
        if ids and not plural:
            return ids
        if ids:
            found += [i for i in ids if i not in found]
            batch = action.request
    return found or None


def _quoted_lookup(
    step: PlanStep,
    target: TargetQuery,
    entities: list[_Entity[Any]],
    quoted: Sequence[LatestAction],
    language: Language,
) -> _Lookup | None:
    """ "it/that" in a reply quoting one of Memo's messages: the items that message named come first.
    One still there -> it; several -> ask which (unless the words are plural: "delete them"); none of
    them left -> say so. None when the quoted message named no item of the target's kind."""
    ref_ids = _ref_ids(target.kind, quoted)
    if ref_ids is None:
        return None
    wanted = set(ref_ids)
    alive = [e for e in entities if e.id in wanted]
    if not alive:
        return _Missing(say(language, "I couldn't find that one anymore.", "לא מצאתי את זה יותר."))
    if len(alive) == 1 or (target.plural and step.action in _MULTI_ACTIONS):
        return _Found([e.id for e in alive])
    return _Ambiguous([_candidate(e) for e in alive[:MAX_OPTIONS]], allow_multiple=False)


def _lookup(
    step: PlanStep,
    target: TargetQuery,
    state: TurnState,
    repository: ItemsReader,
    now: datetime,
    latest_actions: Sequence[LatestAction],
    quoted: Sequence[LatestAction] = (),
    in_flight: bool = False,
) -> _Lookup:
    language = state.input.language
    spot = position(target.text or (target.texts[0] if len(target.texts) == 1 else ""))
    if spot is not None and target.kind in ("list_item", "reminder"):
        return _at_position(target, spot, state, repository, now)
    if target.kind == "list_item" and target.list_name in (None, "", UNNAMED_LIST):
        return _on_some_list(step, target, state, repository, now)
    entities = _entities(target, repository, state, now)
    if target.ref == "latest_action" and quoted:
        bound = _quoted_lookup(step, target, entities, quoted, language)
        if bound is not None:
            return bound
    if target.ref == "latest_action" and in_flight:
        return _Missing(
            say(
                language,
                "I'm still working on your previous request, so I'm not sure what you mean yet. "
                "Send that again in a few seconds.",
                "אני עוד מטפל בבקשה הקודמת שלך, אז עוד לא ברור לי למה התכוונת. שלחו את זה שוב בעוד כמה שניות.",
            )
        )
    if target.ref == "latest_action":
        ref_ids = _ref_ids(target.kind, latest_actions, target.plural)
        if ref_ids is not None:
            alive = [e for e in entities if e.id in set(ref_ids)]
            if not alive:
                return _Missing(say(language, "I couldn't find that one anymore.", "לא מצאתי את זה יותר."))
            if len(alive) == 1 or (target.plural and step.action in _MULTI_ACTIONS):
                return _Found([e.id for e in alive])
            if target.place is not None:  # "the last one": in the order that request named them
                named = [i for i in ref_ids if i in {e.id for e in alive}]
                return _Found([named[target.place]])
            # "delete it" after one request made several: which one is asked, never all on a guess;
            # the answer may still name several of those shown ("both").
            return _Ambiguous(
                [_candidate(e) for e in alive[:MAX_OPTIONS]], allow_multiple=step.action in _MULTI_ACTIONS
            )
        if not target.text and not target.texts:
            return _Missing(
                say(
                    language,
                    "I'm not sure what you're referring to.",
                    "לא בטוח למה התכוונת.",
                )
            )
    if not entities:
        en, he = _NONE[target.kind]
        return _Missing(say(language, en, he))
    if target.texts:
        return _by_texts(target, entities, language)
    found = _by_text(step, target, entities, language)
    if isinstance(found, _Missing) and target.kind == "reminder" and target.text:
        # "cancel the 8pm one", "זו של שמונה בערב": no title has those words, but one reminder has that time.
        at = _by_time(target.text, entities, state, now)
        if at is not None:
            return _Found([at])
        within = _in_part_of_day(target.text, entities, state.input.timezone)
        if len(within) == 1:
            return _Found([within[0].id])
        if within:  # "the evening one" with two that evening: which one is asked
            return _Ambiguous([_candidate(e) for e in within[:MAX_OPTIONS]], allow_multiple=False)
    return found


#: "the morning one", "זו של הערב": a part of the day, as the hours it spans (local, end excluded).
_PARTS = (
    (re.compile(r"^(?:the\s+)?morning$|^(?:של\s+)?ה?בוקר$", re.I), 5, 12),
    (re.compile(r"^(?:the\s+)?afternoon$|^(?:של\s+)?(?:אחר\s+הצהריים|אחה\"צ)$", re.I), 12, 17),
    (re.compile(r"^(?:the\s+)?evening$|^(?:של\s+)?ה?ערב$", re.I), 17, 21),
    (re.compile(r"^(?:the\s+)?night$|^(?:של\s+)?ה?לילה$", re.I), 21, 29),
)


def _in_part_of_day(words: str, entities: list[_Entity[Any]], timezone: str) -> list[_Entity[Any]]:
    """The reminders due in the part of the day the words name ("the morning one"); [] when the
    words name none."""
    zone = ZoneInfo(timezone)
    for pattern, first, end in _PARTS:
        if pattern.match(words.strip()):
            hours = {h % 24 for h in range(first, end)}
            return [
                e
                for e in entities
                if isinstance(e.item, Reminder) and e.item.due_at.astimezone(zone).hour in hours
            ]
    return []


def _by_time(words: str, entities: list[_Entity[Any]], state: TurnState, now: datetime) -> str | None:
    """The id of the one reminder whose time the words name (`memo.hitl.by_time`), or None."""
    language = state.input.language
    candidates = [_candidate(e) for e in entities]
    ways = (words, f"ב{words}") if language == "he" else (words, f"in the {words}")
    for way in ways:
        index = answer_by_time(way, candidates, now=now, timezone=state.input.timezone, language=language)
        if index is not None:
            return entities[index].id
    return None


# --- the node ----------------------------------------------------------------------------------------


def _failed(state: TurnState, step: PlanStep, code: str, message: str) -> TurnState:
    result = ExecutionResult(
        success=False, capability=step.capability, action=step.action, error_code=code, error=message
    )
    return state.with_execution_result(step.id, result.model_dump(mode="json"))


def _at_position(
    target: TargetQuery, spot: int, state: TurnState, repository: ItemsReader, now: datetime
) -> _Lookup:
    """ "The second item", "הפריט האחרון": the item at that place in the order Memo shows them (a
    list as its items were added, reminders soonest first). A list left unnamed is the one list
    that has items; with several, which list is asked, never guessed."""
    language = state.input.language
    if target.kind == "list_item" and target.list_name in (None, "", UNNAMED_LIST):
        names = list(_lists_with_items(state, repository).values())
        if len(names) != 1:
            if not names:
                return _Missing(say(language, "Your lists are empty.", "הרשימות שלך ריקות."))
            listed = ", ".join(sorted(names))
            return _Missing(
                say(
                    language,
                    f"Which list do you mean? You have: {listed}. "
                    f"For example: “remove the first item from my {names[0]} list”.",
                    f"לאיזו רשימה התכוונת? יש לך: {listed}. למשל: „תוריד את הפריט הראשון מרשימת {names[0]}”.",
                )
            )
        target = target.model_copy(update={"list_name": names[0]})
    entities = _entities(target, repository, state, now)
    if -len(entities) <= spot < len(entities):
        found = entities[spot]
        return _Found([found.id], extra={"listName": target.list_name} if target.kind == "list_item" else {})
    if not entities:
        if target.kind == "reminder":
            return _Missing(say(language, *_NONE["reminder"]))
        return _Missing(
            say(language, f"Your {target.list_name} list is empty.", f"רשימת {target.list_name} ריקה.")
        )
    many = len(entities)
    if target.kind == "reminder":
        return _Missing(
            say(
                language,
                "You have only 1 upcoming reminder."
                if many == 1
                else f"You have only {many} upcoming reminders.",
                "יש לך רק תזכורת קרובה אחת." if many == 1 else f"יש לך רק {many} תזכורות קרובות.",
            )
        )
    return _Missing(
        say(
            language,
            f"Your {target.list_name} list has only {'1 item' if many == 1 else f'{many} items'}.",
            f"ברשימת {target.list_name} יש רק {'פריט אחד' if many == 1 else f'{many} פריטים'}.",
        )
    )


def _lists_with_items(state: TurnState, repository: ItemsReader) -> dict[str, str]:
    """Each list that has items, by its key, with the name it was first written under: synonyms
    ("shopping", "קניות") are one list."""
    names: dict[str, str] = {}
    for item in repository.all_list_items(state.thread_id):
        names.setdefault(list_key(item.list_name), item.list_name)
    return names


def _on_some_list(
    step: PlanStep, target: TargetQuery, state: TurnState, repository: ItemsReader, now: datetime
) -> _Lookup:
    """Items named without their list: the one list that has them; none, or several lists, is said
    (the person names the list), never guessed."""
    language = state.input.language
    names = list(_lists_with_items(state, repository).values())
    holding: list[tuple[str, _Found | _Ambiguous]] = []
    for name in names:
        found = _lookup(step, target.model_copy(update={"list_name": name}), state, repository, now, ())
        if isinstance(found, _Ambiguous) or (isinstance(found, _Found) and found.ids):
            holding.append((name, found))
    words = ", ".join(target.texts) or target.text or ""
    what = quote(words, language)
    if not holding:
        reminder = rank(words, repository.list_upcoming_reminders(state.thread_id, now), lambda r: r.title)
        if reminder:
            # "remove the dentist" meant a reminder: say how to ask for that; nothing is deleted on a guess.
            title = quote(reminder[0].item.title, language)
            return _Missing(
                say(
                    language,
                    f"{what} isn't on your lists. Did you mean the reminder {title}? "
                    f"To delete it, say “delete the reminder {reminder[0].item.title}”.",
                    f"{what} לא ברשימות שלך. התכוונת לתזכורת {title}? "
                    f"כדי למחוק אותה, כתבו „תמחק את התזכורת {reminder[0].item.title}”.",
                )
            )
        return _Missing(
            say(language, f"I couldn't find {what} on your lists.", f"לא מצאתי את {what} ברשימות שלך.")
        )
    if len(holding) > 1:
        lists = ", ".join(sorted(name for name, _ in holding))
        return _Missing(
            say(
                language,
                f"{what} is on more than one list ({lists}). Which list should I take it off?",
                f"{what} מופיע ביותר מרשימה אחת ({lists}). מאיזו רשימה להוריד?",
            )
        )
    name, found = holding[0]
    return replace(found, extra={**found.extra, "listName": name})


def _list_to_add_to(state: TurnState, repository: ItemsReader, args: dict[str, Any]) -> str | _Missing:
    """ "Put bananas on the list": the one list there is. With none or several, the person is asked
    to name it (nothing is added to a list Memo would have to guess)."""
    language = state.input.language
    names = _lists_with_items(state, repository)
    if len(names) == 1:
        return next(iter(names.values()))
    items = args.get("items")
    what = ", ".join(str(i) for i in items) if isinstance(items, list) and items else ""
    listed = ", ".join(sorted(names.values()))
    lists_en = f" You have: {listed}." if names else ""
    lists_he = f" יש לך: {listed}." if names else ""
    return _Missing(
        say(
            language,
            f"Which list should I add {what} to?{lists_en} For example: “add {what} to my shopping list”.",
            f"לאיזו רשימה להוסיף את {what}?{lists_he} למשל: „תוסיף {what} לרשימת הקניות”.",
        )
    )


def _list_to_clear(state: TurnState, repository: ItemsReader) -> str | _Missing:
    """ "Clear the list": the one list that has items. Several are named and the person says which
    (nothing is cleared on a guess); none is said."""
    language = state.input.language
    names = _lists_with_items(state, repository)
    if not names:
        return _Missing(say(language, "Your lists are already empty.", "הרשימות שלך כבר ריקות."))
    if len(names) > 1:
        listed = ", ".join(sorted(names.values()))
        return _Missing(
            say(
                language,
                f"You have more than one list ({listed}). Which one should I clear? "
                f"For example: “clear the {next(iter(names.values()))} list”.",
                f"יש לך יותר מרשימה אחת ({listed}). איזו לנקות? "
                f"למשל: „תנקה את רשימת {next(iter(names.values()))}”.",
            )
        )
    return next(iter(names.values()))


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
    log = {"traceId": state.trace_id, "threadId": mask_phone(state.thread_id)}
    resolved: list[str] = []
    not_found: list[str] = []
    failed: list[str] = []
    for step in output.plan:
        if step.id in state.executor_args or step.id in state.execution_results:
            continue
        open_question = state.disambiguation
        if open_question is not None and open_question.resolver_step_id == step.id:
            continue  # waiting for the user's choice
        raw = state.resolver_results.get(step.id)
        if raw is None:
            raise ValueError(f"step {step.id} has no resolver result: run resolve_all first")
        result = ResolverResult.from_json(raw)
        if result.error_code is not None:
            state = _failed(state, step, result.error_code, result.error or "")
            failed.append(step.id)
            continue
        if result.target is None:
            args = dict(result.args)
            if (
                step.capability == "lists"
                and step.action in ("clear", "add")
                and args.get("listName") == UNNAMED_LIST
            ):
                named = (
                    _list_to_clear(state, repository)
                    if step.action == "clear"
                    else _list_to_add_to(state, repository, args)
                )
                if isinstance(named, _Missing):
                    state = _failed(state, step, NOT_FOUND, named.message)
                    not_found.append(step.id)
                    continue
                args["listName"] = named
            if step.action in _PINNED_ACTIONS:
                args.update(_pinned_set(step, state, repository, now, args))
            state = state.with_executor_args(step.id, args)
            resolved.append(step.id)
            continue
        found = _lookup(step, result.target, state, repository, now, latest_actions, quoted, in_flight)
        semantic = {k: v for k, v in result.args.items() if k != "within"}
        if isinstance(found, _Found) and "within" in result.args:
            kept, outside = recurring.next_time_within(
                found.ids,
                result.args["within"],
                recurring.upcoming(repository, state.thread_id, now),
                language=state.input.language,
                timezone=state.input.timezone,
            )
            found = _Found(kept, extra=found.extra) if kept else _Missing(outside or "")
        scope_candidates = (
            recurring.scope_question(
                step,
                {**semantic, **found.extra},
                found.ids,
                recurring.upcoming(repository, state.thread_id, now),
                language=state.input.language,
                timezone=state.input.timezone,
            )
            if isinstance(found, _Found) and step.capability == "reminders"
            else None
        )
        if scope_candidates is not None and isinstance(found, _Found):
            # A repeating reminder: "this one or the whole series?" (a single choice).
            found = _Ambiguous(candidates=scope_candidates, allow_multiple=False, extra=found.extra)
            scope_kind: DisambiguationKind | None = "recurring_scope"
        else:
            scope_kind = None
        if isinstance(found, _Found):
            args = executor_args_for(step, {**semantic, **found.extra}, found.ids)
            state = state.with_executor_args(step.id, args)
            resolved.append(step.id)
            logger.info("ENTITY_RESOLVED", extra={**log, "stepId": step.id, "count": len(found.ids)})
        elif isinstance(found, _Missing):
            state = _failed(state, step, NOT_FOUND, found.message)
            not_found.append(step.id)
            logger.info("ENTITY_NOT_FOUND", extra={**log, "stepId": step.id})
        elif open_question is None:
            kind: DisambiguationKind = scope_kind or ("pick_many" if found.allow_multiple else "pick_one")
            disambiguation = Disambiguation(
                resolver_step_id=step.id,
                candidates=found.candidates,
                allow_multiple=found.allow_multiple,
                disambiguation_kind=kind,
                original_args={**semantic, **found.extra},
            )
            state = state.with_disambiguation(disambiguation)
            logger.info(
                "ENTITY_DISAMBIGUATION",
                extra={
                    **log,
                    "stepId": step.id,
                    "candidates": len(found.candidates),
                    "allowMultiple": found.allow_multiple,
                },
            )
    return EntityResolution(
        state=state, resolved=tuple(resolved), not_found=tuple(not_found), failed=tuple(failed)
    )


# --- resume: apply the user's choice ---------------------------------------------------------------


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
    context = pending.context if pending is not None else None
    if context is not None and context.candidates and context.resolver_step_id:
        step_id = context.resolver_step_id
        candidates = list(context.candidates)
        allow_multiple = bool(context.allow_multiple)
        original_args = dict(context.original_args or {})
    elif state.disambiguation is not None:
        step_id = state.disambiguation.resolver_step_id
        candidates = list(state.disambiguation.candidates)
        allow_multiple = state.disambiguation.allow_multiple
        original_args = dict(state.disambiguation.original_args)
    else:
        raise SelectionError("no disambiguation to apply a selection to")
    chosen = (
        list(selected_ids)
        if selected_ids is not None
        else selected_ids_from_results(state, pending.hitl_id if pending is not None else None)
    )
    chosen = list(dict.fromkeys(chosen))
    offered = {c.id for c in candidates}
    if not chosen:
        raise SelectionError("no candidate was selected")
    if any(i not in offered for i in chosen):
        raise SelectionError("a selected id was not among the candidates")
    if len(chosen) > 1 and not allow_multiple:
        raise SelectionError("several candidates selected for a single choice")
    output = state.planner_output
    step = output.step(step_id) if output is not None else None
    if step is None:
        raise SelectionError(f"step {step_id} is not in the plan")
    order = {c.id: index for index, c in enumerate(candidates)}
    chosen.sort(key=order.__getitem__)
    args = executor_args_for(step, original_args, chosen)
    logger.info(
        "ENTITY_SELECTION_APPLIED",
        extra={
            "traceId": state.trace_id,
            "threadId": mask_phone(state.thread_id),
            "stepId": step_id,
            "count": len(chosen),
        },
    )
    return state.with_executor_args(step_id, args).with_disambiguation(None)
