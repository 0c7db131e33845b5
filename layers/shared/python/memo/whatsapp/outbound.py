"""Graph API message bodies: text (split above 4096 chars), reply buttons, list messages, read receipts.

WhatsApp's limits: text body 4096 chars; 1-3 reply buttons, titles <= 20 chars and unique, ids <= 256;
list messages <= 10 rows, row title <= 24, description <= 72, button label <= 20, body <= 1024 (4096 for
plain text). Titles that are too long are shortened with an ellipsis and made unique; more choices
than a list holds is a programming error, not something to truncate silently.
"""

from __future__ import annotations

from typing import Any, Literal

from memo.replies import Choice, Reply
from memo.text.wording import shorten

TEXT_LIMIT = 4096
INTERACTIVE_BODY_LIMIT = 1024
BUTTON_TITLE_LIMIT = 20
MAX_BUTTONS = 3
LIST_ROW_TITLE_LIMIT = 24
LIST_ROW_DESCRIPTION_LIMIT = 72
LIST_BUTTON_LIMIT = 20
MAX_LIST_ROWS = 10


# One reply is at most this many WhatsApp messages; what does not fit is cut with a note.
MAX_PARTS = 3
TRUNCATION_NOTE = "… (cut: too long for WhatsApp)"


def split_text(text: str, limit: int = TEXT_LIMIT, *, max_parts: int = MAX_PARTS) -> list[str]:
    """Split on paragraph, line or word boundaries so no part exceeds `limit`; at most `max_parts`
    parts, the last one ending with a note when the text had to be cut (a 150 KB profile name must
    not become 37 messages)."""
    parts: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        if len(parts) == max_parts - 1:
            parts.append(rest[: limit - len(TRUNCATION_NOTE)].rstrip() + TRUNCATION_NOTE)
            return parts
        window = rest[:limit]
        cut = max(window.rfind("\n\n"), window.rfind("\n"), window.rfind(" "))
        if cut < limit // 2:
            cut = limit
        parts.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        parts.append(rest)
    return parts


def _unique_titles(choices: list[Choice], limit: int) -> list[str]:
    titles: list[str] = []
    for choice in choices:
        title = shorten(choice.title, limit)
        suffix = 2
        while title in titles:
            tag = f" ({suffix})"
            title = shorten(choice.title, limit - len(tag)).rstrip("…") + tag
            suffix += 1
        titles.append(title)
    return titles


def _recipient(to: str) -> dict[str, str]:
    # A business-scoped user id (e.g. "US.13491208655302741918") goes in `recipient`, a phone in `to`.
    return {"to": to} if to.isdigit() else {"recipient": to}


def message_bodies(
    to: str, reply: Reply, *, recipient_type: Literal["individual", "group"] = "individual"
) -> list[dict[str, Any]]:
    """The Graph API bodies that deliver `reply`, in order (to a group: `to` is the group id)."""
    recipient = {"to": to} if recipient_type == "group" else _recipient(to)
    base: dict[str, Any] = {"messaging_product": "whatsapp", "recipient_type": recipient_type, **recipient}
    if reply.kind == "text" or not reply.choices:
        return [{**base, "type": "text", "text": {"body": part}} for part in split_text(reply.text)]
    # An interactive body holds 1024 chars: anything longer goes first as text.
    lead, body = _interactive_body(reply.text)
    bodies = [{**base, "type": "text", "text": {"body": part}} for part in split_text(lead)] if lead else []
    if reply.kind == "buttons":
        if len(reply.choices) > MAX_BUTTONS:
            raise ValueError(f"{len(reply.choices)} buttons; WhatsApp allows {MAX_BUTTONS}")
        titles = _unique_titles(reply.choices, BUTTON_TITLE_LIMIT)
        action: dict[str, Any] = {
            "buttons": [
                {"type": "reply", "reply": {"id": c.id, "title": t}}
                for c, t in zip(reply.choices, titles, strict=True)
            ]
        }
        bodies.append(
            {
                **base,
                "type": "interactive",
                "interactive": {"type": "button", "body": {"text": body}, "action": action},
            }
        )
        return bodies
    if len(reply.choices) > MAX_LIST_ROWS:
        raise ValueError(f"{len(reply.choices)} list rows; WhatsApp allows {MAX_LIST_ROWS}")
    titles = _unique_titles(reply.choices, LIST_ROW_TITLE_LIMIT)
    rows = []
    for choice, title in zip(reply.choices, titles, strict=True):
        row: dict[str, str] = {"id": choice.id, "title": title}
        description = choice.description
        if not description and len(choice.title) > LIST_ROW_TITLE_LIMIT:
            description = choice.title  # keep the full title readable
        if description:
            row["description"] = shorten(description, LIST_ROW_DESCRIPTION_LIMIT)
        rows.append(row)
    action = {
        "button": shorten(reply.list_button, LIST_BUTTON_LIMIT),
        "sections": [{"title": shorten(reply.list_button, 24), "rows": rows}],
    }
    bodies.append(
        {
            **base,
            "type": "interactive",
            "interactive": {"type": "list", "body": {"text": body}, "action": action},
        }
    )
    return bodies


def _interactive_body(text: str) -> tuple[str, str]:
    if len(text) <= INTERACTIVE_BODY_LIMIT:
        return "", text
    parts = split_text(text, INTERACTIVE_BODY_LIMIT)
    return "\n\n".join(parts[:-1]), parts[-1]


def read_receipt(wamid: str) -> dict[str, Any]:
    return {"messaging_product": "whatsapp", "status": "read", "message_id": wamid}
