"""What the functions talk to besides AWS, on this machine's loopback: the WhatsApp Graph API (the
local stack's sink, which checks the access token as Meta does) and the X-Ray daemon (a UDP port
that counts the segments the functions' X-Ray SDK sends)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from memo.local.server import LocalServer
from memo.local.sink import GraphSink
from tools.deploy_check.local_aws import OPS_FILLED


def _no_handler(event: object, context: object) -> object:
    raise RuntimeError("the deploy check's Graph API sink serves no Lambda")


@contextmanager
def graph_sink() -> Iterator[LocalServer]:
    """The Graph API on a free loopback port, accepting the WhatsApp secret's access token."""
    server = LocalServer(
        host="127.0.0.1",
        port=0,
        webhook=_no_handler,
        sink=GraphSink(),
        access_token=OPS_FILLED["access_token"],
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class XRaySink:
    """A UDP port standing in for the X-Ray daemon; counts the datagrams (segments) it receives."""

    sock: socket.socket
    count: int = 0
    _stopped: threading.Event = field(default_factory=threading.Event)

    @property
    def address(self) -> str:
        host, port = self.sock.getsockname()
        return f"{host}:{port}"

    def serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self._stopped.is_set():
            try:
                self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            self.count += 1

    def stop(self) -> None:
        self._stopped.set()


@contextmanager
def xray_sink() -> Iterator[XRaySink]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sink = XRaySink(sock)
    thread = threading.Thread(target=sink.serve, name="deploy-check-xray", daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        sink.stop()
        thread.join(timeout=2)
        sock.close()
