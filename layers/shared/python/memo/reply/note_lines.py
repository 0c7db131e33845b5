"""The line of a notes step that succeeded: saved, updated, found or deleted."""

from __future__ import annotations

from memo.capabilities.base import ExecutionResult
from memo.reply.deletion_lines import deleted_line
from memo.reply.result_data import bullets, counted, first_value, item_texts
from memo.text.language import Language
from memo.text.wording import quote


def note_line(result: ExecutionResult, language: Language) -> str | None:
    data, he = result.data, language == "he"
    if result.action == "update":
        text = first_value(data, "text")
        if not text:
            return None
        return (
            f"📝 עדכנתי את הפתק: {quote(text, language)}."
            if he
            else f"📝 Updated your note: {quote(text, language)}."
        )
    if result.action == "save":
        text = first_value(data, "text")
        if not text:
            return None
        return (
            f"📝 שמרתי את הפתק {quote(text, language)}."
            if he
            else f"📝 Saved your note {quote(text, language)}."
        )
    if result.action == "search":
        notes = data.get("notes")
        if not isinstance(notes, list):
            return None
        query = first_value(data, "query")
        found = item_texts(notes)
        if not found:
            if he:
                return "לא מצאתי פתקים" + (f" שמתאימים ל{quote(query, language)}." if query else ".")
            return "I found no notes" + (f" matching {quote(query, language)}." if query else ".")
        what = counted(len(found), language, "note", "notes", "פתק אחד", "פתקים")
        if he:
            head = f"מצאתי {what}" + (f" עבור {quote(query, language)}:" if query else ":")
        else:
            head = f"Found {what}" + (f" for {quote(query, language)}:" if query else ":")
        return f"{head}\n{bullets(found)}"
    if result.action in ("delete", "delete_all"):
        return deleted_line(data, language, ("note", "notes", "פתק אחד", "פתקים"), "הפתק")
    return None
