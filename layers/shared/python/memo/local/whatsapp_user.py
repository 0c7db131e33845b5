"""A simulated WhatsApp user: builds webhook payloads exactly as Meta sends them, signed.

Used by the terminal chat, the end-to-end tests and the bench.
"""

from __future__ import annotations

import itertools
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

from memo.ingress.webhook import sign

DEFAULT_PHONE_NUMBER_ID = "100000000000001"
DEFAULT_DISPLAY_NUMBER = "15550001111"
WABA_ID = "200000000000002"


def new_wamid() -> str:
    return "wamid.HBgL" + uuid.uuid4().hex.upper()


def envelope(values: list[dict[str, Any]]) -> dict[str, Any]:
    """A webhook body with one entry holding one `messages` change per value."""
    return {
        "object": "whatsapp_business_account",
        "entry": [{"id": WABA_ID, "changes": [{"field": "messages", "value": v} for v in values]}],
    }


@dataclass
class WhatsAppUser:
    wa_id: str = "972501234567"
    name: str = "Dana"
    user_id: str | None = None
    phone_number_id: str = DEFAULT_PHONE_NUMBER_ID
    _clock: itertools.count[int] = field(default_factory=lambda: itertools.count(int(time.time())))

    def value(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        contact: dict[str, Any] = {"profile": {"name": self.name}, "wa_id": self.wa_id}
        if self.user_id:
            contact["user_id"] = self.user_id
        return {
            "messaging_product": "whatsapp",
            "metadata": {
                "display_phone_number": DEFAULT_DISPLAY_NUMBER,
                "phone_number_id": self.phone_number_id,
            },
            "contacts": [contact],
            "messages": messages,
        }

    def message(self, type_: str, content: dict[str, Any], *, wamid: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {
            "from": self.wa_id,
            "id": wamid or new_wamid(),
            "timestamp": str(next(self._clock)),
            "type": type_,
        }
        if self.user_id:
            message["from_user_id"] = self.user_id
        message.update(content)
        return message

    def text(self, body: str, *, wamid: str | None = None) -> dict[str, Any]:
        return self.message("text", {"text": {"body": body}}, wamid=wamid)

    def button_reply(self, choice_id: str, title: str, *, wamid: str | None = None) -> dict[str, Any]:
        interactive = {"type": "button_reply", "button_reply": {"id": choice_id, "title": title}}
        return self.message("interactive", {"interactive": interactive}, wamid=wamid)

    def list_reply(self, choice_id: str, title: str, *, wamid: str | None = None) -> dict[str, Any]:
        interactive = {"type": "list_reply", "list_reply": {"id": choice_id, "title": title}}
        return self.message("interactive", {"interactive": interactive}, wamid=wamid)

    def payload(self, *messages: dict[str, Any]) -> dict[str, Any]:
        return envelope([self.value(list(messages))])


def status_payload(
    wamid: str,
    status: str,
    recipient: str,
    *,
    tag: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    timestamp: int | None = None,
) -> dict[str, Any]:
    """Meta's status of one message Memo sent; `tag` is the `biz_opaque_callback_data` it was sent
    with (Meta echoes it in every status of the message), `errors` a `failed` status's errors."""
    entry: dict[str, Any] = {
        "id": wamid,
        "status": status,
        "timestamp": str(int(time.time()) if timestamp is None else timestamp),
        "recipient_id": recipient,
    }
    if tag is not None:
        entry["biz_opaque_callback_data"] = tag
    if errors:
        entry["errors"] = errors
    return envelope(
        [
            {
                "messaging_product": "whatsapp",
                "metadata": {
                    "display_phone_number": DEFAULT_DISPLAY_NUMBER,
                    "phone_number_id": DEFAULT_PHONE_NUMBER_ID,
                },
                "statuses": [entry],
            }
        ]
    )


def post_webhook(
    base_url: str, payload: dict[str, Any] | bytes, *, app_secret: str | None, timeout: float = 10.0
) -> tuple[int, dict[str, Any]]:
    """POST a webhook body the way Meta does; `app_secret=None` sends it unsigned."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json"}
    if app_secret is not None:
        headers["X-Hub-Signature-256"] = sign(body, app_secret)
    request = urllib.request.Request(f"{base_url}/webhook", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status), json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")
