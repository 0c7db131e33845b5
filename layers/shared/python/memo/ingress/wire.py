"""What Meta POSTs to the webhook (WhatsApp Cloud API), read with the standard library.

Only the fields Memo reads are typed (named tuples: a dataclass costs ten times as much to define, at every
cold start); the rest of the payload is ignored, so a new field from Meta never fails a valid payload. A body
that is not a WhatsApp Business Account payload (wrong `object`, no `entry`, a field of the wrong type) is
refused with every bad field named by its path (`entry.0.changes.0.value.messages.0.id`): the 400 says which.

The webhook's ingress path is what Meta waits on, and a cold start reads this module: it needs no
pydantic. The rules are pydantic's lax mode, field by field, as the wire models were before:
- a string field takes a string only; `id` of a message is not empty (its length is bounded later,
  `memo.ingress.ids`: an over-long one drops that message, not the batch); a system message's
  `wa_id` / `new_wa_id` also takes a whole number (its digits);
- a number field (`code`, `file_size`) takes an integer, a float without a fraction or a string of
  an integer; a flag (`voice`) takes a boolean, 0 or 1, or the words true/false, yes/no, on/off;
- `timestamp` is a string of epoch seconds, also given as a number;
- `biz_opaque_callback_data` that is not a string is dropped (it is not a tag Memo wrote);
- `object` is `whatsapp_business_account`, `entry` has at least one item, `messaging_product`
  (when given) is `whatsapp`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")
Path = tuple[str | int, ...]
_ABSENT: Any = object()
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
# A string pydantic reads as an integer: ASCII digits (underscores between them), a sign, `.0`s.
_INTEGER = re.compile(r"[+-]?\d+(?:_\d+)*(?:\.0+)?", re.ASCII)


class WireError(ValueError):
    """The payload is not a WhatsApp webhook payload; `fields` are the paths of the bad fields."""

    def __init__(self, fields: list[str]) -> None:
        super().__init__(f"invalid {', '.join(fields)}")
        self.fields = fields


class _Reader:
    """Reads one document, collecting every bad field's path instead of stopping at the first."""

    def __init__(self) -> None:
        self.bad: list[Path] = []

    def fail(self, path: Path) -> Any:
        self.bad.append(path)
        return None

    def obj(self, value: Any, path: Path, build: Callable[[_Obj], T]) -> T | None:
        if not isinstance(value, dict):
            return self.fail(path)
        return build(_Obj(self, value, path))

    def optional_obj(self, value: Any, path: Path, build: Callable[[_Obj], T]) -> T | None:
        return None if value is None or value is _ABSENT else self.obj(value, path, build)

    def items(self, value: Any, path: Path, build: Callable[[_Obj], T]) -> tuple[T, ...]:
        if value is _ABSENT:
            return ()
        if not isinstance(value, list):
            self.fail(path)
            return ()
        built = [self.obj(item, (*path, index), build) for index, item in enumerate(value)]
        return tuple(item for item in built if item is not None)


class _Obj:
    """One JSON object of the payload, its fields read by type."""

    def __init__(self, reader: _Reader, value: dict[str, Any], path: Path) -> None:
        self.reader, self.value, self.path = reader, value, path

    def _get(self, name: str) -> Any:
        return self.value.get(name, _ABSENT)

    def at(self, name: str) -> Path:
        return (*self.path, name)

    def text(self, name: str, default: str = "") -> str:
        value = self._get(name)
        if value is _ABSENT:
            return default
        return value if isinstance(value, str) else self.reader.fail(self.at(name)) or default

    def required_text(self, name: str, *, min_length: int = 0, max_length: int | None = None) -> str:
        value = self._get(name)
        if not isinstance(value, str) or len(value) < min_length or (max_length and len(value) > max_length):
            self.reader.fail(self.at(name))
            return ""
        return value

    def optional_text(self, name: str) -> str | None:
        value = self._get(name)
        if value is _ABSENT or value is None:
            return None
        return value if isinstance(value, str) else self.reader.fail(self.at(name))

    def optional_digits(self, name: str) -> str | None:
        """A phone number or WhatsApp id: a string, or a whole number written as its digits."""
        value = self._get(name)
        if value is _ABSENT or value is None or isinstance(value, str):
            return None if value is _ABSENT else value
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return str(value)
        return self.reader.fail(self.at(name))

    def optional_int(self, name: str) -> int | None:
        value = self._get(name)
        if value is _ABSENT or value is None:
            return None
        number = _integer(value)
        return number if number is not None else self.reader.fail(self.at(name))

    def optional_flag(self, name: str) -> bool | None:
        value = self._get(name)
        if value is _ABSENT or value is None:
            return None
        flag = _flag(value)
        return flag if flag is not None else self.reader.fail(self.at(name))

    def timestamp(self, name: str = "timestamp") -> str:
        value = self._get(name)
        if value is _ABSENT:
            return "0"
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                return str(int(value))
            except (OverflowError, ValueError):  # inf, nan
                pass
        self.reader.fail(self.at(name))
        return "0"

    def one_of(self, name: str, allowed: str, *, required: bool) -> str:
        value = self._get(name)
        if value is _ABSENT and not required:
            return allowed
        if value != allowed or not isinstance(value, str):
            self.reader.fail(self.at(name))
        return allowed

    def mapping(self, name: str) -> dict[str, object] | None:
        value = self._get(name)
        if value is _ABSENT or value is None:
            return None
        return value if isinstance(value, dict) else self.reader.fail(self.at(name))

    def obj(self, name: str, build: Callable[[_Obj], T]) -> T | None:
        return self.reader.optional_obj(self._get(name), self.at(name), build)

    def required_obj(self, name: str, build: Callable[[_Obj], T]) -> T | None:
        return self.reader.obj(self._get(name), self.at(name), build)

    def items(self, name: str, build: Callable[[_Obj], T]) -> tuple[T, ...]:
        return self.reader.items(self._get(name), self.at(name), build)


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str) and _INTEGER.fullmatch(text := value.strip()):
        return int(text.split(".")[0])
    return None


def _flag(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.lower()  # as pydantic: no surrounding spaces
        return True if word in _TRUE else False if word in _FALSE else None
    return None


class WaError(NamedTuple):
    """An error object of the Cloud API (on a message, a status or a whole change)."""

    code: int | None = None
    title: str | None = None
    message: str | None = None
    error_data: dict[str, object] | None = None

    @property
    def details(self) -> str | None:
        details = (self.error_data or {}).get("details")
        return str(details) if details is not None else None

    @classmethod
    def read(cls, o: _Obj) -> WaError:
        return cls(
            o.optional_int("code"),
            o.optional_text("title"),
            o.optional_text("message"),
            o.mapping("error_data"),
        )


class WaProfile(NamedTuple):
    name: str | None = None

    @classmethod
    def read(cls, o: _Obj) -> WaProfile:
        o.optional_text("username")
        return cls(o.optional_text("name"))


class WaContact(NamedTuple):
    wa_id: str | None = None
    user_id: str | None = None  # business-scoped user id (BSUID), when Meta sends one
    profile: WaProfile | None = None

    @classmethod
    def read(cls, o: _Obj) -> WaContact:
        return cls(o.optional_text("wa_id"), o.optional_text("user_id"), o.obj("profile", WaProfile.read))


class WaText(NamedTuple):
    body: str = ""

    @classmethod
    def read(cls, o: _Obj) -> WaText:
        return cls(o.text("body"))


class WaReplyChoice(NamedTuple):
    id: str
    title: str = ""

    @classmethod
    def read(cls, o: _Obj) -> WaReplyChoice:
        o.optional_text("description")
        return cls(o.required_text("id"), o.text("title"))


def _flow_reply(o: _Obj) -> bool:
    """A completed WhatsApp Flow (`interactive.nfm_reply`): checked, never read (no Flows are sent)."""
    for name in ("name", "body", "response_json"):
        o.optional_text(name)
    return True


class WaInteractive(NamedTuple):
    type: str
    button_reply: WaReplyChoice | None = None
    list_reply: WaReplyChoice | None = None

    @classmethod
    def read(cls, o: _Obj) -> WaInteractive:
        o.obj("nfm_reply", _flow_reply)
        return cls(
            o.required_text("type"),
            o.obj("button_reply", WaReplyChoice.read),
            o.obj("list_reply", WaReplyChoice.read),
        )


class WaButton(NamedTuple):
    """A quick-reply button of a template message."""

    payload: str | None = None
    text: str = ""

    @classmethod
    def read(cls, o: _Obj) -> WaButton:
        return cls(o.optional_text("payload"), o.text("text"))


class WaReaction(NamedTuple):
    message_id: str | None = None  # the message reacted to
    emoji: str | None = None  # absent or empty: the reaction was removed

    @classmethod
    def read(cls, o: _Obj) -> WaReaction:
        return cls(o.optional_text("message_id"), o.optional_text("emoji"))


class WaMedia(NamedTuple):
    """A media message's file: audio or a voice note (the only media Memo downloads), or an image,
    video or document, of which Memo reads only the caption."""

    id: str | None = None
    mime_type: str | None = None
    voice: bool | None = None  # audio recorded as a voice note
    file_size: int | None = None  # sent by some API versions; the media endpoint always has it
    caption: str | None = None  # image, video, document: the text the person wrote with it

    @classmethod
    def read(cls, o: _Obj) -> WaMedia:
        o.optional_text("sha256")
        return cls(
            o.optional_text("id"),
            o.optional_text("mime_type"),
            o.optional_flag("voice"),
            o.optional_int("file_size"),
            o.optional_text("caption"),
        )


class WaSystem(NamedTuple):
    """`user_changed_number` comes from the old number and names the new one in `wa_id` (before
    webhook v12: `new_wa_id`, at times a number); `new_number` is `wa_id`, else `new_wa_id`."""

    type: str | None = None  # user_changed_number, customer_identity_changed, ...
    new_wa_id: str | None = None
    wa_id: str | None = None

    @property
    def new_number(self) -> str | None:
        return self.wa_id or self.new_wa_id

    @classmethod
    def read(cls, o: _Obj) -> WaSystem:
        for name in ("body", "customer", "identity"):
            o.optional_text(name)
        return cls(o.optional_text("type"), o.optional_digits("new_wa_id"), o.optional_digits("wa_id"))


class WaEditedMessage(NamedTuple):
    text: WaText | None = None  # the new text; of an edited image, video or document, its new caption

    @classmethod
    def read(cls, o: _Obj) -> WaEditedMessage:
        o.optional_text("type")
        captions = [getattr(o.obj(k, WaMedia.read), "caption", None) for k in ("image", "video", "document")]
        return cls(o.obj("text", WaText.read) or next((WaText(c) for c in captions if c and c.strip()), None))


class WaEdit(NamedTuple):
    original_message_id: str | None = None
    message: WaEditedMessage | None = None

    @classmethod
    def read(cls, o: _Obj) -> WaEdit:
        return cls(o.optional_text("original_message_id"), o.obj("message", WaEditedMessage.read))


class WaRevoke(NamedTuple):
    original_message_id: str | None = None

    @classmethod
    def read(cls, o: _Obj) -> WaRevoke:
        return cls(o.optional_text("original_message_id"))


class WaContext(NamedTuple):
    id: str | None = None  # the message being replied to

    @classmethod
    def read(cls, o: _Obj) -> WaContext:
        o.optional_text("from")
        return cls(o.optional_text("id"))


class WaMessage(NamedTuple):
    id: str
    type: str
    from_: str | None = None  # `from` on the wire
    from_user_id: str | None = None
    timestamp: str = "0"
    group_id: str | None = None  # set when the message was sent in a group chat
    text: WaText | None = None
    interactive: WaInteractive | None = None
    button: WaButton | None = None
    context: WaContext | None = None
    reaction: WaReaction | None = None
    audio: WaMedia | None = None
    voice: WaMedia | None = None  # some API versions send voice notes under their own key
    image: WaMedia | None = None
    video: WaMedia | None = None
    document: WaMedia | None = None
    system: WaSystem | None = None
    edit: WaEdit | None = None
    revoke: WaRevoke | None = None
    errors: tuple[WaError, ...] = ()

    @classmethod
    def read(cls, o: _Obj) -> WaMessage:
        return cls(
            id=o.required_text("id", min_length=1),
            type=o.required_text("type"),
            from_=o.optional_text("from"),
            from_user_id=o.optional_text("from_user_id"),
            timestamp=o.timestamp(),
            group_id=o.optional_text("group_id"),
            text=o.obj("text", WaText.read),
            interactive=o.obj("interactive", WaInteractive.read),
            button=o.obj("button", WaButton.read),
            context=o.obj("context", WaContext.read),
            reaction=o.obj("reaction", WaReaction.read),
            audio=o.obj("audio", WaMedia.read),
            voice=o.obj("voice", WaMedia.read),
            image=o.obj("image", WaMedia.read),
            video=o.obj("video", WaMedia.read),
            document=o.obj("document", WaMedia.read),
            system=o.obj("system", WaSystem.read),
            edit=o.obj("edit", WaEdit.read),
            revoke=o.obj("revoke", WaRevoke.read),
            errors=o.items("errors", WaError.read),
        )


class WaStatus(NamedTuple):
    id: str
    status: str
    recipient_id: str | None = None
    timestamp: str = "0"
    errors: tuple[WaError, ...] = ()
    biz_opaque_callback_data: str | None = None  # the tracking tag Memo sent (memo.whatsapp.tracking)

    @classmethod
    def read(cls, o: _Obj) -> WaStatus:
        tag = o.value.get("biz_opaque_callback_data")
        return cls(
            id=o.required_text("id"),
            status=o.required_text("status"),
            recipient_id=o.optional_text("recipient_id"),
            timestamp=o.timestamp(),
            errors=o.items("errors", WaError.read),
            biz_opaque_callback_data=tag if isinstance(tag, str) else None,
        )


class WaMetadata(NamedTuple):
    phone_number_id: str

    @classmethod
    def read(cls, o: _Obj) -> WaMetadata:
        o.optional_text("display_phone_number")
        return cls(o.required_text("phone_number_id"))


class WaValue(NamedTuple):
    metadata: WaMetadata | None = None
    contacts: tuple[WaContact, ...] = ()
    messages: tuple[WaMessage, ...] = ()
    statuses: tuple[WaStatus, ...] = ()
    errors: tuple[WaError, ...] = ()  # account-level errors (e.g. 130429)

    @classmethod
    def read(cls, o: _Obj) -> WaValue:
        o.one_of("messaging_product", "whatsapp", required=False)
        return cls(
            metadata=o.obj("metadata", WaMetadata.read),
            contacts=o.items("contacts", WaContact.read),
            messages=o.items("messages", WaMessage.read),
            statuses=o.items("statuses", WaStatus.read),
            errors=o.items("errors", WaError.read),
        )


class WaChange(NamedTuple):
    field: str
    value: WaValue

    @classmethod
    def read(cls, o: _Obj) -> WaChange:
        return cls(o.required_text("field"), o.required_obj("value", WaValue.read) or WaValue())


class WaEntry(NamedTuple):
    id: str
    changes: tuple[WaChange, ...] = ()

    @classmethod
    def read(cls, o: _Obj) -> WaEntry:
        return cls(o.required_text("id"), o.items("changes", WaChange.read))


class WebhookPayload(NamedTuple):
    entry: tuple[WaEntry, ...]

    @classmethod
    def read(cls, o: _Obj) -> WebhookPayload:
        o.one_of("object", "whatsapp_business_account", required=True)
        entries = o.value.get("entry", _ABSENT)
        if not isinstance(entries, list) or not entries:
            o.reader.fail(o.at("entry"))
            return cls(())
        return cls(o.items("entry", WaEntry.read))


def parse_payload(document: object) -> WebhookPayload:
    """The payload of a webhook body (its JSON already decoded); `WireError` names every bad field."""
    reader = _Reader()
    payload = reader.obj(document, (), WebhookPayload.read)
    if reader.bad or payload is None:
        raise WireError(sorted({".".join(str(part) for part in path) or "body" for path in reader.bad}))
    return payload
