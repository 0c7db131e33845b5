"""A local fake of OpenAI's audio transcription endpoint (`POST /v1/audio/transcriptions`), stdlib only.

It records each request (its path, bearer token, the multipart form's `model` and the uploaded
file's bytes) and answers the scripted transcripts in order; with none scripted, HTTP 500. Chat
completions are answered 500 too, so a planner that tries OpenAI falls back to the rules at once.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Upload:
    path: str
    token: str
    model: str
    file: bytes
    content_type: str


def _form(content_type: str, body: bytes) -> dict[str, tuple[bytes, str]]:
    message = BytesParser(policy=default).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    fields: dict[str, tuple[bytes, str]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        fields[str(name)] = (payload if isinstance(payload, bytes) else b"", part.get_content_type())
    return fields


class FakeTranscription:
    def __init__(self) -> None:
        self.uploads: list[Upload] = []
        self._script: deque[str] = deque()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if not self.path.endswith("/audio/transcriptions"):
                    self._json(500, {"error": {"message": "not scripted", "type": "server_error"}})
                    return
                form = _form(self.headers.get("Content-Type", ""), body)
                upload = Upload(
                    path=self.path,
                    token=self.headers.get("Authorization", ""),
                    model=form.get("model", (b"", ""))[0].decode(),
                    file=form.get("file", (b"", ""))[0],
                    content_type=form.get("file", (b"", ""))[1],
                )
                with fake._lock:
                    fake.uploads.append(upload)
                    text = fake._script.popleft() if fake._script else None
                if text is None:
                    self._json(500, {"error": {"message": "no transcript scripted", "type": "server_error"}})
                else:
                    self._json(200, {"text": text})

            def _json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *transcripts: str) -> None:
        with self._lock:
            self._script.extend(transcripts)

    def __enter__(self) -> FakeTranscription:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
