"""The local Graph API sink: records what Memo sends to WhatsApp, and lets readers wait for it."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True)
class StoredMedia:
    data: bytes
    mime_type: str


class GraphSink:
    def __init__(self) -> None:
        self._records: list[SentRecord] = []
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._media: dict[str, StoredMedia] = {}

    def add_media(self, data: bytes, mime_type: str) -> str:
        """Hold a media file a simulated user sends (a voice note); returns its Graph API media id."""
        with self._cond:
            media_id = f"{len(self._media) + 1:015d}"
            self._media[media_id] = StoredMedia(data=data, mime_type=mime_type)
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
