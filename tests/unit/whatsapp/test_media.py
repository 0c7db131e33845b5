"""Voice notes: Meta's two-step media download, the access token sent only where it is meant for
(the Graph API's origin, then the allowed media hosts, redirects included), bounded in size and in
time, and their transcription."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import httpx2
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner import llm
from memo.settings import LlmSettings, media_origin
from memo.whatsapp.media import (
    MAX_REDIRECTS,
    GraphMedia,
    MediaFetchFailed,
    MediaRefused,
    MediaTimedOut,
    MediaTooLarge,
    OpenAITranscriber,
    TranscriptionFailed,
    VoiceUnavailable,
)

LIMIT = 1000
TIMEOUT = 15.0
TOKEN = "tok-SECRET"
BASE = "https://graph.example/v21.0"
LOOKUP = "https://graph.example:443/v21.0/M1"  # as the opener is asked: origin, then target
FILE_URL = "https://lookaside.example/media/1?mid=M1&hash=abc"
FILE = "https://lookaside.example:443/media/1?mid=M1&hash=abc"
MIRROR = "https://mirror.example/m/1"  # a second allowed media host
HOSTS = ("lookaside.example", "mirror.example")


class Clock:
    """The monotonic clock the deadline is measured on: moved only by the fake web's answers."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Page:
    """What one URL answers: a status, headers, a body read `drip` bytes at a time, each read
    taking `seconds_per_read` on the clock (opening the page takes `seconds_to_open`)."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    drip: int = 1 << 20
    seconds_per_read: float = 0.0
    seconds_to_open: float = 0.0


@dataclass(frozen=True)
class Read:
    url: str
    asked: int
    got: int
    seconds_left: float


class _Answer:
    def __init__(self, url: str, page: Page, web: FakeWeb) -> None:
        self.status = page.status
        self._url, self._page, self._web, self._at = url, page, web, 0

    def header(self, name: str) -> str | None:
        return self._page.headers.get(name)

    def read1(self, size: int, timeout: float) -> bytes:
        self._web.clock.now += self._page.seconds_per_read
        chunk = self._page.body[self._at : self._at + min(size, self._page.drip)]
        self._at += len(chunk)
        self._web.reads.append(Read(self._url, size, len(chunk), timeout))
        return chunk

    def close(self) -> None:
        self._web.closed += 1


class FakeWeb:
    """The `Opener`: pages by URL (origin and target, as the opener is asked); records each request."""

    def __init__(self, pages: Mapping[str, Page], *, fail: BaseException | None = None) -> None:
        self.pages = dict(pages)
        self.fail = fail
        self.clock = Clock()
        self.requests: list[tuple[str, str | None]] = []  # (URL, Authorization)
        self.opened_with: list[float] = []  # the seconds left, as each request was opened
        self.reads: list[Read] = []
        self.closed = 0

    def __call__(self, origin: str, target: str, headers: Mapping[str, str], seconds: float) -> _Answer:
        url = origin + target
        self.requests.append((url, headers.get("Authorization")))
        self.opened_with.append(seconds)
        if self.fail is not None:
            raise self.fail
        page = self.pages.get(url, Page(b'{"error": "not found"}', status=404))
        self.clock.now += page.seconds_to_open
        return _Answer(url, page, self)

    @property
    def urls(self) -> list[str]:
        return [url for url, _ in self.requests]

    def read_from(self, url: str) -> list[Read]:
        return [read for read in self.reads if read.url == url]


def _info(url: str = FILE_URL, **extra: Any) -> Page:
    return Page(json.dumps({"url": url, **extra}).encode())


def web_of(file: Page | None = None, *, lookup: Page | None = None, **pages: Page) -> FakeWeb:
    """The Graph API answering FILE_URL for media M1, and that file answering `file`."""
    return FakeWeb({LOOKUP: lookup or _info(mime_type="audio/mpeg"), FILE: file or Page(b"abc"), **pages})


def media_of(web: FakeWeb, *, hosts: tuple[str, ...] = HOSTS, timeout: float = TIMEOUT) -> GraphMedia:
    return GraphMedia(
        base_url=BASE + "/",
        access_token=TOKEN,
        max_bytes=LIMIT,
        media_origins=[media_origin(host) for host in hosts],
        timeout=timeout,
        opener=web,
        clock=web.clock,
    )


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    records: list[logging.LogRecord] = []
    handler = logging.Handler(level=logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign,assignment]
    memo_logger = logging.getLogger("memo")
    memo_logger.addHandler(handler)
    try:
        yield records
    finally:
        memo_logger.removeHandler(handler)


# --- the two steps, and the size limit ---------------------------------------------------------------


def test_the_media_id_names_the_file_and_both_requests_carry_the_token() -> None:
    web = web_of(Page(b"abc"))
    assert media_of(web).fetch("M1") == (b"abc", "audio/mpeg")
    assert web.requests == [(LOOKUP, f"Bearer {TOKEN}"), (FILE, f"Bearer {TOKEN}")]
    assert web.closed == 2


def test_a_file_declared_too_large_is_refused_before_any_request() -> None:
    web = web_of()
    with pytest.raises(MediaTooLarge):
        media_of(web).fetch("M1", declared_size=LIMIT + 1)
    assert web.requests == []


def test_a_file_the_endpoint_says_is_too_large_is_never_downloaded() -> None:
    web = web_of(Page(b"x" * (LIMIT + 1)), lookup=_info(file_size=LIMIT + 1))
    with pytest.raises(MediaTooLarge):
        media_of(web).fetch("M1", declared_size=10)
    assert web.urls == [LOOKUP]


@pytest.mark.parametrize("length", [LIMIT + 1, 10 * LIMIT])
def test_a_file_whose_length_header_is_past_the_limit_is_not_read(length: int) -> None:
    web = web_of(Page(b"x" * 10, headers={"Content-Length": str(length)}))
    with pytest.raises(MediaTooLarge):
        media_of(web).fetch("M1")
    assert web.read_from(FILE) == []


@given(size=st.integers(min_value=0, max_value=3 * LIMIT), drip=st.sampled_from([1, 7, 256, 1 << 20]))
def test_the_download_stops_at_the_limit_whatever_the_endpoint_said(size: int, drip: int) -> None:
    web = web_of(Page(b"v" * size, drip=drip), lookup=_info(file_size=1))
    media = media_of(web)
    if size <= LIMIT:
        assert media.fetch("M1") == (b"v" * size, "audio/ogg")  # no mime_type: Meta's voice notes are ogg
    else:
        with pytest.raises(MediaTooLarge):
            media.fetch("M1")
    reads = web.read_from(FILE)
    assert sum(read.got for read in reads) == min(size, LIMIT + 1)  # one byte past the limit tells
    assert all(read.asked <= LIMIT + 1 for read in reads)


@pytest.mark.parametrize(
    "info",
    [b"<html>not json</html>", [FILE_URL], {"mime_type": "audio/ogg"}, {"url": ""}, {"url": 7}],
)
def test_an_endpoint_answer_without_a_url_is_a_failed_fetch(info: Any) -> None:
    web = web_of(lookup=Page(info if isinstance(info, bytes) else json.dumps(info).encode()))
    with pytest.raises(MediaFetchFailed):
        media_of(web).fetch("M1")
    assert web.urls == [LOOKUP]


@pytest.mark.parametrize("status", [400, 401, 404, 500])
def test_an_error_answer_is_a_failed_fetch(status: int) -> None:
    web = web_of(Page(b"nope", status=status))
    with pytest.raises(MediaFetchFailed):
        media_of(web).fetch("M1")


@pytest.mark.parametrize("error", [ConnectionRefusedError(), TimeoutError(), ConnectionResetError()])
def test_a_network_failure_is_a_failed_fetch(error: BaseException) -> None:
    with pytest.raises(MediaFetchFailed):
        media_of(FakeWeb({}, fail=error)).fetch("M1")


# --- where the token goes ---------------------------------------------------------------------------

HOSTILE = {
    "another host": "https://attacker.example/steal?x=1",
    "http scheme": "http://lookaside.example/media/1",
    "file URL": "file:///etc/hostname",
    "ftp URL": "ftp://lookaside.example/media/1",
    "loopback name": "https://localhost/media/1",
    "loopback IPv4": "https://127.0.0.1/media/1",
    "loopback IPv6": "https://[::1]/media/1",
    "private IP literal": "https://10.0.0.7/media/1",
    "metadata service": "http://169.254.169.254/latest/meta-data/",
    "non-default port": "https://lookaside.example:8443/media/1",
    "user info": "https://lookaside.example@attacker.example/media/1",
    "suffix of a listed host": "https://lookaside.example.attacker.example/media/1",
    "the Graph API host": "https://graph.example/v21.0/M1",  # the lookup's host is not a media host
    "no host": "https:///media/1",
    "unreadable port": "https://lookaside.example:99999/media/1",
    "relative URL": "/media/1",
}


@pytest.mark.parametrize("url", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_download_url_off_the_allow_list_is_refused_and_nothing_is_sent(
    url: str, logged: list[logging.LogRecord]
) -> None:
    web = web_of(lookup=_info(url))
    with pytest.raises(MediaRefused):
        media_of(web).fetch("M1")
    assert web.urls == [LOOKUP]  # only the Graph API was asked, and it was meant to be
    [refusal] = [vars(r) for r in logged if r.getMessage() == "MEDIA_URL_REFUSED"]
    assert refusal["step"] == "download"
    text = json.dumps({k: v for k, v in refusal.items() if k not in ("args", "exc_info")}, default=str)
    assert TOKEN not in text and "steal" not in text and "x=1" not in text  # no token, no query


def test_an_ip_literal_or_a_port_is_allowed_when_listed_by_name() -> None:
    web = FakeWeb(
        {
            LOOKUP: _info("http://127.0.0.1:8080/_local/media/1"),
            "http://127.0.0.1:8080/_local/media/1": Page(b"ok"),
        }
    )
    assert media_of(web, hosts=("http://127.0.0.1:8080",)).fetch("M1")[0] == b"ok"
    web = web_of(lookup=_info("https://127.0.0.1:8080/_local/media/1"))
    with pytest.raises(MediaRefused):  # the same host and port, but https: not what was listed
        media_of(web, hosts=("http://127.0.0.1:8080",)).fetch("M1")


def test_the_host_is_compared_without_case_or_a_trailing_dot() -> None:
    web = web_of(Page(b"abc"), lookup=_info("https://LOOKASIDE.example./media/1?mid=M1&hash=abc"))
    assert media_of(web).fetch("M1")[0] == b"abc"


@pytest.mark.parametrize(
    "location",
    [
        "https://attacker.example/steal",
        "http://lookaside.example/media/1",  # a downgrade to plain http
        "https://127.0.0.1/media/1",
        "https://lookaside.example:8443/media/1",
        "file:///etc/hostname",
        "//attacker.example/steal",  # scheme-relative
    ],
)
def test_a_redirect_off_the_list_is_refused_and_the_token_is_not_forwarded(
    location: str, logged: list[logging.LogRecord]
) -> None:
    web = web_of(Page(status=302, headers={"Location": location}))
    with pytest.raises(MediaRefused):
        media_of(web).fetch("M1")
    assert web.urls == [LOOKUP, FILE]
    assert [vars(r)["step"] for r in logged if r.getMessage() == "MEDIA_URL_REFUSED"] == ["download_redirect"]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_within_the_list_is_followed(status: int) -> None:
    web = web_of(Page(status=status, headers={"Location": MIRROR}))
    web.pages["https://mirror.example:443/m/1"] = Page(b"ogg")
    assert media_of(web).fetch("M1")[0] == b"ogg"
    assert web.requests[1:] == [
        (FILE, f"Bearer {TOKEN}"),
        ("https://mirror.example:443/m/1", f"Bearer {TOKEN}"),
    ]


def test_a_relative_redirect_stays_on_its_host() -> None:
    web = web_of(Page(status=302, headers={"Location": "/media/2"}))
    web.pages["https://lookaside.example:443/media/2"] = Page(b"two")
    assert media_of(web).fetch("M1")[0] == b"two"


def test_redirects_end_after_a_few_hops() -> None:
    web = web_of(Page(status=302, headers={"Location": FILE_URL}))  # a loop on an allowed host
    with pytest.raises(MediaFetchFailed, match="redirected"):
        media_of(web).fetch("M1")
    assert web.urls == [LOOKUP] + [FILE] * (MAX_REDIRECTS + 1)


@pytest.mark.parametrize(
    "location",
    [
        "https://attacker.example/v21.0/M1",
        "https://lookaside.example/media/1",
        "http://graph.example/v21.0/M1",
    ],
)
def test_the_lookup_goes_to_the_graph_api_host_only(location: str) -> None:
    web = web_of(lookup=Page(status=302, headers={"Location": location}))
    with pytest.raises(MediaRefused):
        media_of(web).fetch("M1")
    assert web.urls == [LOOKUP]  # not even an allowed media host gets the lookup


@pytest.mark.parametrize(
    "media_id", ["../../attacker", "x/../../y", "M1?access_token=1", "@attacker.example", "%2e%2e"]
)
def test_a_strange_media_id_stays_one_path_segment_on_the_graph_api(media_id: str) -> None:
    web = FakeWeb({})
    with pytest.raises(MediaFetchFailed):
        media_of(web).fetch(media_id)
    [(url, token)] = web.requests
    assert url.startswith("https://graph.example:443/v21.0/") and "/" not in url.removeprefix(
        "https://graph.example:443/v21.0/"
    )
    assert "?" not in url and token == f"Bearer {TOKEN}"


# --- the time bound ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "seconds_per_read", "timed_out"),
    [
        (13, 1.0, False),  # 13 bytes, then the end: 14 reads of a second, within the limit
        (14, 1.0, True),  # one read more: the 15th second ends at the deadline
        (LIMIT, 0.5, True),  # a slow drip of the whole file
        (3, 0.0, False),
    ],
)
def test_a_slow_drip_ends_at_the_deadline_of_the_whole_fetch(
    size: int, seconds_per_read: float, timed_out: bool, logged: list[logging.LogRecord]
) -> None:
    web = web_of(Page(b"d" * size, drip=1, seconds_per_read=seconds_per_read))
    media = media_of(web)
    if timed_out:
        with pytest.raises(MediaTimedOut):
            media.fetch("M1")
        assert [r.getMessage() for r in logged].count("MEDIA_TIMED_OUT") == 1
        assert web.clock.now - 100.0 <= TIMEOUT + seconds_per_read  # no read started past the deadline
    else:
        assert media.fetch("M1")[0] == b"d" * size
    assert all(0 < read.seconds_left <= TIMEOUT for read in web.reads)  # each waits only for what is left


def test_the_lookup_counts_against_the_same_deadline() -> None:
    lookup = Page(json.dumps({"url": FILE_URL}).encode(), seconds_to_open=TIMEOUT - 0.5)
    web = web_of(Page(b"abc", seconds_to_open=1.0), lookup=lookup)
    with pytest.raises(MediaTimedOut):
        media_of(web).fetch("M1")
    assert web.opened_with[0] == TIMEOUT and web.opened_with[1] == pytest.approx(0.5)


def test_a_network_error_after_the_deadline_is_a_timeout() -> None:
    class Cut(FakeWeb):
        def __call__(self, origin: str, target: str, headers: Mapping[str, str], seconds: float) -> _Answer:
            self.clock.now += seconds  # the socket shut at the deadline
            raise ConnectionResetError()

    with pytest.raises(MediaTimedOut):
        media_of(Cut({})).fetch("M1")


class FakeMedia:
    def __init__(self, data: bytes = b"ogg!", mime: str = "audio/ogg") -> None:
        self.answer = (data, mime)
        self.fetched: list[tuple[str, int | None]] = []

    def fetch(self, media_id: str, *, declared_size: int | None = None) -> tuple[bytes, str]:
        self.fetched.append((media_id, declared_size))
        return self.answer


class FakeOpenAI:
    def __init__(self, text: str | None = None, *, error: Exception | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self._text, self._error = text, error
        self.audio = SimpleNamespace(transcriptions=SimpleNamespace(create=self.create))

    def create(self, **kwargs: Any) -> SimpleNamespace:
        self.calls.append(kwargs)
        if self._error is not None:
            raise self._error
        return SimpleNamespace(text=self._text)


LLM = LlmSettings.model_validate({"OPENAI_API_KEY": "sk-test"})
_REQUEST = httpx2.Request("POST", "https://api.openai.example/v1/audio/transcriptions")


def _transcriber(monkeypatch: pytest.MonkeyPatch, client: FakeOpenAI, media: FakeMedia) -> OpenAITranscriber:
    monkeypatch.setattr(llm, "openai_client", lambda settings: client)
    return OpenAITranscriber(media, LLM, model="whisper-test")  # type: ignore[arg-type]


def test_without_an_openai_key_nothing_is_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    media = FakeMedia()
    transcriber = OpenAITranscriber(media, LlmSettings.model_validate({}), model="m")  # type: ignore[arg-type]
    with pytest.raises(VoiceUnavailable):
        transcriber.transcribe("M1", mime_type="audio/ogg", declared_size=10)
    assert media.fetched == []


def test_the_note_is_sent_with_its_type_and_the_text_comes_back_trimmed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, media = FakeOpenAI("  remind me to call mom \n"), FakeMedia(b"mp3!", "audio/ogg")
    text = _transcriber(monkeypatch, client, media).transcribe(
        "M1", mime_type="audio/mpeg; codecs=mp3", declared_size=4
    )
    assert text == "remind me to call mom"
    assert media.fetched == [("M1", 4)]
    assert client.calls == [{"model": "whisper-test", "file": ("voice.mp3", b"mp3!", "audio/mpeg")}]


def test_the_fetched_type_is_used_when_the_message_names_none(monkeypatch: pytest.MonkeyPatch) -> None:
    client = FakeOpenAI("hi")
    _transcriber(monkeypatch, client, FakeMedia(b"a", "audio/mp4")).transcribe(
        "M1", mime_type=None, declared_size=None
    )
    assert client.calls[0]["file"] == ("voice.m4a", b"a", "audio/mp4")


@pytest.mark.parametrize(
    "client",
    [
        FakeOpenAI("   "),
        FakeOpenAI(None),
        FakeOpenAI(error=openai.APIError("down", request=_REQUEST, body=None)),
    ],
)
def test_an_empty_or_failed_transcription_is_a_transcription_failure(
    monkeypatch: pytest.MonkeyPatch, client: FakeOpenAI
) -> None:
    with pytest.raises(TranscriptionFailed):
        _transcriber(monkeypatch, client, FakeMedia()).transcribe("M1", mime_type=None, declared_size=None)
