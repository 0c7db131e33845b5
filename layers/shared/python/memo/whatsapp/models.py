"""Wire models of the WhatsApp Cloud API webhook (what Meta POSTs to us).

Only the fields Memo reads are typed; everything else is kept (`extra="allow"`) so that a new field
from Meta never makes a valid payload fail. A body that is not a WhatsApp Business Account payload at
all (wrong `object`, no `entry`) fails validation and is answered with 400.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Wire(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


def _lenient_timestamp(value: object) -> object:
    """Meta documents the timestamp as a string of epoch seconds; some providers and test tools send
    a number. Both are accepted (as the string); anything else is still a shape error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return str(int(value))
    return value


class WaError(_Wire):
    """An error object of the Cloud API (on a message, a status or a whole change)."""

    code: int | None = None
    title: str | None = None
    message: str | None = None
    error_data: dict[str, object] | None = None

    @property
    def details(self) -> str | None:
        details = (self.error_data or {}).get("details")
        return str(details) if details is not None else None


class WaProfile(_Wire):
    name: str | None = None
    username: str | None = None


class WaContact(_Wire):
    wa_id: str | None = None
    user_id: str | None = None  # business-scoped user id (BSUID), when Meta sends one
    profile: WaProfile | None = None


class WaText(_Wire):
    body: str = ""


class WaReplyChoice(_Wire):
    id: str
    title: str = ""
    description: str | None = None


class WaFlowReply(_Wire):
    """A completed WhatsApp Flow (`interactive.nfm_reply`)."""

    name: str | None = None
    body: str | None = None
    response_json: str | None = None


class WaInteractive(_Wire):
    type: str
    button_reply: WaReplyChoice | None = None
    list_reply: WaReplyChoice | None = None
    nfm_reply: WaFlowReply | None = None


class WaButton(_Wire):
    """A quick-reply button of a template message."""

    payload: str | None = None
    text: str = ""


class WaReaction(_Wire):
    message_id: str | None = None  # the message reacted to
    emoji: str | None = None  # absent or empty: the reaction was removed


class WaMedia(_Wire):
    """An image, video, audio, document or sticker: Memo only ever downloads audio."""

    id: str | None = None
    mime_type: str | None = None
    sha256: str | None = None
    voice: bool | None = None  # audio recorded as a voice note
    file_size: int | None = None  # sent by some API versions; the media endpoint always has it


class WaSystem(_Wire):
    type: str | None = None  # user_changed_number, customer_identity_changed, ...
    body: str | None = None
    new_wa_id: str | None = None
    wa_id: str | None = None
    customer: str | None = None
    identity: str | None = None


class WaEditedMessage(_Wire):
    type: str | None = None
    text: WaText | None = None


class WaEdit(_Wire):
    original_message_id: str | None = None
    message: WaEditedMessage | None = None


class WaRevoke(_Wire):
    original_message_id: str | None = None


class WaContext(_Wire):
    id: str | None = None  # the message being replied to
    from_: str | None = Field(default=None, alias="from")


class WaMessage(_Wire):
    id: str = Field(min_length=1, max_length=256)
    from_: str | None = Field(default=None, alias="from")
    from_user_id: str | None = None
    timestamp: str = "0"
    type: str
    group_id: str | None = None  # set when the message was sent in a group chat
    text: WaText | None = None
    interactive: WaInteractive | None = None
    button: WaButton | None = None
    context: WaContext | None = None
    reaction: WaReaction | None = None
    audio: WaMedia | None = None
    voice: WaMedia | None = None  # some API versions send voice notes under their own key
    system: WaSystem | None = None
    edit: WaEdit | None = None
    revoke: WaRevoke | None = None
    errors: list[WaError] = Field(default_factory=list)

    _timestamp = field_validator("timestamp", mode="before")(_lenient_timestamp)


def _string_or_none(value: object) -> object:
    """Meta echoes `biz_opaque_callback_data` as the string it was sent as; anything else is not a
    tag Memo wrote, and never makes the payload fail."""
    return value if isinstance(value, str) else None


class WaStatus(_Wire):
    id: str
    status: str
    recipient_id: str | None = None
    timestamp: str = "0"
    errors: list[WaError] = Field(default_factory=list)
    biz_opaque_callback_data: str | None = None  # the tracking tag Memo sent (memo.whatsapp.tracking)

    _timestamp = field_validator("timestamp", mode="before")(_lenient_timestamp)
    _tag = field_validator("biz_opaque_callback_data", mode="before")(_string_or_none)


class WaMetadata(_Wire):
    display_phone_number: str | None = None
    phone_number_id: str


class WaValue(_Wire):
    messaging_product: Literal["whatsapp"] = "whatsapp"
    metadata: WaMetadata | None = None
    contacts: list[WaContact] = Field(default_factory=list)
    messages: list[WaMessage] = Field(default_factory=list)
    statuses: list[WaStatus] = Field(default_factory=list)
    errors: list[WaError] = Field(default_factory=list)  # account-level errors (e.g. 130429)


class WaChange(_Wire):
    field: str
    value: WaValue


class WaEntry(_Wire):
    id: str
    changes: list[WaChange] = Field(default_factory=list)


class WebhookPayload(_Wire):
    object: Literal["whatsapp_business_account"]
    entry: list[WaEntry] = Field(min_length=1)
