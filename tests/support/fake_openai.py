"""A tiny local OpenAI-compatible HTTP server for tests (stdlib only, no network).

It serves `POST /v1/chat/completions`, records every request body, and answers from a script:
`Reply.json(obj)` (a chat completion whose message content is that JSON), `Reply.text(raw)`
(any content, e.g. malformed JSON), `Reply.status(500)` (an HTTP error) and `Reply.hang()` (no
answer until the server is stopped, so the client times out). With the script empty it answers
HTTP 500, so an unexpected extra call is visible.

    with FakeOpenAI() as server:
        server.script(Reply.json({...}))
        settings = LlmSettings(OPENAI_API_KEY="k", OPENAI_BASE_URL=server.base_url)
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

_HANG_LIMIT_SECONDS = 30.0


@dataclass(frozen=True)
class Reply:
    kind: Literal["content", "status", "hang"]
    content: str = ""
    status_code: int = 200

    @classmethod
    def json(cls, obj: Any) -> Reply:
        return cls(kind="content", content=json.dumps(obj, ensure_ascii=False))

    @classmethod
    def text(cls, raw: str) -> Reply:
        return cls(kind="content", content=raw)

    @classmethod
    def status(cls, code: int) -> Reply:
        return cls(kind="status", status_code=code)

    @classmethod
    def hang(cls) -> Reply:
        return cls(kind="hang")


class FakeOpenAI:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append(body)
                    fake.paths.append(self.path)
                    reply = fake._script.popleft() if fake._script else Reply.status(500)
                try:
                    fake._answer(self, body, reply)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (timeout); nothing to answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def _answer(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], reply: Reply) -> None:
        if reply.kind == "hang":
            self._release.wait(_HANG_LIMIT_SECONDS)
            return
        if reply.kind == "status":
            payload = {"error": {"message": "scripted failure", "type": "server_error", "code": None}}
            self._send(handler, reply.status_code, payload)
            return
        completion = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content, "refusal": None},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        self._send(handler, 200, completion)

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
