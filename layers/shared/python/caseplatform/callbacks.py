"""Delivering notices to the HTTP callbacks agents registered (`caseplatform.notifications`): each
POST signed with the registration's secret, bounded retries each with a timeout, no redirect ever
followed."""

from __future__ import annotations

import ipaddress
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from caseplatform.errors import EnvelopeInvalid
from caseplatform.notifications import SIGNATURE_HEADER, Callback, CallbackRegistry, CaseNotice, sign

log = logging.getLogger("caseplatform.notifications")

CALLBACK_TIMEOUT_SECONDS = 5.0
CALLBACK_ATTEMPTS = 3


def check_callback_url(url: str, *, local: bool) -> str:
    """The URL a callback may be registered at: https, or in local mode http to a loopback host.
    ENVELOPE_INVALID otherwise."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.scheme == "https" and host:
        return url
    if local and parts.scheme == "http" and _loopback(host):
        return url
    allowed = "https (or http to a loopback host in local mode)" if local else "https"
    raise EnvelopeInvalid([{"path": "$.url", "message": f"a callback URL must be {allowed}"}])


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as the error it is: a callback never follows one."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


Post = Callable[[str, bytes, dict[str, str], float], int]


def urllib_post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST without following redirects; the status code (a redirect is its 3xx status)."""
    opener = urllib.request.build_opener(_NoRedirects)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310 - scheme checked at registration
    try:
        with opener.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


class CallbackSink:
    """POSTs each notice to the case's registered callbacks, signed with each registration's secret,
    `attempts` tries each (a 2xx answer ends them; a network error, a redirect or any other status
    is tried again after `backoff` seconds, doubled each time)."""

    def __init__(
        self,
        registry: CallbackRegistry,
        *,
        post: Post = urllib_post,
        sleep: Callable[[float], None] = time.sleep,
        attempts: int = CALLBACK_ATTEMPTS,
        timeout: float = CALLBACK_TIMEOUT_SECONDS,
        backoff: float = 0.5,
    ) -> None:
        self._registry = registry
        self._post = post
        self._sleep = sleep
        self._attempts = attempts
        self._timeout = timeout
        self._backoff = backoff

    def send(self, notice: CaseNotice) -> None:
        failed = [c.url for c in self._registry.for_case(notice.case_id) if not self._deliver(c, notice)]
        if failed:
            raise RuntimeError(f"callbacks not delivered after {self._attempts} attempts: {failed}")

    def _deliver(self, callback: Callback, notice: CaseNotice) -> bool:
        body = notice.body()
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(body, callback.secret),
            "X-Hitl-Event-Id": notice.event_id,
        }
        delay = self._backoff
        for attempt in range(1, self._attempts + 1):
            try:
                status = self._post(callback.url, body, headers, self._timeout)
            except OSError as error:
                status = 0
                log.warning("HITL_CALLBACK_ERROR", extra={"case_id": notice.case_id, "error": str(error)})
            if 200 <= status < 300:
                return True
            if attempt < self._attempts:
                self._sleep(delay)
                delay *= 2
        return False
