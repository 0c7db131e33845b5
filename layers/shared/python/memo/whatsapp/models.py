"""Wire models of the WhatsApp Cloud API webhook (what Meta POSTs to us).

Only the fields Memo reads are typed; everything else is kept (`extra="allow"`) so that a new field
from Meta never makes a valid payload fail. A body that is not a WhatsApp Business Account payload at
all (wrong `object`, no `entry`) fails validation and is answered with 400.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Wire(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


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


class WaInteractive(_Wire):
    type: str
    button_reply: WaReplyChoice | None = None
    list_reply: WaReplyChoice | None = None


class WaButton(_Wire):
    """A quick-reply button of a template message."""

    payload: str | None = None
    text: str = ""


class WaContext(_Wire):
    id: str | None = None  # the message being replied to
    from_: str | None = Field(default=None, alias="from")


class WaMessage(_Wire):
    id: str = Field(min_length=1, max_length=256)
    from_: str | None = Field(default=None, alias="from")
    from_user_id: str | None = None
    timestamp: str = "0"
    type: str
    text: WaText | None = None
    interactive: WaInteractive | None = None
    button: WaButton | None = None
    context: WaContext | None = None


class WaStatus(_Wire):
    id: str
    status: str
    recipient_id: str | None = None


class WaMetadata(_Wire):
    display_phone_number: str | None = None
    phone_number_id: str


class WaValue(_Wire):
    messaging_product: Literal["whatsapp"] = "whatsapp"
    metadata: WaMetadata | None = None
    contacts: list[WaContact] = Field(default_factory=list)
    messages: list[WaMessage] = Field(default_factory=list)
    statuses: list[WaStatus] = Field(default_factory=list)


class WaChange(_Wire):
    field: str
    value: WaValue


class WaEntry(_Wire):
    id: str
    changes: list[WaChange] = Field(default_factory=list)


class WebhookPayload(_Wire):
    object: Literal["whatsapp_business_account"]
    entry: list[WaEntry] = Field(min_length=1)
