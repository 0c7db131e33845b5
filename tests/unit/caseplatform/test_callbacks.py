"""HTTP callbacks: signed with the registration's secret, retried a bounded number of times with a
timeout, never following a redirect, registered only at https URLs (or loopback http in local mode)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest

from caseplatform.callbacks import CallbackSink, check_callback_url, urllib_post
from caseplatform.errors import EnvelopeInvalid
from caseplatform.notifications import SIGNATURE_HEADER, Callback, MemoryCallbacks, sign
from tests.unit.caseplatform.test_notifications import NOTICE, FakeTime


def test_a_callback_is_signed_with_its_registrations_secret() -> None:
    posted: list[tuple[str, bytes, dict[str, str], float]] = []

    def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
        posted.append((url, body, headers, timeout))
        return 204

    registry = MemoryCallbacks([Callback("HCB-1", "HITL-1", "https://agent.example/hook", "s3cret")])
    CallbackSink(registry, post=post, timeout=2.5).send(NOTICE)
    [(url, body, headers, timeout)] = posted
    expected = "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert (url, headers[SIGNATURE_HEADER], timeout) == ("https://agent.example/hook", expected, 2.5)
    assert json.loads(body)["feedback"] == "name the map"
    assert sign(body, "other") != expected


def test_delivery_is_retried_a_bounded_number_of_times_then_reported() -> None:
    statuses = iter([500, 0, 503, 200])
    calls: list[int] = []
    time = FakeTime()

    def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
        calls.append(1)
        status = next(statuses)
        if status == 0:
            raise TimeoutError("timed out")
        return status

    registry = MemoryCallbacks([Callback("HCB-1", "HITL-1", "https://agent.example/hook", "k")])
    with pytest.raises(RuntimeError, match="not delivered after 3 attempts"):
        CallbackSink(registry, post=post, sleep=time.sleep, attempts=3, backoff=0.5).send(NOTICE)
    assert (len(calls), time.slept) == (3, [0.5, 1.0])  # the fourth answer (200) is never asked for


class _Redirecting(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.hits.append(self.path)
        if self.path == "/hook":
            self.send_response(302)
            self.send_header("Location", "/stolen")
        else:
            self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def redirecting_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Redirecting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_redirect_is_never_followed(redirecting_server: str) -> None:
    _Redirecting.hits.clear()
    assert urllib_post(f"{redirecting_server}/hook", b"{}", {}, 2.0) == 302
    registry = MemoryCallbacks([Callback("HCB-1", "HITL-1", f"{redirecting_server}/hook", "k")])
    with pytest.raises(RuntimeError):
        CallbackSink(registry, sleep=lambda _: None, attempts=2).send(NOTICE)
    assert "/stolen" not in _Redirecting.hits and _Redirecting.hits.count("/hook") == 3


@pytest.mark.parametrize(
    ("url", "local", "allowed"),
    [
        ("https://agent.example/hook", False, True),
        ("http://agent.example/hook", False, False),
        ("http://127.0.0.1:8080/hook", False, False),
        ("http://127.0.0.1:8080/hook", True, True),
        ("http://localhost/hook", True, True),
        ("http://[::1]:9000/hook", True, True),
        ("http://10.0.0.5/hook", True, False),
        ("http://127.0.0.1.example.com/hook", True, False),
        ("ftp://127.0.0.1/hook", True, False),
        ("file:///etc/passwd", True, False),
        ("https:///nohost", False, False),
    ],
)
def test_only_https_or_loopback_http_in_local_mode(url: str, local: bool, allowed: bool) -> None:
    if allowed:
        assert check_callback_url(url, local=local) == url
    else:
        with pytest.raises(EnvelopeInvalid):
            check_callback_url(url, local=local)
