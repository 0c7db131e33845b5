"""The local Graph API sink: records what Memo sends to WhatsApp, and lets readers wait for it.

Tests make it answer like a troubled Graph API (`GraphSink.fail_after_delivery`): the message is
delivered (recorded, as Meta would have it) and then the answer is a 500, or no answer comes before
the sender's timeout. Each recorded message keeps its tracking tag (`biz_opaque_callback_data`), so a
test can send Meta's status for it, tag included, the way Meta echoes it.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

AfterDelivery = Literal["500", "timeout"]

# What Meta answers when it fails on its side (the message may or may not have gone out).
SERVER_ERROR = {
    "error": {
        "message": "An unknown error has occurred.",
        "type": "OAuthException",
        "code": 1,
        "fbtrace_id": "local",
    }
}


@dataclass(frozen=True)
class SentRecord:
    index: int
    phone_number_id: str
    body: dict[str, Any]
    message_id: str = ""  # what the Graph API answered (`messages[0].id`)

    @property
    def to(self) -> str:
        return str(self.body.get("to") or self.body.get("recipient") or "")

    @property
    def is_read_receipt(self) -> bool:
        return self.body.get("status") == "read"

    @property
    def tag(self) -> str | None:
        """The tracking tag the message was sent with (Meta echoes it in the message's statuses)."""
        value = self.body.get("biz_opaque_callback_data")
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class SinkAnswer:
    """How the local Graph API answers one POST: `status` and `body`, after `hold` seconds (a hold
    with no body: no answer at all, the connection is closed once the client gave up)."""

    status: int
    body: dict[str, Any] | None
    hold: float = 0.0


@dataclass(frozen=True)
class StoredMedia:
    data: bytes
    mime_type: str
    url: str | None = None  # the URL the lookup answers instead of the sink's own (a hostile answer)


class GraphSink:
    def __init__(self) -> None:
        self._records: list[SentRecord] = []
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._media: dict[str, StoredMedia] = {}
        self._after_delivery: deque[tuple[AfterDelivery, float]] = deque()

    def fail_after_delivery(self, how: AfterDelivery, *, times: int = 1, hold: float = 2.0) -> None:
        """The next `times` messages (not read receipts) are delivered, then answered with a 500
        (`"500"`) or not answered for `hold` seconds (`"timeout"`: longer than the sender waits)."""
        with self._cond:
            self._after_delivery.extend([(how, hold)] * times)

    def post(self, phone_number_id: str, body: dict[str, Any]) -> SinkAnswer:
        """Record one POST to `/{phone_number_id}/messages` and say how the Graph API answers it."""
        message_id = self.record(phone_number_id, body)
        if body.get("status") == "read":
            return SinkAnswer(200, {"success": True})
        with self._cond:
            fault = self._after_delivery.popleft() if self._after_delivery else None
        if fault is not None:
            how, hold = fault
            return SinkAnswer(500, SERVER_ERROR) if how == "500" else SinkAnswer(500, None, hold=hold)
        to = body.get("to") or body.get("recipient")
        return SinkAnswer(
            200,
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": to, "wa_id": to}],
                "messages": [{"id": message_id}],
            },
        )

    def add_media(self, data: bytes, mime_type: str, *, url: str | None = None) -> str:
        """Hold a media file a simulated user sends (a voice note); returns its Graph API media id.
        With `url`, the media lookup answers that URL instead of the sink's own."""
        with self._cond:
            media_id = f"{len(self._media) + 1:015d}"
            self._media[media_id] = StoredMedia(data=data, mime_type=mime_type, url=url)
        return media_id

    def media(self, media_id: str) -> StoredMedia | None:
        with self._cond:
            return self._media.get(media_id)

    def record(self, phone_number_id: str, body: dict[str, Any]) -> str:
        with self._cond:
            index = len(self._records)
            message_id = f"wamid.local.{next(self._ids)}"
            self._records.append(
                SentRecord(index=index, phone_number_id=phone_number_id, body=body, message_id=message_id)
            )
            self._cond.notify_all()
        return message_id

    def messages(self, *, to: str | None = None, after: int = -1) -> list[SentRecord]:
        with self._cond:
            return [
                r
                for r in self._records
                if r.index > after and not r.is_read_receipt and (to is None or r.to == to)
            ]

    @property
    def last_index(self) -> int:
        with self._cond:
            return len(self._records) - 1

    def wait_for(self, *, to: str, after: int, timeout: float, quiet: float = 0.4) -> list[SentRecord]:
        """Wait until at least one message to `to` arrives after `after`, then until `quiet` passes."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._unlocked_messages(to, after):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return []
                self._cond.wait(remaining)
            seen = len(self._records)
            while True:
                self._cond.wait(quiet)
                if len(self._records) == seen:
                    break
                seen = len(self._records)
            return self._unlocked_messages(to, after)

    def _unlocked_messages(self, to: str, after: int) -> list[SentRecord]:
        return [r for r in self._records if r.index > after and not r.is_read_receipt and r.to == to]
