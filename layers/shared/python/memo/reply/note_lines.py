"""The line of a notes step that succeeded: saved, updated, found or deleted.

A result carries a note's first characters, not the whole of a long note (`memo.capabilities.notes`):
a note it cut has its length (`chars`), and a search says how many more notes matched (`more`);
the line says both.
"""

from __future__ import annotations

from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.deletion_lines import deleted_line
from memo.reply.result_data import bullets, counted, first_value, item_texts
from memo.text.language import Language
from memo.text.wording import quote


def _length(data: dict[str, Any], language: Language) -> str:
    """ " (4,000 characters)" after a note the result cut; "" for a note it carries whole."""
    chars = data.get("chars")
    if not isinstance(chars, int):
        return ""
    return f" ({chars:,} תווים)" if language == "he" else f" ({chars:,} characters)"


def _cut_one(notes: list[Any], language: Language) -> str:
    """Under a note shown alone and cut: how much of it is shown."""
    chars = notes[0].get("chars") if len(notes) == 1 and isinstance(notes[0], dict) else None
    text = notes[0].get("text") if isinstance(chars, int) else None
    if not isinstance(chars, int) or not isinstance(text, str):
        return ""
    shown = len(text.removesuffix("…"))
    if language == "he":
        return f"\n(מוצגים {shown:,} התווים הראשונים מתוך {chars:,})"
    return f"\n(the first {shown:,} of its {chars:,} characters)"


def _more(data: dict[str, Any], language: Language) -> str:
    more = data.get("more")
    if not isinstance(more, int) or more <= 0:
        return ""
    if language == "he":
        return f"\n…ועוד {more}. אפשר לכתוב לי מילה מהפתק שמחפשים."
    return f"\n…and {more} more. Tell me a word from the one you're looking for."


def _search_line(data: dict[str, Any], language: Language) -> str | None:
    notes = data.get("notes")
    if not isinstance(notes, list):
        return None
    query = first_value(data, "query")
    found = item_texts(notes)
    if not found:
        if language == "he":
            return "לא מצאתי פתקים" + (f" שמתאימים ל{quote(query, language)}." if query else ".")
        return "I found no notes" + (f" matching {quote(query, language)}." if query else ".")
    what = counted(len(found), language, "note", "notes", "פתק אחד", "פתקים")
    if language == "he":
        head = f"מצאתי {what}" + (f" עבור {quote(query, language)}:" if query else ":")
    else:
        head = f"Found {what}" + (f" for {quote(query, language)}:" if query else ":")
    return f"{head}\n{bullets(found)}{_cut_one(notes, language)}{_more(data, language)}"


def note_line(result: ExecutionResult, language: Language) -> str | None:
    data, he = result.data, language == "he"
    if result.action in ("update", "save"):
        text = first_value(data, "text")
        if not text:
            return None
        said, length = quote(text, language), _length(data, language)
        if result.action == "update":
            return f"📝 עדכנתי את הפתק: {said}{length}." if he else f"📝 Updated your note: {said}{length}."
        return f"📝 שמרתי את הפתק {said}{length}." if he else f"📝 Saved your note {said}{length}."
    if result.action == "search":
        return _search_line(data, language)
    if result.action in ("delete", "delete_all"):
        return deleted_line(data, language, ("note", "notes", "פתק אחד", "פתקים"), "הפתק")
    return None
