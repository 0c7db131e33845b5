"""Voice notes whose media URL is hostile, through the webhook handler (signed payloads), the local
Graph API sink and real sockets: the access token reaches only the Graph API and the allowed media
hosts, a redirect off the list is not followed, a slow drip ends at the configured total time, and in
each case the person hears that the note could not be made out while nothing reaches the
transcription API."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.settings import media_origin
from memo.whatsapp.media import GraphMedia, MediaRefused, MediaTimedOut
from tests.integration.turn.fake_transcription import FakeTranscription
from tests.support.conversation import Conversation, LogEvents

NOT_MADE_OUT = "I couldn't make out that voice message 🙏 Could you try again, or type it?"
DRIP_SECONDS = 0.5  # MEMO_MEDIA_TIMEOUT_SECONDS in the drip tests
DRIP_BODY = b"d" * 100  # one byte each 20 ms: two seconds, four times the bound


@dataclass(frozen=True)
class Route:
    body: bytes = b"OggS-hosted"
    location: str | None = None  # a redirect
    drip_interval: float = 0.0  # seconds between bytes


class MediaHost:
    """A local HTTP host serving `routes` by path and recording each request's path and token."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, str | None]] = []
        host = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                host.requests.append((self.path, self.headers.get("Authorization")))
                route = host.routes.get(self.path.split("?")[0], Route(b"not found"))
                if route.location is not None:
                    self.send_response(302)
                    self.send_header("Location", route.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "audio/ogg")
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                try:
                    for i in range(len(route.body)) if route.drip_interval else [None]:
                        self.wfile.write(route.body[i : i + 1] if i is not None else route.body)
                        self.wfile.flush()
                        time.sleep(route.drip_interval)
                except OSError:
                    return  # the client hung up

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> MediaHost:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def cdn() -> Iterator[MediaHost]:
    """The media host the configuration allows (Meta's CDN, locally)."""
    with MediaHost() as host:
        yield host


@pytest.fixture
def stranger() -> Iterator[MediaHost]:
    """A host nobody allowed: it must never be asked anything."""
    with MediaHost() as host:
        yield host


@pytest.fixture
def transcription() -> Iterator[FakeTranscription]:
    with FakeTranscription() as fake:
        os.environ.update(
            {
                "OPENAI_API_KEY": "sk-test",
                "OPENAI_BASE_URL": fake.base_url,
                "MEMO_LLM_MAX_RETRIES": "0",
                "MEMO_TRANSCRIPTION_MODEL": "whisper-test",
                "MEMO_MEDIA_TIMEOUT_SECONDS": str(DRIP_SECONDS),
            }
        )
        yield fake


@pytest.fixture
def voice_chat(transcription: FakeTranscription, cdn: MediaHost) -> Iterator[Conversation]:
    os.environ["WHATSAPP_MEDIA_HOSTS"] = f"lookaside.fbsbx.com, {cdn.origin}"
    with LocalStack(start_poller=False) as running:
        yield Conversation(stack=running, user=WhatsAppUser(wa_id="15551234567"))  # answered in English


def _voice(chat: Conversation, url: str) -> dict[str, Any]:
    """A voice note whose media lookup (on the local Graph API sink) answers `url`."""
    media_id = chat.stack.sink.add_media(b"OggS-in-the-sink", "audio/ogg", url=url)
    return chat.user.message(
        "audio", {"audio": {"id": media_id, "mime_type": "audio/ogg; codecs=opus", "voice": True}}
    )


@pytest.mark.parametrize(
    "hostile",
    [
        "{stranger}/steal?x=1",  # another host (a loopback port nobody listed)
        "https://lookaside.fbsbx.com.attacker.example/x",  # a name that only starts like Meta's
        "file:///etc/hostname",
        "{sink}/_local/media/1",  # Memo's own loopback service (the sink is not a media host here)
    ],
)
def test_a_voice_note_whose_url_is_off_the_list_is_not_fetched_and_not_transcribed(
    voice_chat: Conversation,
    transcription: FakeTranscription,
    stranger: MediaHost,
    log_events: LogEvents,
    hostile: str,
) -> None:
    transcription.script("Remind me to call mom tomorrow at 5pm")
    url = hostile.format(stranger=stranger.origin, sink=voice_chat.stack.base_url)
    assert voice_chat.deliver(_voice(voice_chat, url)) == [NOT_MADE_OUT]
    assert stranger.requests == [] and transcription.uploads == []
    [refused] = log_events.named("MEDIA_URL_REFUSED")
    assert refused["step"] == "download" and "steal" not in str(refused)
    assert voice_chat.say("hello").startswith("Good")  # nothing lost: the next message is answered


def test_a_redirect_to_another_host_is_not_followed_and_the_token_stays(
    voice_chat: Conversation, transcription: FakeTranscription, cdn: MediaHost, stranger: MediaHost
) -> None:
    transcription.script("Remind me to call mom tomorrow at 5pm")
    cdn.routes["/media/1"] = Route(location=f"{stranger.origin}/steal")
    assert voice_chat.deliver(_voice(voice_chat, f"{cdn.origin}/media/1?mid=1")) == [NOT_MADE_OUT]
    assert [path for path, _ in cdn.requests] == ["/media/1?mid=1"]
    assert stranger.requests == [] and transcription.uploads == []


def test_a_redirect_within_the_list_is_followed_with_the_token(
    voice_chat: Conversation, transcription: FakeTranscription, cdn: MediaHost
) -> None:
    transcription.script("Remind me to call mom tomorrow at 5pm")
    cdn.routes["/media/1"] = Route(location="/media/2")
    cdn.routes["/media/2"] = Route(b"OggS-redirected")
    replies = voice_chat.deliver(_voice(voice_chat, f"{cdn.origin}/media/1"))
    assert replies[0] == "🎙️ I heard: “Remind me to call mom tomorrow at 5pm”"
    assert [upload.file for upload in transcription.uploads] == [b"OggS-redirected"]
    assert [path for path, _ in cdn.requests] == ["/media/1", "/media/2"]
    assert {token for _, token in cdn.requests} == {"Bearer " + os.environ["WHATSAPP_ACCESS_TOKEN"]}


def test_a_slow_drip_ends_at_the_total_time_and_nothing_is_transcribed(
    voice_chat: Conversation, transcription: FakeTranscription, cdn: MediaHost, log_events: LogEvents
) -> None:
    transcription.script("Remind me to call mom tomorrow at 5pm")
    cdn.routes["/media/slow"] = Route(DRIP_BODY, drip_interval=0.02)
    assert voice_chat.deliver(_voice(voice_chat, f"{cdn.origin}/media/slow")) == [NOT_MADE_OUT]
    assert transcription.uploads == []
    assert log_events.named("MEDIA_TIMED_OUT")


# --- the real opener, without the webhook ---------------------------------------------------------


def _media(graph: MediaHost, hosts: list[str], *, timeout: float = DRIP_SECONDS) -> GraphMedia:
    return GraphMedia(
        base_url=f"{graph.origin}/v21.0",
        access_token="tok",
        max_bytes=4096,
        media_origins=[media_origin(host) for host in hosts],
        timeout=timeout,
    )


@pytest.mark.parametrize("drip_headers", [False, True])
def test_the_deadline_holds_over_a_real_socket(
    cdn: MediaHost, stranger: MediaHost, drip_headers: bool
) -> None:
    graph = stranger  # the Graph API here: its lookup answers the slow file's URL
    graph.routes["/v21.0/M1"] = Route(f'{{"url": "{cdn.origin}/media/slow"}}'.encode())
    cdn.routes["/media/slow"] = Route(DRIP_BODY, drip_interval=0.02)
    if drip_headers:  # the lookup itself drips
        graph.routes["/v21.0/M1"] = Route(b" " * 100 + graph.routes["/v21.0/M1"].body, drip_interval=0.02)
    with pytest.raises(MediaTimedOut):
        _media(graph, [cdn.origin]).fetch("M1")


def test_a_real_redirect_off_the_list_never_reaches_the_other_host(
    cdn: MediaHost, stranger: MediaHost
) -> None:
    with MediaHost() as graph:
        graph.routes["/v21.0/M1"] = Route(f'{{"url": "{cdn.origin}/media/1"}}'.encode())
        cdn.routes["/media/1"] = Route(location=f"{stranger.origin}/steal")
        with pytest.raises(MediaRefused):
            _media(graph, [cdn.origin], timeout=5).fetch("M1")
    assert stranger.requests == []
