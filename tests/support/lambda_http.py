"""A local HTTP server in front of a Lambda handler: each request on 127.0.0.1 (ephemeral port)
becomes an API Gateway HTTP API (payload v2) event, the handler's result becomes the HTTP response.

Used where a real HTTP client talks to a handler in-process: the browser tests and the MCP SDK's
HTTP client.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memo.local.events import http_api_event

Invoke = Callable[[dict[str, Any]], dict[str, Any]]
"""The handler under test: an API Gateway v2 event in, the Lambda's result out."""


@contextmanager
def api_gateway_server(invoke: Invoke) -> Iterator[str]:
    """Serve `invoke` over HTTP (GET, POST, DELETE) until the block ends; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            path, _, query = self.path.partition("?")
            event = http_api_event(
                self.command, path, query=query, headers=dict(self.headers.items()), body=body
            )
            result = invoke(event)
            text = result.get("body") or ""
            payload = base64.b64decode(text) if result.get("isBase64Encoded") else text.encode("utf-8")
            self.send_response(int(result["statusCode"]))
            for key, value in (result.get("headers") or {}).items():
                if key.lower() != "content-length":  # set below, for the body actually sent
                    self.send_header(key, str(value))
            for key, values in (result.get("multiValueHeaders") or {}).items():
                for value in values:
                    self.send_header(key, str(value))
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = _serve
        do_POST = _serve
        do_DELETE = _serve

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
