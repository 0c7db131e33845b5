"""The WhatsApp sender: POST `{base}/{phone_number_id}/messages` with the bearer token.

Bounded retry with exponential backoff and jitter on 429 and 5xx (and on connection errors); any
other 4xx is final. A final failure raises `WhatsAppSendError` carrying Meta's error code, so the
caller can log it and keep the turn's state.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, Self

from pydantic import BaseModel

from memo.observability import count, logger
from memo.replies import Reply
from memo.whatsapp.outbound import message_bodies, read_receipt

if TYPE_CHECKING:
    from memo.settings import WhatsAppSettings

RETRYABLE_STATUS = frozenset({429, 500, 502, 503, 504})


class WhatsAppSendError(Exception):
    def __init__(self, message: str, *, status: int | None, meta_code: int | None, attempts: int) -> None:
        super().__init__(message)
        self.status = status
        self.meta_code = meta_code
        self.attempts = attempts


class SentMessage(BaseModel):
    message_ids: list[str]


class Sender(Protocol):
    def send(self, phone_number_id: str, to: str, reply: Reply) -> SentMessage: ...

    def mark_read(self, phone_number_id: str, wamid: str) -> None: ...

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage: ...


class Transport(Protocol):
    def __call__(
        self, url: str, body: bytes, headers: dict[str, str], timeout: float
    ) -> tuple[int, bytes]: ...


def urllib_transport(url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310 - https or local sink
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


class GraphApiSender:
    def __init__(
        self,
        *,
        base_url: str,
        access_token: str,
        timeout: float = 10.0,
        max_attempts: int = 4,
        base_delay: float = 0.25,
        transport: Transport = urllib_transport,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._token = access_token
        self._timeout = timeout
        self._max_attempts = max_attempts
        self._base_delay = base_delay
        self._transport = transport
        self._sleep = sleep

    @classmethod
    def from_settings(cls, settings: WhatsAppSettings) -> Self:
        """The sender a Lambda builds from its WhatsApp settings (secrets already resolved)."""
        return cls(
            base_url=settings.api_base_url,
            access_token=settings.access_token.get_secret_value(),
            timeout=settings.send_timeout_seconds,
            max_attempts=settings.send_max_attempts,
        )

    def send(self, phone_number_id: str, to: str, reply: Reply) -> SentMessage:
        ids: list[str] = []
        for body in message_bodies(to, reply):
            response = self._post(phone_number_id, body)
            ids.extend(m.get("id", "") for m in response.get("messages", []) if isinstance(m, dict))
        return SentMessage(message_ids=ids)

    def mark_read(self, phone_number_id: str, wamid: str) -> None:
        self._post(phone_number_id, read_receipt(wamid))

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage:
        """A text into a group chat (`recipient_type: group`): only ever an answer in that group."""
        ids: list[str] = []
        for body in message_bodies(group_id, reply, recipient_type="group"):
            response = self._post(phone_number_id, body)
            ids.extend(m.get("id", "") for m in response.get("messages", []) if isinstance(m, dict))
        return SentMessage(message_ids=ids)

    def _post(self, phone_number_id: str, body: dict[str, Any]) -> dict[str, Any]:
        url = f"{self._base_url}/{phone_number_id}/messages"
        data = json.dumps(body, ensure_ascii=False).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"}
        status: int | None = None
        meta_code: int | None = None
        detail = ""
        for attempt in range(1, self._max_attempts + 1):
            try:
                status, raw = self._transport(url, data, headers, self._timeout)
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                status, raw, detail = None, b"", type(exc).__name__
            else:
                if 200 <= status < 300:
                    return _json_object(raw)
                meta_code, detail = _meta_error(raw)
            if status is not None and status not in RETRYABLE_STATUS:
                break
            if attempt < self._max_attempts:
                count("WhatsAppSendRetries")
                self._sleep(self._base_delay * 2 ** (attempt - 1) * (1 + random.random()))  # noqa: S311 - jitter
        raise WhatsAppSendError(
            f"WhatsApp send failed: {detail or status}", status=status, meta_code=meta_code, attempts=attempt
        )


def _json_object(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw or b"{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _meta_error(raw: bytes) -> tuple[int | None, str]:
    error = _json_object(raw).get("error")
    if not isinstance(error, dict):
        return None, raw[:200].decode(errors="replace")
    code = error.get("code")
    return (code if isinstance(code, int) else None), str(error.get("message", ""))[:200]


def log_send_failure(exc: WhatsAppSendError, *, what: str) -> None:
    count("SendFailures")
    logger.error(
        "WHATSAPP_SEND_FAILED",
        extra={"what": what, "status": exc.status, "metaErrorCode": exc.meta_code, "attempts": exc.attempts},
    )
