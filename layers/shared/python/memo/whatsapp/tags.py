"""The tracking tag Memo sends in `biz_opaque_callback_data`, and reads back from Meta's statuses.

Light on purpose (a frozen dataclass, the standard library only): the webhook's ingress path reads
the tag of every status, and a cold start must not pay for more. The record a tag stands for
(`OutboundRecord.of_tag`) is in `memo.whatsapp.tracking`.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from typing import Literal

OutboundKind = Literal["reply", "hitl_question", "reminder"]
SendMode = Literal["text", "template"]

# Meta's limit for `biz_opaque_callback_data`.
TAG_LIMIT = 512
TAG_VERSION = 1
TOKEN_LIMIT = 64
_KIND_CODES: dict[str, OutboundKind] = {"r": "reply", "q": "hitl_question", "d": "reminder"}
_KIND_LETTERS = {kind: code for code, kind in _KIND_CODES.items()}
_MODE_CODES: dict[str, SendMode] = {"t": "text", "m": "template"}
_MODE_LETTERS = {mode: code for code, mode in _MODE_CODES.items()}


def send_token(seed: str | None = None) -> str:
    """A short token naming one send: derived from `seed` (a turn's trace id, a delivery's claim) so
    a log line and a status can be matched, else random."""
    if seed is None:
        return os.urandom(6).hex()
    return hashlib.blake2b(seed.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class OutboundTag:
    """What one outbound message carried, as sent in `biz_opaque_callback_data`."""

    kind: OutboundKind
    thread_id: str
    token: str
    reminder_id: str | None = None  # kind "reminder": the reminder this message delivers
    mode: SendMode | None = None  # kind "reminder": text (inside the 24-hour window) or template
    part: int = 0  # which message of a reply split into several

    @classmethod
    def new(
        cls,
        kind: OutboundKind,
        thread_id: str,
        *,
        seed: str | None = None,
        reminder_id: str | None = None,
        mode: SendMode | None = None,
    ) -> OutboundTag:
        return cls(kind=kind, thread_id=thread_id, token=send_token(seed), reminder_id=reminder_id, mode=mode)

    def for_part(self, part: int) -> OutboundTag:
        return self if part == self.part else replace(self, part=part)

    def encode(self) -> str:
        """Compact JSON. A thread or reminder id too long for Meta's 512 characters is left out: the
        status's `recipient_id` still names the thread, and such a reminder is followed up as a reply."""
        value: dict[str, object] = {"memo": TAG_VERSION, "k": _KIND_LETTERS[self.kind], "s": self.token}
        if self.part:
            value["p"] = self.part
        if self.mode is not None:
            value["m"] = _MODE_LETTERS[self.mode]
        if self.reminder_id is not None:
            value["r"] = self.reminder_id
        value["t"] = self.thread_id
        text = _dump(value)
        if len(text) > TAG_LIMIT:
            del value["t"]
            text = _dump(value)
        if len(text) > TAG_LIMIT:
            value.pop("r", None)
            text = _dump(value)
        return text

    @classmethod
    def decode(cls, raw: str | None, *, recipient: str | None = None) -> OutboundTag | None:
        """The tag of a status, or None: no tag, another sender's data, or not a tag Memo wrote."""
        if not raw or len(raw) > TAG_LIMIT:
            return None
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        if not isinstance(value, dict) or value.get("memo") != TAG_VERSION:
            return None
        kind = _KIND_CODES.get(str(value.get("k")))
        mode = value.get("m")
        thread = value.get("t", recipient)
        token = value.get("s")
        reminder_id = value.get("r")
        part = value.get("p", 0)
        if (
            kind is None
            or (mode is not None and mode not in _MODE_CODES)
            or not isinstance(thread, str)
            or not thread
            or not isinstance(token, str)
            or not 0 < len(token) <= TOKEN_LIMIT
            or (reminder_id is not None and not isinstance(reminder_id, str))
            or not isinstance(part, int)
            or isinstance(part, bool)
            or part < 0
        ):
            return None
        return cls(
            kind=kind,
            thread_id=thread,
            token=token,
            reminder_id=reminder_id,
            mode=_MODE_CODES[mode] if mode is not None else None,
            part=part,
        )


def _dump(value: dict[str, object]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
