"""The event table: every message and status type of the WhatsApp Cloud API and what Memo does with it.

One place. Ingress (`memo.ingress.inbound`) names each inbound message's row (`message_event`); the
turn engine (`memo.turn.engine`) acts on the row's `handling`; statuses and account-level errors are
handled at ingress (`memo.ingress.statuses`). `docs/whatsapp-events.md` shows this table; a test
checks that both list the same rows.

Handlings:
- `turn`: text Memo acts on (planner or the pending question);
- `text_only`: a polite "text only" reply, at most one per user per webhook batch;
- `silent`: logged, never answered;
- `welcome`: the greeting with examples;
- `voice`: fetched, transcribed, then handled as the text it says;
- `reaction`: silent, except on Memo's open "Just to check" question, which is asked again;
- `edit`: silent, except an edit of the message the pending question is waiting on (the new answer);
- `changed_number`: the user's data moves to the new number; not answered;
- `delivery_failed`: a `failed` status, followed up on the turn path (a reminder's retry).
A message with a `group_id` is never handled as a private message (see `GROUP_ROW`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # the webhook's wire payload, read without pydantic
    from memo.ingress.wire import WaMessage

Handling = Literal[
    "turn", "text_only", "silent", "welcome", "voice", "reaction", "edit", "changed_number", "delivery_failed"
]


@dataclass(frozen=True)
class EventRow:
    key: str  # the message `type` (with its subtype after a dot where Meta has one)
    handling: Handling
    log: str  # the log event Memo writes for it
    does: str  # what Memo does, in words (the documentation's column)


_CAPTION = (
    "With a caption: the caption is handled as text (Memo does not see the file: 'remind me to pay "
    "this tomorrow at 9' is a reminder titled 'pay this'); 'save this as a note' says the file cannot "
    "be kept and asks what the note should say; a caption that asks nothing ('look') gets the 'text "
    "only' reply; an album with a caption is answered once, by it."
)

MESSAGE_EVENTS: tuple[EventRow, ...] = (
    EventRow("text", "turn", "TURN_DONE", "Planned or taken as the answer to the open question."),
    EventRow(
        "interactive.button_reply",
        "turn",
        "TURN_DONE",
        "The tapped button's id answers the open question (its title is the text).",
    ),
    EventRow(
        "interactive.list_reply",
        "turn",
        "TURN_DONE",
        "The chosen list row's id answers the open question (its title is the text).",
    ),
    EventRow(
        "interactive.nfm_reply",
        "text_only",
        "UNSUPPORTED_MESSAGE",
        "Memo sends no Flows: one polite 'text only' reply per batch.",
    ),
    EventRow(
        "interactive.call_permission_reply",
        "silent",
        "EVENT_IGNORED",
        "Memo makes no calls: logged, no reply.",
    ),
    EventRow("button", "turn", "TURN_DONE", "A template's quick-reply button: its text is handled as text."),
    EventRow(
        "reaction",
        "reaction",
        "REACTION_RECEIVED",
        "Silent; on Memo's open 'Just to check' question (that very message) the question is asked again: a reaction is never a yes.",
    ),
    EventRow("image", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("image.caption", "turn", "TURN_DONE", _CAPTION),
    EventRow("video", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("video.caption", "turn", "TURN_DONE", _CAPTION),
    EventRow(
        "audio",
        "voice",
        "VOICE_NOTE",
        "Transcribed (with an OpenAI key) and handled as text; without a key, a clear reply.",
    ),
    EventRow("document", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("document.caption", "turn", "TURN_DONE", _CAPTION),
    EventRow("sticker", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("location", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("contacts", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow("order", "text_only", "UNSUPPORTED_MESSAGE", "One polite 'text only' reply per batch."),
    EventRow(
        "system.user_changed_number",
        "changed_number",
        "NUMBER_CHANGED",
        "Profile, reminders (and their schedules), notes, lists and the open question move to the "
        "new number, once; no reply.",
    ),
    EventRow(
        "system.customer_identity_changed",
        "silent",
        "EVENT_IGNORED",
        "Logged, no reply.",
    ),
    EventRow("system", "silent", "EVENT_IGNORED", "Any other system notice: logged, no reply."),
    EventRow(
        "request_welcome",
        "welcome",
        "WELCOME_SENT",
        "The user opened the chat for the first time: the greeting with examples.",
    ),
    EventRow(
        "edit",
        "edit",
        "MESSAGE_EDITED",
        "An edit of the message the open question is waiting on is the new answer (its new text, or a "
        "photo's, video's or document's new caption); an edit of a request "
        "Memo already carried out is answered once (EDIT_AFTER_DONE): nothing changed, say what to "
        "change; any other edit is silent.",
    ),
    EventRow("revoke", "silent", "EVENT_IGNORED", "The user deleted a message: logged, no reply."),
    EventRow(
        "unsupported",
        "text_only",
        "UNSUPPORTED_MESSAGE",
        "A type the Cloud API cannot pass on: its error codes are logged; one 'text only' reply per batch.",
    ),
    EventRow(
        "other",
        "text_only",
        "UNSUPPORTED_MESSAGE",
        "Any type not in this table: logged with its type; one 'text only' reply per batch.",
    ),
)

GROUP_ROW = EventRow(
    "group",
    "silent",
    "GROUP_MESSAGE_IGNORED",
    "Any message with a group_id: ignored (logged with the group id) unless Memo is addressed by name; "
    "then one short answer in the group. Never a private reply, never a private question.",
)

_CONFIRMS = "Logged, with what Memo's tracking tag says the message carried and its send token."

STATUS_EVENTS: tuple[EventRow, ...] = (
    EventRow("status.sent", "silent", "WHATSAPP_STATUS", _CONFIRMS),
    EventRow("status.delivered", "silent", "WHATSAPP_STATUS", _CONFIRMS),
    EventRow("status.read", "silent", "WHATSAPP_STATUS", _CONFIRMS),
    EventRow(
        "status.played",
        "silent",
        "WHATSAPP_STATUS",
        "A voice message the business sent was played (Memo sends none): logged like the others.",
    ),
    EventRow(
        "status.failed",
        "delivery_failed",
        "WHATSAPP_DELIVERY_FAILED",
        "Warning with Meta's code, title and message id; metric per code. Its tracking tag says what "
        "failed; followed up once. A failed reminder is marked undelivered and retried once as a "
        "template when the code means the 24-hour window closed (131047, 131026), else an alarm metric.",
    ),
    EventRow(
        "account.errors",
        "silent",
        "WHATSAPP_ACCOUNT_ERROR",
        "Account-level errors (e.g. 130429 rate limit) logged with their codes; metric per code.",
    ),
    EventRow(
        "account.other_field",
        "silent",
        "WEBHOOK_FIELD_IGNORED",
        "Any other webhook field (templates, account updates, calls, ...): logged with its name; its "
        "errors and statuses are not read as the account's or a message's.",
    ),
)

_BY_KEY = {row.key: row for row in MESSAGE_EVENTS + STATUS_EVENTS}


def row(key: str) -> EventRow:
    return _BY_KEY.get(key) or _BY_KEY["other"]


# Message types that carry text Memo can act on; everything else gets a polite "text only" reply.
ACTIONABLE_TYPES = frozenset({"text", "interactive", "button"})


def event_row(event: str, message_type: str) -> EventRow:
    """The event table's row of a queued message; messages enqueued before the table existed have no
    `event`: text types were turned, the rest answered "text only"."""
    if event:
        return row(event)
    return row(message_type if message_type in ACTIONABLE_TYPES else "other")


# Status error codes that mean "outside the 24-hour customer service window": a template reaches the
# user where free-form text cannot (re-engagement message, and the older 131026 "undeliverable").
OUTSIDE_WINDOW_CODES = frozenset({131047, 131026})


def message_key(message: WaMessage) -> str:
    """The event table's key of one inbound message."""
    if message.type == "interactive" and message.interactive is not None:
        return f"interactive.{message.interactive.type}"
    if message.type == "system":
        kind = message.system.type if message.system is not None else None
        specific = f"system.{kind}"
        return specific if specific in _BY_KEY else "system"
    if message.type == "voice":
        return "audio"
    if caption(message):
        return f"{message.type}.caption"
    # A table key with a dot names a subtype Memo derives itself; Meta's `type` is one word, so a
    # `type` written like one ("status.failed", "image.caption") is an unknown type, not that row.
    return message.type if "." not in message.type and message.type in _BY_KEY else "other"


def caption(message: WaMessage) -> str:
    """The caption of an image, video or document ("" when there is none, or only spaces)."""
    media = {"image": message.image, "video": message.video, "document": message.document}.get(message.type)
    return (media.caption or "").strip() if media is not None else ""


def message_event(message: WaMessage) -> EventRow:
    return row(message_key(message))
