"""A single-threaded HTTP front for moto's in-process DynamoDB, reachable from other processes.

moto's own server needs Flask (not installed); this forwards each request to moto's request
dispatcher directly. One request at a time gives moto the per-request atomicity DynamoDB has."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from botocore.awsrequest import AWSPreparedRequest, HTTPHeaders
from moto.core.botocore_stubber import BotocoreStubber
from werkzeug.serving import make_server

_STATUS = {200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"}


def _app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length)
    headers = HTTPHeaders()
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-").title()] = value
    if environ.get("CONTENT_TYPE"):
        headers["Content-Type"] = environ["CONTENT_TYPE"]
    request = AWSPreparedRequest(
        method=environ["REQUEST_METHOD"],
        url="https://dynamodb.us-east-1.amazonaws.com" + environ.get("PATH_INFO", "/"),
        headers=headers,
        body=body,
        stream_output=False,
    )
    response = BotocoreStubber().process_request(request)
    if response is None:
        start_response("404 Not Found", [])
        return [b""]
    status, response_headers, response_body = response
    payload = response_body if isinstance(response_body, bytes) else str(response_body).encode("utf-8")
    header_list = [(str(k), str(v)) for k, v in response_headers.items() if k.lower() != "content-length"]
    start_response(
        f"{status} {_STATUS.get(status, 'Status')}", [*header_list, ("Content-Length", str(len(payload)))]
    )
    return [payload]


@contextmanager
def moto_dynamodb_server() -> Iterator[str]:
    server = make_server("127.0.0.1", 0, _app, threaded=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
