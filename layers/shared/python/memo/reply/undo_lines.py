"""The line of an undo step (`memo.capabilities.undo`): what came back, what was put back as it was
before an update, which reminders' times passed meanwhile, and what was left as it is.

    ↩️ Undone: “call mom” is back.                                  (a delete undone)
    ↩️ Undone: the note “gate code” is back to “gate code is 1234”. (a note's update undone)
    ↩️ Undone: “call mom” is back at Sun 29 Nov, 17:00.             (a reminder's update undone)
    ↩️ Undone: the item on your shopping list is “apples” again.    (a list item's change undone)
    ↩️ Undone: “milk” is off your shopping list again.              (a list item's add undone)
    ↩️ Undone: the note “wifi password” is deleted.                 (a note's save undone)
"""

from __future__ import annotations

from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.capabilities.lists import UNNAMED_LIST
from memo.reply.result_data import item_texts
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.wording import he_list_name, quote


def undo_line(result: ExecutionResult, language: Language, timezone: str) -> str | None:
    """The undo's line, or None when its data names nothing (the summary is said instead)."""
    restored = item_texts(result.data.get("restored"))
    again = item_texts(result.data.get("alreadyThere"))
    reverted = [r for r in result.data.get("reverted") or [] if isinstance(r, dict)]
    off = [r for r in result.data.get("takenOff") or [] if isinstance(r, dict)]
    notes = item_texts(result.data.get("deletedAgain"))
    if not restored and not again and not reverted and not off and not notes:
        return None
    reverted = reverted + _taken_off(off, language) + [{"kind": "note", "gone": note} for note in notes]
    if language == "he":
        text = _hebrew(restored, reverted, timezone)
    else:
        text = _english(restored, reverted, timezone)
    return text + _after(result.data, again, language)


def _taken_off(off: list[dict[str, Any]], language: Language) -> list[dict[str, Any]]:
    """The list items taken off again, one line part per list: "“eggs”, “bread” are off ..."."""
    by_list: dict[str, list[str]] = {}
    for item in off:
        by_list.setdefault(str(item.get("list", "")), []).append(quote(str(item.get("text", "")), language))
    return [
        {"off": ", ".join(names), "many": len(names) > 1, "list": name} for name, names in by_list.items()
    ]


def _english(restored: list[str], reverted: list[dict[str, Any]], timezone: str) -> str:
    parts = []
    if restored:
        names = ", ".join(quote(t, "en") for t in restored)
        parts.append(f"{names} {'is' if len(restored) == 1 else 'are'} back")
    parts += [_put_back(r, "en", timezone) for r in reverted]
    return "↩️ Undone: " + "; ".join(parts) + "." if parts else "↩️ Nothing to bring back."


def _hebrew(restored: list[str], reverted: list[dict[str, Any]], timezone: str) -> str:
    names = ", ".join(quote(t, "he") for t in restored)
    if not reverted:
        return f"↩️ ביטלתי את המחיקה ושחזרתי את {names}." if restored else "↩️ אין מה להחזיר."
    parts = [f"שחזרתי את {names}"] if restored else []
    parts += [_put_back(r, "he", timezone) for r in reverted]
    return "↩️ ביטלתי: " + "; ".join(parts) + "."


def _put_back(item: dict[str, Any], language: Language, timezone: str) -> str:
    """One item put back as it was before an update."""
    he = language == "he"
    if item.get("gone"):  # a note the request saved, deleted again
        name = quote(str(item["gone"]), language)
        return f"הפתק {name} נמחק" if he else f"the note {name} is deleted"
    if item.get("kind") == "note":
        text = quote(item.get("text", ""), language)
        subject = item.get("subject")
        if he:
            return f"הפתק {quote(subject, language)} חזר ל{text}" if subject else f"הפתק חזר ל{text}"
        return (
            f"the note {quote(subject, language)} is back to {text}"
            if subject
            else f"the note is back to {text}"
        )
    if item.get("off"):  # list items the request added, taken off again
        names, name = item["off"], str(item.get("list", ""))
        if he:
            return f"{names} {'ירדו' if item.get('many') else 'ירד'} שוב מרשימת {he_list_name(name)}"
        return f"{names} {'are' if item.get('many') else 'is'} off your {name} list again"
    if item.get("kind") == "list_item":
        # "change apples to green apples", then undo: the item's words as they were
        text, name = quote(item.get("text", ""), language), str(item.get("list", ""))
        if he:
            where = "ברשימה" if name in ("", UNNAMED_LIST) else f"ברשימת {he_list_name(name)}"
            return f"הפריט {where} חזר ל{text}"
        where = "your list" if name in ("", UNNAMED_LIST) else f"your {name} list"
        return f"the item on {where} is {text} again"
    title = quote(item.get("title", ""), language)
    when = format_when(item.get("when"), language, timezone)
    repeats = f" ({item['repeats']})" if item.get("repeats") else ""
    if item.get("cancelled"):  # the one-time reminder a moved or snoozed occurrence made
        return f"{title} ב{when} בוטלה" if he else f"{title} at {when} is cancelled"
    return f"{title} חזרה ל{when}{repeats}" if he else f"{title} is back at {when}{repeats}"


def _after(data: dict[str, Any], again: list[str], language: Language) -> str:
    """What follows: the times that passed meanwhile, what is there again, what changed again."""
    late = ", ".join(quote(t, language) for t in item_texts(data.get("timePassed")))
    there = ", ".join(quote(t, language) for t in again)
    changed = ", ".join(quote(t, language) for t in item_texts(data.get("changedAgain")))
    if language == "he":
        text = f" הזמן של {late} כבר עבר בינתיים, אז לא תישלח עליו תזכורת." if late else ""
        text += f" {there} כבר קיים שוב, אז לא הוספתי עוד אחד." if there else ""
        return text + (f" {changed} השתנה שוב מאז, אז השארתי אותו כמו שהוא." if changed else "")
    text = f" The time of {late} passed meanwhile, so no reminder will fire for it." if late else ""
    if there:
        text += f" {there} {'is' if len(again) == 1 else 'are'} already there again, so I didn't add a second one."
    return text + (f" {changed} was changed again since, so I left it as it is." if changed else "")
