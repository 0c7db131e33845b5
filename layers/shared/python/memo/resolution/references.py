"""Targets named by reference: "it", "that", "them", "זה" (`targetRef: latest_action`).

They bind first to the items named by the message of Memo's the user quoted (a WhatsApp reply),
then to the most recent latest action of the target's capability that named such items. Only
items that still exist count; several of them are asked about, never all taken on a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memo.capabilities.common import TAKES_AWAY, say
from memo.domain import LatestAction, PlanStep
from memo.hitl.templates import MAX_OPTIONS
from memo.resolution.candidates import MULTI_ACTIONS, Ambiguous, Entity, Found, Lookup, Missing, candidate
from memo.resolution.resolvers import TargetKind, TargetQuery
from memo.text.language import Language
from memo.text.wording import quote

#: Which ids of a latest action's externalIds name entities of each kind.
_REF_KEYS: dict[TargetKind, tuple[str, ...]] = {
    "reminder": ("reminderId", "reminderIds"),
    "note": ("noteId", "noteIds"),
    "list_item": ("listItemIds", "listItemId"),
}
_CAPABILITY_OF: dict[TargetKind, str] = {"reminder": "reminders", "note": "notes", "list_item": "lists"}


def _gone(language: Language) -> Missing:
    return Missing(say(language, "I couldn't find that one anymore.", "לא מצאתי את זה יותר."))


def ref_ids(
    kind: TargetKind, latest_actions: Sequence[LatestAction], plural: bool = False, count: int | None = None
) -> list[str] | None:
    """Ids of the most recent latest action of the target's capability that names such entities;
    `plural` ("delete them"): of every such action recorded with it (one request's); `count`
    ("both": 2): the latest that many, from as many requests as it takes."""
    capability = _CAPABILITY_OF[kind]
    found: list[str] = []
    batch = None
    for action in latest_actions:
        if action.capability != capability or not action.external_ids:
            continue
        if count is not None and len(found) >= count:
            break
        if count is None and batch is not None and action.request != batch:
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


def quoted_lookup(
    step: PlanStep,
    target: TargetQuery,
    entities: list[Entity[Any]],
    quoted: Sequence[LatestAction],
    language: Language,
) -> Lookup | None:
    """ "it/that" in a reply quoting one of Memo's messages: the items that message named come first.
    One still there -> it; several -> ask which (unless the words are plural: "delete them"); none of
    them left -> say so. None when the quoted message named no item of the target's kind."""
    named = ref_ids(target.kind, quoted)
    if named is None:
        return None
    wanted = set(named)
    alive = [e for e in entities if e.id in wanted]
    if not alive:
        return _gone(language)
    if len(alive) == 1 or (target.plural and step.action in MULTI_ACTIONS):
        return Found([e.id for e in alive])
    if target.place is not None:  # "move the last one" quoting a listing: the last it showed
        return Found([[i for i in named if i in {e.id for e in alive}][target.place]])
    return Ambiguous([candidate(e) for e in alive[:MAX_OPTIONS]], allow_multiple=False)


def by_reference(
    step: PlanStep,
    target: TargetQuery,
    entities: list[Entity[Any]],
    language: Language,
    *,
    latest_actions: Sequence[LatestAction],
    quoted: Sequence[LatestAction],
    in_flight: bool,
) -> Lookup | None:
    """What "it/that" binds to: the quoted message's items, else the latest action's. None when
    neither names such items and the target has words of its own to be matched by."""
    if quoted:
        bound = quoted_lookup(step, target, entities, quoted, language)
        if bound is not None:
            return bound
    if in_flight:
        return Missing(
            say(
                language,
                "I'm still working on your previous request, so I'm not sure what you mean yet. "
                "Send that again in a few seconds.",
                "אני עוד מטפל בבקשה הקודמת שלך, אז עוד לא ברור לי למה התכוונת. שלחו את זה שוב בעוד כמה שניות.",
            )
        )
    named = ref_ids(target.kind, latest_actions, target.plural or target.count is not None, target.count)
    if named is not None:
        if _deleted_just_now(target, latest_actions) and not {e.id for e in entities} & set(named):
            # "cancel it" right after a delete: it is gone already; "undo" is what brings it back.
            return Missing(
                say(
                    language,
                    "That's already deleted. To bring it back, say “undo”.",
                    "זה כבר נמחק. כדי להחזיר את זה, כתבו „בטל את המחיקה”.",
                )
            )
        return _latest(step, target, entities, named, language)
    if not target.text and not target.texts:
        return Missing(say(language, "I'm not sure what you're referring to.", "לא בטוח למה התכוונת."))
    return None


def _deleted_just_now(target: TargetQuery, latest_actions: Sequence[LatestAction]) -> bool:
    """The latest action on the target's kind took its items away."""
    capability = _CAPABILITY_OF[target.kind]
    latest = next((a for a in latest_actions if a.capability == capability and a.external_ids), None)
    return latest is not None and latest.action in TAKES_AWAY


def _latest(
    step: PlanStep, target: TargetQuery, entities: list[Entity[Any]], named: list[str], language: Language
) -> Lookup:
    """The items the latest action named that still exist."""
    alive = [e for e in entities if e.id in set(named)]
    if not alive:
        return _gone(language)
    if target.count is not None and len(alive) < min(target.count, len(named)):
        # "remove both" when one of the two is gone already: never the one left, silently
        left = quote(candidate(alive[0]).label, language)
        return Missing(
            say(
                language,
                f"Only {left} is still there; the other one is gone already, so I haven't done anything."
                " Say its name to go on.",
                f"רק {left} עוד נשאר; השני כבר לא קיים, אז לא עשיתי כלום. כתבו את השם שלו כדי להמשיך.",
            )
        )
    if len(alive) == 1 or (target.plural and step.action in MULTI_ACTIONS):
        return Found([e.id for e in alive])
    if target.place is not None:  # "the last one": in the order that request named them
        in_order = [i for i in named if i in {e.id for e in alive}]
        return Found([in_order[target.place]])
    # "delete it" after one request made several: which one is asked, never all on a guess;
    # the answer may still name several of those shown ("both").
    return Ambiguous([candidate(e) for e in alive[:MAX_OPTIONS]], allow_multiple=step.action in MULTI_ACTIONS)
