"""Voice notes: the audio fetched from the Graph API media endpoint, transcribed by OpenAI.

Meta's two-step download: `GET {base}/{media-id}` (bearer token) answers the file's `url`,
`mime_type` and `file_size`; `GET url` (the same token, as Meta requires) answers the bytes. The token
goes only where it is meant for: the lookup only to the Graph API's origin (`WHATSAPP_API_BASE_URL`),
the download only to an origin on the media allow-list (`WHATSAPP_MEDIA_HOSTS`: https on the default
port unless an entry spells out another scheme or port, so an IP literal, a loopback address or a
`file:` URL is refused unless listed). A redirect is followed only to an origin allowed for that step,
each hop checked before anything is sent to it. A refusal is logged as `MEDIA_URL_REFUSED` (scheme,
host and port only: never the token or the URL's query) and nothing is requested.

Bounds: the whole fetch (lookup, redirects, download) ends at one deadline however slowly the bytes
come (`MediaTimedOut`); a file over the size limit is refused before its bytes are read
(`MediaTooLarge`), and the download itself stops one byte past the limit, whatever the first answer
said. The bytes go to OpenAI's audio transcription (`audio.transcriptions.create`, model from
configuration); the `openai` package is imported only when a voice note is transcribed.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote, urljoin, urlsplit

from memo.errors import ConfigurationError, MemoError
from memo.observability import count, logger

if TYPE_CHECKING:
    from memo.settings import LlmSettings, WebhookSettings, WhatsAppSettings

_EXTENSIONS = {
    "audio/ogg": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
    "audio/aac": "aac",
    "audio/amr": "amr",
}
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 3
_LOOKUP_LIMIT = 64 * 1024  # the media endpoint's JSON answer
_CHUNK = 64 * 1024


class VoiceUnavailable(MemoError):
    """No OpenAI key is configured: voice notes cannot be transcribed."""

    code = "VOICE_UNAVAILABLE"


class MediaTooLarge(MemoError):
    code = "MEDIA_TOO_LARGE"


class MediaFetchFailed(MemoError):
    code = "MEDIA_FETCH_FAILED"


class MediaRefused(MediaFetchFailed):
    """A URL (or a redirect) to an origin not allowed for its step: nothing was sent to it."""

    code = "MEDIA_URL_REFUSED"


class MediaTimedOut(MediaFetchFailed):
    code = "MEDIA_TIMED_OUT"


class TranscriptionFailed(MemoError):
    code = "TRANSCRIPTION_FAILED"


class Transcriber(Protocol):
    def transcribe(self, media_id: str, *, mime_type: str | None, declared_size: int | None) -> str:
        """The text the voice note says; raises one of this module's errors."""


class HttpAnswer(Protocol):
    """One HTTP answer, read a chunk at a time: `read1` returns what one receive brings (at most
    `size` bytes, b"" at the end) and waits no longer than `timeout` seconds."""

    status: int

    def header(self, name: str) -> str | None: ...

    def read1(self, size: int, timeout: float) -> bytes: ...

    def close(self) -> None: ...


_DEFAULT_PORTS = {"http": 80, "https": 443}


def url_origin(url: str) -> str | None:
    """An http(s) URL's origin as `scheme://host:port` (host lowercased, without a trailing dot,
    port spelled out; as `memo.settings.media_origin` writes the allowed ones), or None for another
    scheme, a URL without a host, with user info or with an unreadable port."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme not in _DEFAULT_PORTS or not host or "@" in parts.netloc:
        return None
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}:{port or _DEFAULT_PORTS[parts.scheme]}"


# A single GET, no redirects followed: (origin `scheme://host:port`, request target, headers,
# seconds left) -> the answer. Raises OSError or http.client.HTTPException.
Opener = Callable[[str, str, Mapping[str, str], float], HttpAnswer]


class _SocketAnswer:
    """`HttpAnswer` over http.client, its socket shut at the deadline by a timer, so neither a slow
    drip of headers nor of body outlasts it."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self._connection = connection
        self._sock = connection.sock
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()
        self._response: http.client.HTTPResponse | None = None
        self.status = 0

    def _cut(self) -> None:
        with contextlib.suppress(OSError):
            socket.socket.shutdown(self._sock, socket.SHUT_RDWR)  # the raw socket, under any TLS

    def send(self, target: str, headers: Mapping[str, str]) -> _SocketAnswer:
        self._connection.request("GET", target, headers=dict(headers))
        self._response = self._connection.getresponse()
        self.status = self._response.status
        return self

    def header(self, name: str) -> str | None:
        return self._response.getheader(name) if self._response is not None else None

    def read1(self, size: int, timeout: float) -> bytes:
        assert self._response is not None
        self._sock.settimeout(max(timeout, 0.001))
        return self._response.read1(size)

    def close(self) -> None:
        self._timer.cancel()
        if self._response is not None:
            self._response.close()
        self._connection.close()


def http_open(origin: str, target: str, headers: Mapping[str, str], seconds: float) -> HttpAnswer:
    """`Opener` over http.client: no proxies, no redirects, no other schemes; TLS verified."""
    parts = urlsplit(origin)
    host, port = parts.hostname or "", parts.port
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(
            host, port, timeout=seconds, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(host, port, timeout=seconds)
    connection.connect()
    answer = _SocketAnswer(connection, seconds)
    try:
        return answer.send(target, headers)
    except BaseException:
        answer.close()
        raise


def _refuse(step: str, url: str) -> MediaRefused:
    """Log a refused URL by its scheme, host and port (never its query or the token)."""
    parts = urlsplit(url)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    count("MediaUrlRefused")
    logger.warning(
        "MEDIA_URL_REFUSED", extra={"step": step, "scheme": parts.scheme, "host": host, "port": port}
    )
    return MediaRefused(f"the {step} URL's origin is not allowed")


class GraphMedia:
    def __init__(
        self,
        *,
        base_url: str,
        access_token: str,
        max_bytes: int,
        media_origins: Iterable[str],
        timeout: float = 15.0,
        opener: Opener = http_open,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        graph = url_origin(self._base_url)
        if graph is None:
            raise ConfigurationError("WHATSAPP_API_BASE_URL is not an http(s) URL")
        self._graph = frozenset({graph})
        self._media = frozenset(media_origins)
        self._token = access_token
        self._max_bytes = max_bytes
        self._timeout = timeout
        self._open = opener
        self._clock = clock

    @classmethod
    def from_settings(cls, settings: WebhookSettings, *, whatsapp: WhatsAppSettings) -> GraphMedia:
        """From the webhook's settings and its WhatsApp settings with their secrets resolved."""
        return cls(
            base_url=whatsapp.api_base_url,
            access_token=whatsapp.access_token.get_secret_value(),
            max_bytes=settings.media_max_bytes,
            media_origins=settings.media_hosts,
            timeout=settings.media_timeout_seconds,
        )

    def fetch(self, media_id: str, *, declared_size: int | None = None) -> tuple[bytes, str]:
        """The media's bytes and MIME type."""
        if declared_size is not None and declared_size > self._max_bytes:
            raise MediaTooLarge(f"media is {declared_size} bytes; the limit is {self._max_bytes}")
        deadline = self._clock() + self._timeout
        lookup = f"{self._base_url}/{quote(media_id, safe='')}"
        try:
            info = json.loads(self._get(lookup, self._graph, _LOOKUP_LIMIT, deadline, "lookup"))
        except json.JSONDecodeError as exc:
            raise MediaFetchFailed("the media endpoint did not answer JSON") from exc
        url = info.get("url") if isinstance(info, dict) else None
        if not isinstance(url, str) or not url:
            raise MediaFetchFailed("the media endpoint answered no url")
        size = info.get("file_size")
        if isinstance(size, int) and size > self._max_bytes:
            raise MediaTooLarge(f"media is {size} bytes; the limit is {self._max_bytes}")
        data = self._get(url, self._media, self._max_bytes, deadline, "download")
        if len(data) > self._max_bytes:
            raise MediaTooLarge(f"media exceeds the limit of {self._max_bytes} bytes")
        return data, str(info.get("mime_type") or "audio/ogg")

    def _get(self, url: str, allowed: frozenset[str], limit: int, deadline: float, step: str) -> bytes:
        """The body of `url` (at most `limit` + 1 bytes), redirects followed within `allowed` only."""
        for hop in range(MAX_REDIRECTS + 1):
            origin = url_origin(url)
            if origin is None or origin not in allowed:
                raise _refuse(step if hop == 0 else f"{step}_redirect", url)
            parts = urlsplit(url)
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            try:
                answer = self._open(
                    origin, target, {"Authorization": f"Bearer {self._token}"}, self._left(deadline, step)
                )
            except (OSError, http.client.HTTPException, ValueError) as exc:
                raise self._failed(exc, deadline, step) from exc
            try:
                if answer.status in _REDIRECTS and answer.header("Location"):
                    url = urljoin(url, answer.header("Location") or "")
                    continue
                if answer.status != 200:
                    raise MediaFetchFailed(f"the media {step} answered HTTP {answer.status}")
                return self._read(answer, limit, deadline, step)
            finally:
                answer.close()
        raise MediaFetchFailed(f"the media {step} redirected more than {MAX_REDIRECTS} times")

    def _read(self, answer: HttpAnswer, limit: int, deadline: float, step: str) -> bytes:
        length = answer.header("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > limit:
            raise MediaTooLarge(f"media is {length} bytes; the limit is {limit}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:
                chunk = answer.read1(min(_CHUNK, limit + 1 - size), self._left(deadline, step))
            except (OSError, http.client.HTTPException, ValueError) as exc:
                raise self._failed(exc, deadline, step) from exc
            self._left(deadline, step)  # a chunk that came after the deadline ends the download
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)

    def _left(self, deadline: float, step: str) -> float:
        """Seconds left before the deadline; raises `MediaTimedOut` once it has passed."""
        left = deadline - self._clock()
        if left <= 0:
            count("MediaTimedOut")
            logger.warning("MEDIA_TIMED_OUT", extra={"step": step, "seconds": self._timeout})
            raise MediaTimedOut(f"the media fetch took longer than {self._timeout} s")
        return left

    def _failed(self, exc: BaseException, deadline: float, step: str) -> MediaFetchFailed:
        self._left(deadline, step)  # a socket shut at the deadline is a timeout
        return MediaFetchFailed(f"media {step} failed: {type(exc).__name__}")


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
