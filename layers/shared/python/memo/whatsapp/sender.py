"""The WhatsApp sender: POST `{base}/{phone_number_id}/messages` with the bearer token.

A message cannot be taken back, so the sender tells apart what it knows from what it does not:
- **not accepted** (certain): the request never left (a connection that could not be made: DNS,
  refused, TLS, a connect timeout), a 429, any other 4xx. A request that never left and a 429 are
  retried with exponential backoff and jitter (bounded); another 4xx is final. A final failure raises
  `WhatsAppSendError` with Meta's error code.
- **outcome unknown** (ambiguous): the request was sent and then the answer was a 5xx, or it never
  came (a read timeout, a connection cut after sending). Meta may well have delivered the message,
  so it is NOT sent again: the sender logs `SEND_OUTCOME_UNKNOWN` (with the message's tracking tag,
  `memo.whatsapp.tracking`), counts `SendOutcomeUnknown` and raises `WhatsAppSendOutcomeUnknown`.
  Meta's statuses for the message carry the same tag: `sent`/`delivered`/`read` confirm it, `failed`
  is followed up like any failed message. Callers keep their claims (a reply is not offered to a
  retry).
Read receipts are idempotent, so they are retried on an unknown outcome too.

Every message body carries its tracking tag in `biz_opaque_callback_data`; a caller that does not
give one gets a reply tag for the recipient.
"""

from __future__ import annotations

import http.client
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
from memo.whatsapp.tags import OutboundTag

if TYPE_CHECKING:
    from memo.settings import WhatsAppSettings

# Answers that say Meta did not take the message, and a retry may: rate limited.
RETRYABLE_STATUS = frozenset({429})


class RequestNotSent(Exception):
    """A transport's way to say the request certainly never reached the server."""


class WhatsAppSendError(Exception):
    """The send failed. `message_ids`: earlier parts of the same reply that Meta did accept."""

    outcome_unknown = False

    def __init__(
        self,
        message: str,
        *,
        status: int | None,
        meta_code: int | None,
        attempts: int,
        message_ids: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.meta_code = meta_code
        self.attempts = attempts
        self.message_ids: list[str] = list(message_ids or [])

    @property
    def may_have_reached_user(self) -> bool:
        """True when a part may be on the user's phone: the send must not be offered to a retry."""
        return self.outcome_unknown or bool(self.message_ids)


class WhatsAppSendOutcomeUnknown(WhatsAppSendError):
    """The request was sent and no clear answer came (5xx, timeout): Meta may have delivered it."""

    outcome_unknown = True


class SentMessage(BaseModel):
    message_ids: list[str]


class Sender(Protocol):
    def send(
        self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag | None = None
    ) -> SentMessage: ...

    def mark_read(self, phone_number_id: str, wamid: str) -> None: ...

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage: ...


class Transport(Protocol):
    def __call__(
        self, url: str, body: bytes, headers: dict[str, str], timeout: float
    ) -> tuple[int, bytes]: ...


def urllib_transport(url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
    """urllib wraps what fails while connecting and sending in `URLError` (`RequestNotSent`); what
    fails while waiting for the answer (a read timeout, a cut connection) is raised as it is."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310 - https or local sink
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except urllib.error.URLError as exc:
        raise RequestNotSent(str(exc.reason)) from exc


def tagged(body: dict[str, Any], tag: OutboundTag) -> dict[str, Any]:
    """The body with its tracking tag (`biz_opaque_callback_data`)."""
    return {**body, "biz_opaque_callback_data": tag.encode()}


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

    def send(
        self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag | None = None
    ) -> SentMessage:
        return self._send_all(phone_number_id, message_bodies(to, reply), tag or OutboundTag.new("reply", to))

    def mark_read(self, phone_number_id: str, wamid: str) -> None:
        self._post(phone_number_id, read_receipt(wamid), idempotent=True)

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage:
        """A text into a group chat (`recipient_type: group`): only ever an answer in that group."""
        bodies = message_bodies(group_id, reply, recipient_type="group")
        return self._send_all(phone_number_id, bodies, OutboundTag.new("reply", group_id))

    def send_tagged(self, phone_number_id: str, body: dict[str, Any], tag: OutboundTag) -> SentMessage:
        """One prepared message body (a template), with its tag."""
        return self._send_all(phone_number_id, [body], tag)

    def _send_all(self, phone_number_id: str, bodies: list[dict[str, Any]], tag: OutboundTag) -> SentMessage:
        ids: list[str] = []
        for part, body in enumerate(bodies):
            part_tag = tag.for_part(part)
            try:
                response = self._post(phone_number_id, tagged(body, part_tag))
            except WhatsAppSendError as exc:
                exc.message_ids = ids
                if exc.outcome_unknown:
                    count("SendOutcomeUnknown")
                    logger.warning(
                        "SEND_OUTCOME_UNKNOWN",
                        extra={
                            "carried": tag.kind,
                            "sendToken": tag.token,
                            "part": part,
                            "parts": len(bodies),
                            "reminderId": tag.reminder_id,
                            "mode": tag.mode,
                            "status": exc.status,
                            "metaErrorCode": exc.meta_code,
                            "acceptedParts": len(ids),
                        },
                    )
                raise
            ids.extend(m.get("id", "") for m in response.get("messages", []) if isinstance(m, dict))
        return SentMessage(message_ids=ids)

    def _post(
        self, phone_number_id: str, body: dict[str, Any], *, idempotent: bool = False
    ) -> dict[str, Any]:
        url = f"{self._base_url}/{phone_number_id}/messages"
        data = json.dumps(body, ensure_ascii=False).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"}
        status: int | None = None
        meta_code: int | None = None
        detail = ""
        for attempt in range(1, self._max_attempts + 1):
            unknown = False
            try:
                status, raw = self._transport(url, data, headers, self._timeout)
            except (RequestNotSent, urllib.error.URLError) as exc:
                status, detail = None, f"not sent: {type(exc).__name__}"
            except (OSError, http.client.HTTPException) as exc:
                # Sent, then no answer (a read timeout, a cut connection): Meta may have it.
                status, detail, unknown = None, f"no answer: {type(exc).__name__}", True
            else:
                if 200 <= status < 300:
                    return _json_object(raw)
                meta_code, detail = _meta_error(raw)
                unknown = status >= 500
            if unknown and not idempotent:
                raise WhatsAppSendOutcomeUnknown(
                    f"WhatsApp send outcome unknown: {detail or status}",
                    status=status,
                    meta_code=meta_code,
                    attempts=attempt,
                )
            if status is not None and status < 500 and status not in RETRYABLE_STATUS:
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
    """A send that failed for certain is an error; one with an unknown outcome was already logged
    (`SEND_OUTCOME_UNKNOWN`) and is not counted as a failure."""
    if exc.outcome_unknown:
        logger.info("WHATSAPP_SEND_UNCONFIRMED", extra={"what": what, "status": exc.status})
        return
    count("SendFailures")
    logger.error(
        "WHATSAPP_SEND_FAILED",
        extra={"what": what, "status": exc.status, "metaErrorCode": exc.meta_code, "attempts": exc.attempts},
    )
