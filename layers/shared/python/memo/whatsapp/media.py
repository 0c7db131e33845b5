"""Voice notes: the audio fetched from the Graph API media endpoint, transcribed by OpenAI.

Meta's two-step download: `GET {base}/{media-id}` (bearer token) answers the file's `url`,
`mime_type` and `file_size`; `GET url` (the same token) answers the bytes. A file over the configured
limit is refused before its bytes are read (`MediaTooLarge`), and the download itself stops at the
limit, whatever the first answer said. The bytes go to OpenAI's audio transcription
(`audio.transcriptions.create`, model from configuration); the `openai` package is imported only
when a voice note is transcribed.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Protocol

from memo.errors import MemoError
from memo.observability import count, logger

if TYPE_CHECKING:
    from memo.settings import LlmSettings, WhatsAppSettings

_EXTENSIONS = {
    "audio/ogg": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
    "audio/aac": "aac",
    "audio/amr": "amr",
}


class VoiceUnavailable(MemoError):
    """No OpenAI key is configured: voice notes cannot be transcribed."""

    code = "VOICE_UNAVAILABLE"


class MediaTooLarge(MemoError):
    code = "MEDIA_TOO_LARGE"


class MediaFetchFailed(MemoError):
    code = "MEDIA_FETCH_FAILED"


class TranscriptionFailed(MemoError):
    code = "TRANSCRIPTION_FAILED"


class Transcriber(Protocol):
    def transcribe(self, media_id: str, *, mime_type: str | None, declared_size: int | None) -> str:
        """The text the voice note says; raises one of this module's errors."""


class GraphMedia:
    def __init__(self, *, base_url: str, access_token: str, max_bytes: int, timeout: float = 10.0) -> None:
        self._base_url = base_url.rstrip("/")
        self._token = access_token
        self._max_bytes = max_bytes
        self._timeout = timeout

    @classmethod
    def from_settings(cls, settings: WhatsAppSettings, *, max_bytes: int) -> GraphMedia:
        return cls(
            base_url=settings.api_base_url,
            access_token=settings.access_token.get_secret_value(),
            max_bytes=max_bytes,
            timeout=settings.send_timeout_seconds,
        )

    def _get(self, url: str, limit: int) -> bytes:
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {self._token}"})  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:  # noqa: S310 - https or local sink
                data: bytes = response.read(limit + 1)
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise MediaFetchFailed(f"media download failed: {type(exc).__name__}") from exc
        return data

    def fetch(self, media_id: str, *, declared_size: int | None = None) -> tuple[bytes, str]:
        """The media's bytes and MIME type."""
        if declared_size is not None and declared_size > self._max_bytes:
            raise MediaTooLarge(f"media is {declared_size} bytes; the limit is {self._max_bytes}")
        try:
            info = json.loads(self._get(f"{self._base_url}/{media_id}", 64 * 1024))
        except json.JSONDecodeError as exc:
            raise MediaFetchFailed("the media endpoint did not answer JSON") from exc
        url = info.get("url") if isinstance(info, dict) else None
        if not isinstance(url, str) or not url:
            raise MediaFetchFailed("the media endpoint answered no url")
        size = info.get("file_size")
        if isinstance(size, int) and size > self._max_bytes:
            raise MediaTooLarge(f"media is {size} bytes; the limit is {self._max_bytes}")
        data = self._get(url, self._max_bytes)
        if len(data) > self._max_bytes:
            raise MediaTooLarge(f"media exceeds the limit of {self._max_bytes} bytes")
        return data, str(info.get("mime_type") or "audio/ogg")


class OpenAITranscriber:
    """`Transcriber` over the Graph API media endpoint and OpenAI's audio transcription."""

    def __init__(self, media: GraphMedia, llm: LlmSettings, *, model: str) -> None:
        self._media = media
        self._llm = llm
        self._model = model

    def transcribe(self, media_id: str, *, mime_type: str | None, declared_size: int | None) -> str:
        if not self._llm.enabled:
            raise VoiceUnavailable("no OpenAI key: voice notes cannot be transcribed")
        data, fetched_mime = self._media.fetch(media_id, declared_size=declared_size)
        mime = (mime_type or fetched_mime).split(";")[0].strip()
        import openai

        from memo.planner.llm import openai_client

        try:
            result = openai_client(self._llm).audio.transcriptions.create(
                model=self._model, file=(f"voice.{_EXTENSIONS.get(mime, 'ogg')}", data, mime)
            )
        except openai.APIError as exc:
            count("TranscriptionFailures")
            logger.warning("VOICE_TRANSCRIPTION_FAILED", extra={"error": type(exc).__name__})
            raise TranscriptionFailed("the transcription failed") from exc
        text = (result.text or "").strip()
        if not text:
            raise TranscriptionFailed("the transcription is empty")
        return text
