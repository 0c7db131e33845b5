"""The "Undo" button of a delete or clear done by Memo, and what its tap carries.

The responder adds one "Undo" reply button to a turn's confirmation when a step of the turn deleted
something that can be restored (its result carries `undoUntil`, see `memo.capabilities.undo`). The
button's id names the turn (its traceId, the key the items were tombstoned under) and the window's
end, so the tap is answered without a read: within the window it starts the undo step, after it the
user hears at once that it is too late (`memo.turn.undo`).

    undo:<window end, epoch seconds>:<traceId>

Typed, "undo", "bring it back", "בטל את המחיקה" are the same tap on the latest delete
(`typed_undo`): the undo of the request that deleted, with its window counted from when it did.
Typed words undo an update too (a note's text; a reminder's title, time or series, which keep what
they replaced under the request's traceId): an update's confirmation carries no button.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memo.capabilities.common import TAKES_AWAY, UNDO_UNTIL, UNDO_WINDOW, say
from memo.domain import LatestAction
from memo.executor.contracts import StepOutcome
from memo.replies import Choice, Reply
from memo.text.language import Language

UNDO_PREFIX = "undo:"
#: Choice ids are at most 200 characters; a traceId (a wamid) is far shorter.
_MAX_ID = 200
#: The window's end as a button id carries it: the ASCII digits of an epoch second a date can hold
#: (up to the end of year 9999); anything else (`undo:253402300800:…`, other digits) names no window.
_EPOCH = re.compile(r"[0-9]{1,12}", re.ASCII)
_LAST_EPOCH = int(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp())
#: A window ends at most `UNDO_WINDOW` after the delete; a button whose window ends later than that
#: from now (give or take this much) was never sent by Memo.
_CLOCK_SLACK = timedelta(minutes=1)


@dataclass(frozen=True)
class UndoRequest:
    """A tap on "Undo": the turn whose deletes to undo, and until when that is possible."""

    undo_key: str
    until: datetime
    #: The request only updated (deleted nothing): "too late" speaks of a change, not a delete.
    updated: bool = False

    def open_at(self, now: datetime) -> bool:
        return now < self.until


def undo_button_id(trace_id: str, until: datetime) -> str:
    return f"{UNDO_PREFIX}{int(until.timestamp())}:{trace_id}"


def is_undo_id(reply_id: str | None) -> bool:
    """Whether a reply id is in the Undo button's namespace, well formed or not."""
    return reply_id is not None and reply_id.startswith(UNDO_PREFIX)


def parse_undo(reply_id: str | None) -> UndoRequest | None:
    """The undo a button id asks for, or None for any other id or a malformed one: too long, an
    epoch that is not ASCII digits or past what a date holds (`undo:253402300800:…`), no key.
    Never raises, whatever the id."""
    if reply_id is None or not is_undo_id(reply_id) or len(reply_id) > _MAX_ID:
        return None
    epoch, _, key = reply_id[len(UNDO_PREFIX) :].partition(":")
    if _EPOCH.fullmatch(epoch) is None or int(epoch) > _LAST_EPOCH or not key:
        return None
    return UndoRequest(undo_key=key, until=datetime.fromtimestamp(int(epoch), UTC))


def sent_by_memo(request: UndoRequest, now: datetime) -> bool:
    """Whether a tapped window could be one Memo sent: it ends at most `UNDO_WINDOW` from now."""
    return request.until <= now + UNDO_WINDOW + _CLOCK_SLACK


#: "undo", "undo that", "can you undo that?", "oops, bring it back", "restore them", "בטל את המחיקה",
#: "תחזיר את זה".
_TYPED_UNDO = re.compile(
    r"^\W*(?:(?:oops|oh\s+no|oh|wait|no|actually|sorry|hmm+|אופס|אוי|רגע|לא|בעצם|אה|סליחה)[\s,!.]+)*"
    r"(?:(?:can|could|would)\s+you\s+(?:please\s+)?|please\s+|אפשר\s+)?"
    r"(?:undo(?:\s+(?:that|it|this|the\s+(?:delete|deletion|skip|change|last\s+one)|my\s+last\s+delete"
    r"|what\s+you\s+(?:just\s+)?did))?"
    r"|(?:bring|put)\s+(?:it|them|that|those|this)\s+back|restore\s+(?:it|them|that|those|this)"
    r"|(?:תבטל|בטל|תבטלי|לבטל)\s+(?:את\s+)?(?:ה?(?:מחיקה|דילוג|שינוי|פעולה)(?:\s+(?:האחרון|האחרונה))?"
    r"|מה\s+ש(?:עשית|מחקת|שינית)(?:\s+עכשיו)?)"
    r"|(?:תחזיר|תחזירי|החזר)\s+(?:את\s+)?(?:זה|אותם|אותה|אותו|אותן)(?:\s+בחזרה)?"
    r"|(?:תשחזר|תשחזרי|שחזר)(?:\s+(?:את\s+)?(?:זה|אותם|אותה|אותו|אותן))?)"
    r"(?:\s+please|\s+בבקשה)?\s*[.!?]*$",
    re.I,
)
_DELETES = TAKES_AWAY
#: The updates kept for undo (`memo.capabilities.items.Revision`), by capability and action: a
#: snooze tapped on a delivered one-time reminder is one.
_UPDATES = frozenset(
    {
        ("notes", "update"),
        ("reminders", "update"),
        ("reminders", "snooze"),
        ("lists", "update"),
        ("reminders", "create"),
        ("lists", "add"),
        ("notes", "save"),
    }
)
#: What a request set, added or saved that its undo takes away again (a reminder kept as cancelled,
#: a list item or a note kept as not there).
_CREATES = frozenset({"create", "add", "save"})


def _undoable(action: LatestAction) -> bool:
    if (action.capability, action.action) == ("lists", "add"):
        # "Already there: milk": an add that put nothing on the list has nothing to take off.
        return bool((action.external_ids or {}).get("listItemIds"))
    return action.action in _DELETES or (action.capability, action.action) in _UPDATES


def is_typed_undo(text: str | None) -> bool:
    return bool(text) and _TYPED_UNDO.match(text.strip()) is not None  # type: ignore[union-attr]


#: Hebrew ways of saying undo beyond `_TYPED_UNDO`'s: "אופס תחזיר", "תחזיר את הכל", "תחזירי הכל
#: בבקשה" (bring it / everything back).
_MORE_UNDO = re.compile(
    r"^\W*(?:(?:אופס|אוי|רגע|לא|בעצם|אה|סליחה)[\s,!.]+)*(?:אפשר\s+)?(?:תחזיר|תחזירי|להחזיר|החזר)"
    r"(?:\s+(?:את\s+)?(?:הכל|הכול|כולם|כולן|מה\s+שמחקת))?(?:\s+בחזרה)?(?:\s+בבקשה)?\s*[.!?]*$"
)


def is_undo_said(text: str | None) -> bool:
    """ "undo", "bring it back", "בטל את המחיקה", "אופס תחזיר", "תחזיר את הכל": the Undo, typed."""
    return is_typed_undo(text) or (bool(text) and _MORE_UNDO.match(text or "") is not None)


#: Undo words that ask for something back ("bring it back", "restore them", "תחזיר את זה", "שחזר")
#: or name what is undone ("undo the delete", "בטל את המחיקה"): they undo a delete or a change, never
#: a reminder just set (nothing of it was taken away). "undo", "undo that", "בטל את הפעולה" undo that too.
_BRING_BACK = re.compile(
    r"\b(?:back|restore|delete|deletion|skip|change)\b|בחזרה|מחיקה|מחקת|דילוג|שינוי|שינית"
    r"|(?:^|\s)(?:תחזיר|תחזירי|להחזיר|החזר|תשחזר|תשחזרי|שחזר)",
    re.I,
)


def brings_back(text: str | None) -> bool:
    """Whether undo words ask only for what was deleted or changed (see `_BRING_BACK`)."""
    return bool(text) and _BRING_BACK.search(text or "") is not None


def typed_undo(latest: Sequence[LatestAction], *, creates: bool = True) -> UndoRequest | None:
    """The "Undo" typed words ask for: the latest request's, when it deleted, updated or (with
    `creates`) set something (the request is the key its items were tombstoned or their previous
    versions kept under, whatever else it did); None when it did none of these."""
    if not latest:
        return None
    request = latest[0].request
    done = [
        a
        for a in latest
        if a.request == request and _undoable(a) and a.operation_id and (creates or a.action not in _CREATES)
    ]
    if not done:
        return None
    updated = not any(a.action in _DELETES for a in done)
    return UndoRequest(undo_key=request, until=min(a.created_at for a in done) + UNDO_WINDOW, updated=updated)


#: "redo", "redo that", "undo the undo", "undo undo", "בטל את הביטול", "תחזיר את מה שביטלת": the undo
#: of an undo, which Memo does not do (what was undone is asked for again).
_REDO = re.compile(
    r"^\W*(?:(?:oops|oh|wait|no|actually|sorry|אופס|רגע|לא|בעצם|אה|סליחה)[\s,!.]+)*"
    r"(?:(?:can|could|would)\s+you\s+(?:please\s+)?|please\s+|אפשר\s+)?"
    r"(?:redo(?:\s+(?:that|it|this))?|undo\s+(?:the\s+|that\s+|your\s+|my\s+)?undo"
    r"|(?:תבטל|בטל|תבטלי|לבטל)\s+(?:את\s+)?ה?ביטול|(?:תחזיר|תחזירי|להחזיר)\s+(?:את\s+)?מה\s+שביטלת)"
    r"(?:\s+please|\s+בבקשה)?\s*[.!?]*$",
    re.I,
)


def is_redo_said(text: str | None) -> bool:
    """ "redo", "undo the undo", "בטל את הביטול": asked to undo an undo."""
    return bool(text) and _REDO.match(text or "") is not None


def cannot_redo(language: Language, *, undone: bool) -> str:
    """The answer to "redo" (or "bring it back" right after an undo): an undo is not undone; what
    it took away is asked for again. `undone`: the latest change was an undo."""
    if not undone:
        return say(
            language, "There's nothing to redo: I haven't undone anything.", "אין מה לשחזר: לא ביטלתי כלום."
        )
    return say(
        language,
        "I can't undo an undo, so what I undid stays undone. To have it again, just ask me for it again.",
        "אני לא יכול לבטל ביטול, אז מה שביטלתי נשאר מבוטל. כדי שזה יחזור, פשוט תבקשו את זה שוב.",
    )


def nothing_to_undo(language: Language) -> str:
    return say(
        language,
        "There's nothing to undo: Undo brings back what I deleted or changed in the last 10 minutes.",
        "אין מה לבטל: ביטול מחזיר את מה שמחקתי או שיניתי ב-10 הדקות האחרונות.",
    )


def undo_until(outcomes: Sequence[StepOutcome]) -> datetime | None:
    """The end of the undo window of the turn's destructive steps (the earliest), or None."""
    ends: list[datetime] = []
    for outcome in outcomes:
        raw = outcome.result.data.get(UNDO_UNTIL) if outcome.result.success else None
        if isinstance(raw, str):
            try:
                ends.append(datetime.fromisoformat(raw))
            except ValueError:
                continue
    return min(ends, default=None)


def with_undo(reply: Reply, outcomes: Sequence[StepOutcome], *, trace_id: str, language: Language) -> Reply:
    """The reply with an "Undo" button when the turn deleted or changed something restorable; in
    Hebrew the button says which ("ביטול המחיקה", or "ביטול השינוי" for a skip or a change)."""
    until = undo_until(outcomes)
    if until is None or reply.kind != "text":
        return reply
    deleted = any(
        o.result.success and o.result.action in _DELETES and not o.result.data.get("skipped")
        for o in outcomes
    )
    title = say(language, "Undo", "ביטול המחיקה" if deleted else "ביטול השינוי")
    return Reply.with_choices(reply.text, [Choice(id=undo_button_id(trace_id, until), title=title)])


def too_late(language: Language, *, updated: bool = False) -> str:
    if updated:
        return say(
            language,
            "That can't be undone anymore: Undo works for 10 minutes after a change.",
            "כבר אי אפשר לבטל את זה: ביטול אפשרי רק 10 דקות אחרי שינוי.",
        )
    return say(
        language,
        "That can't be undone anymore: Undo works for 10 minutes after a delete.",
        "כבר אי אפשר לבטל את זה: ביטול אפשרי רק 10 דקות אחרי מחיקה.",
    )
