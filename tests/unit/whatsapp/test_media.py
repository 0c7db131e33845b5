"""Voice notes: Meta's two-step media download, refused over the size limit, and their transcription."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any

import httpx2
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner import llm
from memo.settings import LlmSettings
from memo.whatsapp.media import (
    GraphMedia,
    MediaFetchFailed,
    MediaTooLarge,
    OpenAITranscriber,
    TranscriptionFailed,
    VoiceUnavailable,
)

LIMIT = 1000
BASE = "https://graph.example/v21.0"
FILE_URL = "https://lookaside.example/media/1"


class _Answer:
    def __init__(self, data: bytes, reads: list[int]) -> None:
        self._data = data
        self._reads = reads

    def __enter__(self) -> _Answer:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def read(self, limit: int) -> bytes:
        self._reads.append(limit)
        return self._data[:limit]


class FakeGraph:
    """`urlopen` answering the media endpoint with `info` and the file's URL with `data`."""

    def __init__(self, info: Any, data: bytes = b"", *, fail: BaseException | None = None) -> None:
        self.info = info if isinstance(info, bytes) else json.dumps(info).encode()
        self.data = data
        self.fail = fail
        self.requests: list[tuple[str, str | None]] = []
        self.reads: list[int] = []  # how many bytes each answer was read for

    def __call__(self, request: urllib.request.Request, timeout: float) -> _Answer:
        self.requests.append((request.full_url, request.get_header("Authorization")))
        if self.fail is not None:
            raise self.fail
        return _Answer(self.data if request.full_url == FILE_URL else self.info, self.reads)


def _media(monkeypatch: pytest.MonkeyPatch, graph: FakeGraph) -> GraphMedia:
    monkeypatch.setattr(urllib.request, "urlopen", graph)
    return GraphMedia(base_url=BASE + "/", access_token="tok", max_bytes=LIMIT)


def test_the_media_id_names_the_file_and_both_requests_carry_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graph = FakeGraph({"url": FILE_URL, "mime_type": "audio/mpeg", "file_size": 3}, b"abc")
    assert _media(monkeypatch, graph).fetch("M1") == (b"abc", "audio/mpeg")
    assert graph.requests == [(f"{BASE}/M1", "Bearer tok"), (FILE_URL, "Bearer tok")]


def test_a_file_declared_too_large_is_refused_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = FakeGraph({"url": FILE_URL})
    with pytest.raises(MediaTooLarge):
        _media(monkeypatch, graph).fetch("M1", declared_size=LIMIT + 1)
    assert graph.requests == []


def test_a_file_the_endpoint_says_is_too_large_is_never_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = FakeGraph({"url": FILE_URL, "file_size": LIMIT + 1}, b"x" * (LIMIT + 1))
    with pytest.raises(MediaTooLarge):
        _media(monkeypatch, graph).fetch("M1", declared_size=10)
    assert [url for url, _ in graph.requests] == [f"{BASE}/M1"]


@given(size=st.integers(min_value=0, max_value=3 * LIMIT))
def test_the_download_stops_at_the_limit_whatever_the_endpoint_said(size: int) -> None:
    graph = FakeGraph({"url": FILE_URL, "file_size": 1}, b"v" * size)
    with pytest.MonkeyPatch.context() as monkeypatch:
        media = _media(monkeypatch, graph)
        if size <= LIMIT:
            assert media.fetch("M1") == (b"v" * size, "audio/ogg")  # no mime_type: Meta's voice notes are ogg
        else:
            with pytest.raises(MediaTooLarge):
                media.fetch("M1")
    assert graph.reads[-1] == LIMIT + 1  # one byte past the limit tells a file too large


@pytest.mark.parametrize(
    "info",
    [b"<html>not json</html>", [FILE_URL], {"mime_type": "audio/ogg"}, {"url": ""}, {"url": 7}],
)
def test_an_endpoint_answer_without_a_url_is_a_failed_fetch(
    monkeypatch: pytest.MonkeyPatch, info: Any
) -> None:
    graph = FakeGraph(info)
    with pytest.raises(MediaFetchFailed):
        _media(monkeypatch, graph).fetch("M1")
    assert len(graph.requests) == 1


@pytest.mark.parametrize("error", [urllib.error.URLError("refused"), TimeoutError(), ConnectionResetError()])
def test_a_network_failure_is_a_failed_fetch(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    with pytest.raises(MediaFetchFailed):
        _media(monkeypatch, FakeGraph({}, fail=error)).fetch("M1")


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
