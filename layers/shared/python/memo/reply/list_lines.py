"""The line of a lists step that succeeded: items added, removed or changed, a list shown or cleared, and
every list at once ("what lists do I have?", "what's on my lists?")."""

from __future__ import annotations

from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.result_data import bullets, counted, first_value, item_texts
from memo.resolution.candidates import not_counted_text
from memo.text.language import Language
from memo.text.wording import he_list_name

_NOUNS = ("item", "items", "פריט אחד", "פריטים")


def list_line(result: ExecutionResult, language: Language) -> str | None:
    """The lists step's line; None when its data does not say enough (the summary is used)."""
    data, he = result.data, language == "he"
    if result.action == "show_all" and isinstance(data.get("lists"), list):
        return _all_lists(data["lists"], language)
    if result.action == "show" and isinstance(data.get("lists"), list):
        return _every_list(data["lists"], language)
    name = first_value(data, "list_name", "listName")
    if not name:
        return None
    if result.action in ("add", "remove"):
        return _added_or_removed(result.action, data, name, language)
    if result.action == "update" and isinstance(data.get("from"), str) and isinstance(data.get("to"), str):
        if he:
            return f"שיניתי את „{data['from']}” ל„{data['to']}” ברשימת {he_list_name(name)}."
        return f"Changed “{data['from']}” to “{data['to']}” on your {name} list."
    items = item_texts(data.get("items"))
    if result.action == "show" and isinstance(data.get("items"), list):
        if not items:
            return f"רשימת {he_list_name(name)} ריקה." if he else f"Your {name} list is empty."
        head = f"רשימת {he_list_name(name)}:" if he else f"Your {name} list:"
        if data.get("howMany") is True:
            # "how many things are on my list?": the number first, then which they are.
            many = counted(len(items), language, *_NOUNS)
            head = f"ברשימת {he_list_name(name)} יש {many}:" if he else f"Your {name} list has {many}:"
        return f"{head}\n{bullets(items)}"
    if result.action == "clear":
        return _cleared(data, name, language)
    return None


def _added_or_removed(action: str, data: dict[str, Any], name: Any, language: Language) -> str | None:
    """What was added (removed), and what already was (was not) on the list."""
    he = language == "he"
    key = "added" if action == "add" else "removed"
    changed = item_texts(data[key]) if key in data else item_texts(data.get("items"))
    already = item_texts(data.get("alreadyThere" if action == "add" else "notFound"))
    parts: list[str] = []
    if changed and action == "add":
        parts.append(
            f"הוספתי {', '.join(changed)} לרשימת {he_list_name(name)}."
            if he
            else f"Added {', '.join(changed)} to your {name} list."
        )
    elif changed:
        parts.append(
            f"הורדתי {', '.join(changed)} מרשימת {he_list_name(name)}."
            if he
            else f"Removed {', '.join(changed)} from your {name} list."
        )
    amounts = [a for a in data.get("amounts") or [] if isinstance(a, dict)] if action == "add" else []
    if amounts:
        # "2 milk" with "milk" on the list: the one line says the amount now
        said = ", ".join(
            f"„{a.get('from')}” ל„{a.get('to')}”" if he else f"“{a.get('from')}” to “{a.get('to')}”"
            for a in amounts
        )
        parts.append(
            f"שיניתי את {said} ברשימת {he_list_name(name)}." if he else f"Changed {said} on your {name} list."
        )
    parts += _lowered(data, name, language) if action == "remove" else []
    if already and action == "add":
        parts.append(f"כבר ברשימה: {', '.join(already)}." if he else f"Already there: {', '.join(already)}.")
    elif already:
        parts.append(f"לא היו ברשימה: {', '.join(already)}." if he else f"Not on it: {', '.join(already)}.")
    return " ".join(parts) or None


def _lowered(data: dict[str, Any], name: Any, language: Language) -> list[str]:
    """ "one tomato" off "3 tomatoes": what each such line says now; and the lines a count was said
    for that were left as they are (they count another way: "2 liters of milk")."""
    he = language == "he"
    lowered = [c for c in data.get("lowered") or [] if isinstance(c, dict)]
    parts: list[str] = []
    if lowered:
        said = ", ".join(
            f"„{c.get('from')}” ל„{c.get('to')}”" if he else f"“{c.get('from')}” to “{c.get('to')}”"
            for c in lowered
        )
        parts.append(
            f"שיניתי את {said} ברשימת {he_list_name(name)}." if he else f"Changed {said} on your {name} list."
        )
    unclear = item_texts(data.get("unclear"))
    if unclear:
        parts.append(not_counted_text(unclear, language))
    return parts


def _cleared(data: dict[str, Any], name: Any, language: Language) -> str:
    he = language == "he"
    removed = item_texts(data.get("removedItems"))
    if removed:
        # The approved items, by name (or how many): the list may keep others ("only 1" of two).
        shown = ", ".join(removed) if len(removed) <= 5 else None
        what = shown or counted(len(removed), language, *_NOUNS)
        return (
            f"הורדתי {what} מרשימת {he_list_name(name)}." if he else f"Removed {what} from your {name} list."
        )
    count = data.get("count", data.get("deleted"))
    if isinstance(count, int):
        what = counted(count, language, *_NOUNS)
        return (
            f"ניקיתי את רשימת {he_list_name(name)} ({what})." if he else f"Cleared your {name} list ({what})."
        )
    return f"ניקיתי את רשימת {he_list_name(name)}." if he else f"Cleared your {name} list."


def _all_lists(lists: list[Any], language: Language) -> str:
    """ "what lists do I have?": each list with its number of items."""
    he = language == "he"
    if not lists:
        if he:
            return "אין עדיין רשימות. אפשר להתחיל למשל ב: תוסיף חלב לרשימת הקניות"
        return "You have no lists yet. Try: add milk to my shopping list"
    lines = [
        f"{entry.get('name')} ({counted(int(entry.get('count', 0)), language, 'item', 'items', 'פריט אחד', 'פריטים')})"
        for entry in lists
        if isinstance(entry, dict)
    ]
    return f"{'הרשימות שלך:' if he else 'Your lists:'}\n{bullets(lines)}"


def _every_list(lists: list[Any], language: Language) -> str:
    """ "what's on my list?" with no list named and several lists: each list and what is on it."""
    he = language == "he"
    if not lists:
        if he:
            return "אין לך עדיין כלום ברשימות. אפשר להתחיל למשל ב: תוסיף חלב לרשימת הקניות"
        return "There's nothing on your lists yet. Try: add milk to my shopping list"
    sections = []
    for entry in lists:
        if isinstance(entry, dict):
            name = entry.get("name")
            head = f"רשימת {he_list_name(name)}:" if he else f"Your {name} list:"
            sections.append(f"{head}\n{bullets(item_texts(entry.get('items')))}")
    return "\n\n".join(sections)
