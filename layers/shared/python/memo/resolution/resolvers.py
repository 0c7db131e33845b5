"""Resolvers: one per capability, from a plan step to semantic args (no storage access).

A resolver reads the step's `constraints`/`changes` (the planner conventions of
`memo.planner.base`) into a typed `ResolverResult`:
- `args`: the semantic args in the executor's JSON shape (camelCase), without entity ids;
- `target`: what entity resolution must find among the user's items (text, several texts for a
  list removal, or `targetRef: latest_action` for "it/that"), or None when the step needs no
  target (create / save / add / list / show / clear / delete_all) and `args` are already the
  executor args;
- `errorCode`/`error`: a step that cannot be performed as planned (no time for a reminder, an
  unknown action); the error is user-facing, in the turn's language.
The result is stored in `state.resolverResults[stepId]` together with the step's fingerprint,
so a resume reuses it and a changed step is resolved again.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from memo.capabilities.common import INVALID_ARGS, UNSUPPORTED_ACTION, say
from memo.capabilities.dispatch import ARGS_MODELS
from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import PlanStep, TurnInput
from memo.text.language import Language
from memo.text.matching import is_plural

TargetKind = Literal["reminder", "note", "list_item"]
MISSING_TIME = "MISSING_TIME"
MISSING_DETAILS = "MISSING_DETAILS"
UNSUPPORTED_CAPABILITY = "UNSUPPORTED_CAPABILITY"


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True, frozen=True, extra="forbid"
    )


class TargetQuery(_Model):
    """What entity resolution looks for: `text` (or `texts`, one per list item) and/or `ref`."""

    kind: TargetKind
    text: str | None = None
    texts: list[str] = Field(default_factory=list)
    ref: Literal["latest_action"] | None = None
    plural: bool = False
    list_name: str | None = None
    # "the last one" (`refPlace: last`): of the several items the latest action named, the last.
    place: int | None = None
    # "both" (`refCount: 2`): the latest that many items, even when two requests made them.
    count: int | None = None


class ResolverResult(_Model):
    step_id: str
    capability: str
    action: str
    fingerprint: str
    args: dict[str, Any] = Field(default_factory=dict)
    target: TargetQuery | None = None
    error_code: str | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_code is None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ResolverResult:
        return cls.model_validate(raw)


class Resolver(Protocol):
    capability: str

    def resolve(self, step: PlanStep, inp: TurnInput) -> ResolverResult: ...


# --- helpers -----------------------------------------------------------------------------------


def _result(step: PlanStep, **fields: Any) -> ResolverResult:
    return ResolverResult(
        step_id=step.id,
        capability=step.capability,
        action=step.action,
        fingerprint=step.fingerprint(),
        **fields,
    )


def _ready(step: PlanStep, args: dict[str, Any], language: Language) -> ResolverResult:
    """A step that needs no entity resolution: its args are the executor args, checked here
    against the action's args model so a malformed plan fails now, not in the executor."""
    model = ARGS_MODELS.get((step.capability, step.action))
    if model is None:
        return _unsupported(step, language)
    try:
        checked = model.model_validate(args).to_json()
    except ValidationError:
        return _error(
            step, INVALID_ARGS, language, "I didn't get all the details for that.", "חסרים לי פרטים בשביל זה."
        )
    return _result(step, args=checked)


def _error(step: PlanStep, code: str, language: Language, en: str, he: str) -> ResolverResult:
    return _result(step, error_code=code, error=say(language, en, he))


def _unsupported(step: PlanStep, language: Language) -> ResolverResult:
    return _error(
        step, UNSUPPORTED_ACTION, language, "I can't do that yet.", "אני עדיין לא יודע לעשות את זה."
    )


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    return None


def _aware(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _day(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _target(step: PlanStep, kind: TargetKind, **extra: Any) -> TargetQuery | None:
    """The step's target: `constraints.target` text and/or `constraints.targetRef`."""
    c = step.constraints
    text = _text(c.get("target"))
    ref = "latest_action" if c.get("targetRef") == "latest_action" else None
    if text is None and ref is None:
        return None
    plural = c.get("plural") is True or bool(text and is_plural(text))
    return TargetQuery(
        kind=kind, text=text, ref=ref, plural=plural, place=_ref_place(c), count=_ref_count(c), **extra
    )


def _ref_count(constraints: dict[str, Any]) -> int | None:
    """ "both": how many of the latest items (2 to 10), else None."""
    count = constraints.get("refCount")
    return count if isinstance(count, int) and not isinstance(count, bool) and 1 < count <= 10 else None


def _ref_place(constraints: dict[str, Any]) -> int | None:
    return -1 if constraints.get("refPlace") == "last" else None


def _no_target(step: PlanStep, language: Language, en: str, he: str) -> ResolverResult:
    return _error(step, MISSING_DETAILS, language, en, he)


# --- reminders ---------------------------------------------------------------------------------


def _scope(constraints: dict[str, Any]) -> dict[str, Any]:
    """Which part of a repeating reminder the words named ("just this one" / "the whole series");
    entity resolution turns it into scoped ids (`memo.resolution.recurring`), or asks."""
    scope = constraints.get("scope")
    return {"scope": scope} if scope in ("occurrence", "series") else {}


def _within(constraints: dict[str, Any]) -> dict[str, Any]:
    """The days a skip named ("skip next week"): the reminder must come on them (checked by entity
    resolution, which passes them on to the executor as `skipFrom` / `skipUntil`)."""
    within = constraints.get("within")
    if (
        constraints.get("scope") == "occurrence"
        and isinstance(within, dict)
        and _day(within.get("from")) is not None
        and _day(within.get("until")) is not None
    ):
        return {"within": {"from": within["from"], "until": within["until"]}}
    return {}


def _times(constraints: dict[str, Any]) -> dict[str, Any]:
    """How many next times a skip named ("skip the next two vitamins"): entity resolution finds the
    days they come on (`memo.resolution.recurring.next_times`)."""
    times = constraints.get("times")
    if constraints.get("scope") == "occurrence" and "within" not in constraints and isinstance(times, int):
        return {"times": times} if 2 <= times <= MOST_TIMES_SKIPPED else {}
    return {}


#: The most next times one skip names by their number ("skip the next 9").
MOST_TIMES_SKIPPED = 9

#: The most days one skip names (`DeleteRemindersArgs`): "skip the gym for 99 weeks" is refused.
MOST_SKIPPED_DAYS = 366


def _days_between(within: dict[str, str]) -> int:
    return (date.fromisoformat(within["until"]) - date.fromisoformat(within["from"])).days


class ReminderResolver:
    capability = "reminders"

    def resolve(self, step: PlanStep, inp: TurnInput) -> ResolverResult:
        lang = inp.language
        if step.action == "create":
            return _reminder_create(step, lang)
        if step.action == "list":
            return _ready(step, _reminder_listing(step.constraints), lang)
        if step.action == "update":
            return _reminder_update(step, lang)
        if step.action == "delete":
            target = _target(step, "reminder")
            if target is None:
                return _no_target(step, lang, "Which reminder should I delete?", "איזו תזכורת למחוק?")
            c = step.constraints
            within = _within(c)
            if within and _days_between(within["within"]) > MOST_SKIPPED_DAYS:
                return _error(
                    step,
                    INVALID_ARGS,
                    lang,
                    "I can skip at most a year of days at once, so I haven't skipped anything.",
                    "אפשר לדלג על שנה לכל היותר בבת אחת, אז לא דילגתי על כלום.",
                )
            return _result(step, args={**_scope(c), **within, **_times(c)}, target=target)
        if step.action == "delete_all":
            return _ready(step, {}, lang)
        return _unsupported(step, lang)


def _reminder_create(step: PlanStep, lang: Language) -> ResolverResult:
    c, ch = step.constraints, step.changes
    title = _text(c.get("title")) or _text(ch.get("title"))
    when = _aware(c.get("when") or ch.get("when"))
    if title is None:
        return _no_target(step, lang, "What should I remind you about?", "על מה להזכיר לך?")
    if when is None:
        return _error(step, MISSING_TIME, lang, "When should I remind you?", "מתי להזכיר לך?")
    create_args: dict[str, Any] = {"title": title, "when": when.isoformat()}
    recurrence = _text(c.get("recurrence"))
    if recurrence is not None:
        create_args["recurrence"] = recurrence  # repeats: `when` is its first time
    return _ready(step, create_args, lang)


def _reminder_listing(c: dict[str, Any]) -> dict[str, Any]:
    day, until = _day(c.get("day")), _day(c.get("until"))
    shown: dict[str, Any] = {"day": day.isoformat()} if day else {}
    if day is not None and until is not None and until > day:
        shown["until"] = until.isoformat()  # "this week": the days from `day` to `until`
    about = _text(c.get("about"))
    if about is not None:
        shown["about"] = about  # "when is the rent reminder?": the ones named "rent"
    if c.get("howMany") is True:
        shown["howMany"] = True  # "how many reminders do I have?"
    first = c.get("first")
    if isinstance(first, int) and not isinstance(first, bool) and 1 <= first <= 10:
        shown["first"] = first  # "what's my next reminder?": the next one only
    return shown


def _reminder_update(step: PlanStep, lang: Language) -> ResolverResult:
    args = _reminder_changes(step.changes)
    if not args:
        return _error(step, INVALID_ARGS, lang, "What should I change in the reminder?", "מה לשנות בתזכורת?")
    target = _target(step, "reminder")
    if target is None:
        return _no_target(step, lang, "Which reminder should I change?", "איזו תזכורת לשנות?")
    if target.ref is None and target.text and _SEVERAL.search(target.text):
        # "move all my reminders to wednesday": a change is made to one reminder, never to whichever
        # one the words happen to match best ("all" is in "call mom").
        return _no_target(
            step,
            lang,
            "I change one reminder at a time: say which one, e.g. “move the dentist reminder to Wednesday”.",
            "אני משנה תזכורת אחת בכל פעם: כתבו איזו, למשל „תזיז את התזכורת של רופא השיניים ליום רביעי”.",
        )
    return _result(step, args={**args, **_scope(step.constraints)}, target=target)


#: Words that ask for several reminders at once.
_SEVERAL = re.compile(
    r"(?<![\w-])(?:all|every|everything|each|both)(?![\w-])|(?:^|\s)(?:כל|כולן|שתיהן)(?=\s|$)", re.I
)


def _reminder_changes(ch: dict[str, Any]) -> dict[str, Any]:
    """The new time (a full one, a shift, a time of day or a day alone, or a repetition alone) and
    the new title."""
    args: dict[str, Any] = {}
    when = _aware(ch.get("when"))
    title = _text(ch.get("title"))
    if when is not None:
        args["when"] = when.isoformat()
        repeats = _text(ch.get("recurrence"))
        if repeats is not None:
            args["recurrence"] = repeats  # it repeats from `when` on
    elif isinstance(ch.get("shiftMinutes"), int) and not isinstance(ch.get("shiftMinutes"), bool):
        args["shiftMinutes"] = ch["shiftMinutes"]  # "push it by an hour": from its own time
    elif _text(ch.get("time")) or _day(ch.get("day")):
        # A time alone keeps each reminder's day; a day alone keeps its time of day.
        if _text(ch.get("time")):
            args["time"] = _text(ch.get("time"))
            if ch.get("eitherHalf") is True:
                args["eitherHalf"] = True  # "to 9": 21:00 when 9:00 has passed on its day
        day_only = _day(ch.get("day"))
        if day_only is not None:
            args["day"] = day_only.isoformat()
    elif _text(ch.get("recurrence")):
        args["recurrence"] = _text(ch.get("recurrence"))  # "to mondays": at its own time of day
    elif _day(ch.get("endsOn")):
        args["endsOn"] = str(ch["endsOn"])  # "stop the vitamins after friday": its last day
    elif _text(ch.get("hours")):
        args["hours"] = _text(ch.get("hours"))  # "make it from 10 to 6": a series' new hours
    if title is not None:
        args["title"] = title
    return args


# --- notes -------------------------------------------------------------------------------------


class NoteResolver:
    capability = "notes"

    def resolve(self, step: PlanStep, inp: TurnInput) -> ResolverResult:
        lang = inp.language
        c, ch = step.constraints, step.changes
        if step.action == "save":
            text = _text(ch.get("text")) or _text(c.get("text"))
            if text is None:
                return _no_target(step, lang, "What should the note say?", "מה לכתוב בפתק?")
            return _ready(step, {"text": text}, lang)
        if step.action == "search":
            return _ready(step, {"query": _text(c.get("query")) or ""}, lang)
        if step.action == "delete":
            target = _target(step, "note")
            if target is None:
                return _no_target(step, lang, "Which note should I delete?", "איזה פתק למחוק?")
            return _result(step, target=target)
        if step.action == "update":
            target = _target(step, "note")
            if target is None:
                return _no_target(step, lang, "Which note should I change?", "איזה פתק לשנות?")
            text = _text(ch.get("text")) or _text(c.get("text"))
            if text is None:
                return _no_target(step, lang, "What should the note say?", "מה לכתוב בפתק?")
            # "whole": the question asked before showed `text` as the whole note (`memo.capabilities.notes`).
            whole = {"whole": True} if ch.get("whole") is True else {}
            # "append": `text` goes at the note's end ("add candles to my party note").
            whole |= {"append": True} if ch.get("append") is True else {}
            return _result(step, args={"text": text, **whole}, target=target)
        if step.action == "delete_all":
            return _ready(step, {}, lang)
        return _unsupported(step, lang)


# --- lists -------------------------------------------------------------------------------------


def _items(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [t for t in (_text(v) for v in value) if t]


#: What a planner may put where a list's name goes when the person named none.
_NO_LIST_NAME = frozenset(
    {"my", "the", "our", "list", "my list", "the list", "רשימה", "הרשימה", "הרשימה שלי"}
)


class ListResolver:
    capability = "lists"

    def resolve(self, step: PlanStep, inp: TurnInput) -> ResolverResult:
        lang = inp.language
        c, ch = step.constraints, step.changes
        list_name = _text(c.get("listName"))
        if step.action == "show_all":
            return _ready(step, {}, lang)
        if step.action not in ("add", "remove", "update", "show", "clear"):
            return _unsupported(step, lang)
        if list_name is None or list_name.casefold() in _NO_LIST_NAME:
            # "what's on my list?", "take milk off the list", "put bananas on the list": the list is
            # found when resolved (`memo.resolution.list_names`), or the person is asked to name it.
            list_name = UNNAMED_LIST
        if step.action == "add":
            items = _items(ch.get("items") or c.get("items"))
            if not items:
                return _no_target(step, lang, "What should I add to the list?", "מה להוסיף לרשימה?")
            return _ready(step, {"listName": list_name, "items": items}, lang)
        if step.action == "remove" and c.get("targetRef") == "latest_action" and list_name != UNNAMED_LIST:
            # "delete it" / "take them off" after items were added: those items (their ids).
            ref = TargetQuery(
                kind="list_item",
                ref="latest_action",
                plural=c.get("plural") is True,
                list_name=list_name,
                place=_ref_place(c),
                count=_ref_count(c),
            )
            return _result(step, args={"listName": list_name}, target=ref)
        if step.action == "remove":
            texts = _items(ch.get("items") or c.get("items")) or _items(c.get("target"))
            if not texts:
                return _no_target(step, lang, "What should I remove from the list?", "מה להוריד מהרשימה?")
            target = TargetQuery(
                kind="list_item",
                texts=texts,
                plural=len(texts) > 1 or any(is_plural(t) for t in texts),
                list_name=list_name,
            )
            return _result(step, args={"listName": list_name}, target=target)
        if step.action == "update":
            # "change eggs to 12 eggs": the one item the words name, and its new words.
            old, new = _text(c.get("target")), _text(ch.get("text"))
            if old is None or new is None:
                return _no_target(step, lang, "What should I change on the list?", "מה לשנות ברשימה?")
            target = TargetQuery(kind="list_item", texts=[old], plural=False, list_name=list_name)
            return _result(step, args={"listName": list_name, "text": new}, target=target)
        shown: dict[str, Any] = {"listName": list_name}
        if step.action == "show" and c.get("howMany") is True:
            shown["howMany"] = True  # "how many things are on my list?"
        return _ready(step, shown, lang)


def default_resolvers() -> dict[str, Resolver]:
    """The resolvers of Memo's capabilities, by capability name."""
    resolvers: list[Resolver] = [ReminderResolver(), NoteResolver(), ListResolver()]
    return {r.capability: r for r in resolvers}


def unsupported_capability(step: PlanStep, language: Language) -> ResolverResult:
    return _error(
        step,
        UNSUPPORTED_CAPABILITY,
        language,
        "I can't do that here yet.",
        "את זה אני עדיין לא יודע לעשות כאן.",
    )
