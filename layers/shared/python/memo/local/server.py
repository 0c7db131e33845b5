"""The local HTTP server: API Gateway in front of the webhook handler, plus the Graph API sink.

- GET/POST /webhook -> an API Gateway HTTP API v2 event -> the webhook Lambda handler, in-process.
- GET/POST /review/... -> the review Lambda handler (reviewer page, review API, MCP over HTTP); there
  is no API Gateway authorizer locally, so it checks dev tokens signed with REVIEW_DEV_JWT_SECRET.
- POST /graph/<version>/<phone_number_id>/messages -> the sink (when WHATSAPP_API_BASE_URL is unset).
- GET /_local/outbox?to=<id>&after=<index>[&wait=<seconds>] -> what the sink holds, optionally waiting
  for the next reply (for chat clients and tests in other processes).
"""

from __future__ import annotations

import json
import re
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from memo.local.context import LocalLambdaContext
from memo.local.events import http_api_event
from memo.local.functions import Handler
from memo.local.sink import GraphSink

GRAPH_PATH = re.compile(r"^/graph/[^/]+/(?P<phone>[^/]+)/messages$")
MEDIA_PATH = re.compile(r"^/graph/[^/]+/(?P<media>[0-9]+)$")  # GET /{media-id}: the media's URL
MEDIA_DOWNLOAD_PATH = re.compile(r"^/_local/media/(?P<media>[0-9]+)$")  # that URL
MAX_REQUEST_BYTES = 8 * 1024 * 1024
SHUTDOWN_POLL_SECONDS = 0.05  # how soon `stop` is noticed by the serving loop


class _LocalHTTPServer(ThreadingHTTPServer):
    """The HTTP server with what its requests are routed to: the handlers, the sink, the token."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        *,
        webhook: Handler,
        review: Handler | None,
        sink: GraphSink,
        access_token: str,
    ) -> None:
        self.webhook = webhook
        self.review = review
        self.sink = sink
        self.access_token = access_token
        super().__init__(address, _RequestHandler)


class _RequestHandler(BaseHTTPRequestHandler):
    """One request: routed by path to a Lambda handler, the Graph API sink or the outbox."""

    server_version = "memo-local"

    @property
    def _local(self) -> _LocalHTTPServer:
        return cast(_LocalHTTPServer, self.server)

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the chat owns the terminal

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        review = self._local.review
        if url.path == "/webhook":
            self._lambda("GET", self._local.webhook)
        elif review is not None and url.path.startswith("/review"):
            self._lambda("GET", review)
        elif url.path == "/_local/outbox":
            self._outbox(url.query)
        elif MEDIA_PATH.match(url.path) or MEDIA_DOWNLOAD_PATH.match(url.path):
            self._media(url.path)
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": {"code": "NOT_FOUND"}})

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        review = self._local.review
        if url.path == "/webhook":
            self._lambda("POST", self._local.webhook)
            return
        if review is not None and url.path.startswith("/review"):
            self._lambda("POST", review)
            return
        match = GRAPH_PATH.match(url.path)
        if not match:
            self._json(HTTPStatus.NOT_FOUND, {"error": {"code": "NOT_FOUND"}})
            return
        self._graph_send(match.group("phone"))

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REQUEST_BYTES:
            raise ValueError("request too large")
        return self.rfile.read(length) if length else b""

    def _answer(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._answer(status, json.dumps(value).encode(), "application/json")

    def _lambda(self, method: str, function: Handler) -> None:
        """The request as an API Gateway HTTP API v2 event to `function`; its response as the answer."""
        url = urlsplit(self.path)
        try:
            body = self._read_body()
        except ValueError:
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": {"code": "PAYLOAD_TOO_LARGE"}})
            return
        event = http_api_event(method, url.path, query=url.query, headers=dict(self.headers), body=body)
        response = function(event, LocalLambdaContext())
        headers = response.get("headers") or {}
        content_type = headers.get("Content-Type") or headers.get("content-type") or "application/json"
        self._answer(int(response["statusCode"]), str(response.get("body") or "").encode(), content_type)

    def _outbox(self, query: str) -> None:
        """What the sink holds for `to` after `after`, waiting up to `wait` seconds for the next one."""
        params = dict(parse_qsl(query))
        after = int(params.get("after", -1))
        wait = min(float(params.get("wait", 0)), 60.0)
        to = params.get("to")
        sink = self._local.sink
        if wait > 0 and to:
            records = sink.wait_for(to=to, after=after, timeout=wait)
        else:
            records = sink.messages(to=to, after=after)
        self._json(200, [{"index": r.index, "body": r.body} for r in records])

    def _authorized(self) -> bool:
        return self.headers.get("Authorization") == f"Bearer {self._local.access_token}"

    def _media(self, path: str) -> None:
        """Meta's two-step media download: the media id's URL, then its bytes (both with the
        access token), from what the sink holds."""
        if not self._authorized():
            self._json(HTTPStatus.UNAUTHORIZED, {"error": {"code": 190, "message": "Invalid OAuth"}})
            return
        lookup = MEDIA_PATH.match(path)
        found = lookup or MEDIA_DOWNLOAD_PATH.match(path)
        media_id = found.group("media") if found else ""
        media = self._local.sink.media(media_id)
        if media is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": {"code": 100, "message": "Unknown media id"}})
        elif lookup:
            self._json(
                200,
                {
                    "messaging_product": "whatsapp",
                    "url": media.url or f"http://{self.headers.get('Host')}/_local/media/{media_id}",
                    "mime_type": media.mime_type,
                    "file_size": len(media.data),
                    "id": media_id,
                },
            )
        else:
            self._answer(200, media.data, media.mime_type)

    def _graph_send(self, phone_number_id: str) -> None:
        """A message sent through the Graph API: checked like Meta does, then handed to the sink."""
        if not self._authorized():
            self._json(
                HTTPStatus.UNAUTHORIZED,
                {"error": {"code": 190, "message": "Invalid OAuth access token"}},
            )
            return
        try:
            body = json.loads(self._read_body())
        except (ValueError, json.JSONDecodeError):
            self._json(HTTPStatus.BAD_REQUEST, {"error": {"code": 100, "message": "Invalid parameter"}})
            return
        answer = self._local.sink.post(phone_number_id, body)
        if answer.hold:
            time.sleep(answer.hold)  # the client has given up: a read timeout after delivery
        if answer.body is None:
            self.close_connection = True
            return
        self._json(answer.status, answer.body)


class LocalServer:
    def __init__(
        self,
        *,
        host: str,
        port: int,
        webhook: Handler,
        sink: GraphSink,
        access_token: str,
        review: Handler | None = None,
    ) -> None:
        self.sink = sink
        self._httpd = _LocalHTTPServer(
            (host, port), webhook=webhook, review=review, sink=sink, access_token=access_token
        )
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": SHUTDOWN_POLL_SECONDS},
            name="memo-local-http",
            daemon=True,
        )
        self._thread.start()

    def wait(self) -> None:
        """Block until the server thread ends (Ctrl-C in `make serve`)."""
        if self._thread is not None:
            while self._thread.is_alive():
                self._thread.join(timeout=1.0)

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
