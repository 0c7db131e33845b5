"""End to end through `make serve`'s server: a real HTTP process, signed payloads as Meta sends them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from memo.local.whatsapp_user import WhatsAppUser, post_webhook
from tests.support.clock import python_on_the_test_clock

REPO = Path(__file__).resolve().parents[2]
SECRET = "e2e-app-secret"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "WHATSAPP_APP_SECRET": SECRET,
        "WHATSAPP_VERIFY_TOKEN": "e2e-verify",
        "PORT": str(port),
    }
    for key in ("WHATSAPP_API_BASE_URL", "AWS_ENDPOINT_URL", "POWERTOOLS_METRICS_DISABLED"):
        env.pop(key, None)
    process = subprocess.Popen(
        python_on_the_test_clock("memo.local.cli", "serve"),
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    banner = process.stdout.readline()  # printed once the stack is up
    assert "Memo local stack on" in banner, banner
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _replies(base: str, to: str, after: int = -1, wait: float = 15) -> list[dict]:
    with urllib.request.urlopen(
        f"{base}/_local/outbox?to={to}&after={after}&wait={wait}", timeout=wait + 5
    ) as response:
        return json.loads(response.read())


def test_handshake_over_http(server: str) -> None:
    url = f"{server}/webhook?hub.mode=subscribe&hub.verify_token=e2e-verify&hub.challenge=42"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert (response.status, response.read()) == (200, b"42")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url.replace("e2e-verify", "guess"), timeout=10)
    assert refused.value.code == 403


def test_an_english_and_a_hebrew_conversation(server: str) -> None:
    user = WhatsAppUser(wa_id="972509990001", name="Dana")
    status, _ = post_webhook(server, user.payload(user.text("hi there")), app_secret=SECRET)
    assert status == 200
    first = _replies(server, user.wa_id)
    assert "Dana" in first[0]["body"]["text"]["body"]
    post_webhook(server, user.payload(user.text("מה שלומך?")), app_secret=SECRET)
    second = _replies(server, user.wa_id, after=first[-1]["index"])
    assert second[0]["body"]["text"]["body"].startswith("מצוין")


def test_an_unsigned_post_is_refused_and_nothing_is_answered(server: str) -> None:
    user = WhatsAppUser(wa_id="972509990002")
    status, body = post_webhook(server, user.payload(user.text("hi")), app_secret=None)
    assert (status, body["error"]["code"]) == (401, "SIGNATURE_MISSING")
    assert _replies(server, user.wa_id, wait=1) == []


def test_a_duplicate_delivery_is_answered_once(server: str) -> None:
    user = WhatsAppUser(wa_id="972509990003")
    payload = user.payload(user.text("thanks!"))
    assert post_webhook(server, payload, app_secret=SECRET)[0] == 200
    assert post_webhook(server, payload, app_secret=SECRET)[0] == 200
    first = _replies(server, user.wa_id)
    assert len(first) == 1
    assert _replies(server, user.wa_id, after=first[-1]["index"], wait=1.5) == []


def test_make_run_chat_speaks_both_languages(tmp_path: Path) -> None:
    env = {**os.environ, "PORT": "0"}
    env.pop("WHATSAPP_API_BASE_URL", None)
    state = tmp_path / "state.json"
    result = subprocess.run(
        [sys.executable, "-m", "memo.local.cli", "chat", "--port", "0", "--state", str(state)],
        cwd=REPO,
        env=env,
        input="hello\nשלום\n/quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    replies = [line for line in result.stdout.splitlines() if "memo> " in line]
    assert len(replies) == 2, result.stdout
    assert "I'm Memo" in replies[0] and "Memo" in replies[1] and "תזכורות" in replies[1]
    assert state.exists()  # what was said is kept for the next `make run`


def test_the_reviewer_page_and_api_are_served_locally_with_dev_tokens(server: str) -> None:
    from caseplatform.review import devtokens
    from memo.local.stack import LOCAL_REVIEW_DEV_SECRET

    with urllib.request.urlopen(f"{server}/review/", timeout=10) as page:
        assert page.status == 200 and b"<html" in page.read().lower()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server}/review/me", timeout=10)
    assert refused.value.code == 401
    token = devtokens.issue(
        LOCAL_REVIEW_DEV_SECRET,
        sub="alice",
        name="Alice",
        groups=["reviewers:memo_operation"],
        ttl_seconds=600,
        # Issued a minute ago: the server process refuses a token dated in its future, and its clock
        # follows this one's only to within seconds on a loaded machine.
        now=int(time.time()) - 60,
    )
    request = urllib.request.Request(f"{server}/review/me", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as me:
        body = json.loads(me.read())
    assert me.status == 200 and "Alice" in json.dumps(body)
