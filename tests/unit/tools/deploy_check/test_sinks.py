"""The X-Ray daemon stand-in counts what the functions' SDK sends; the Graph API checks the token."""

from __future__ import annotations

import json
import socket
import time
import urllib.request

from tools.deploy_check.local_aws import OPS_FILLED
from tools.deploy_check.sinks import graph_sink, xray_sink


def test_segments_sent_to_the_daemon_address_are_counted() -> None:
    with xray_sink() as sink:
        host, port = sink.address.split(":")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            for _ in range(3):
                sender.sendto(b'{"format":"json","version":1}\n{}', (host, int(port)))
        deadline = time.monotonic() + 5
        while sink.count < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert sink.count == 3


def test_the_graph_api_takes_a_message_sent_with_the_secrets_access_token() -> None:
    body = json.dumps({"messaging_product": "whatsapp", "to": "972500000099", "type": "text"}).encode()
    with graph_sink() as server:
        request = urllib.request.Request(
            f"{server.base_url}/graph/v21.0/100000000000001/messages",
            data=body,
            headers={
                "Authorization": f"Bearer {OPS_FILLED['access_token']}",
                "Content-Type": "application/json",
            },
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200
        assert [m.to for m in server.sink.messages()] == ["972500000099"]
