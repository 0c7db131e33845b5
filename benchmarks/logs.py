"""Log bytes per turn at INFO, as deployed: what CloudWatch Logs ingests (and bills) for one message.

Run in a fresh interpreter whose stdout is counted from the start, so that Powertools' log handler
(bound to stdout when the logger is built) writes into the count; EMF metrics are printed to stdout
and counted too. Each figure is the median over warm turns of a signed message through the webhook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from benchmarks.harness import REPO, Row

ROUNDS = 9

MEASURE = r"""
import io, json, os, statistics, sys
os.environ.update({"POWERTOOLS_LOG_LEVEL": "INFO", "POWERTOOLS_METRICS_DISABLED": "false"})
# Lambda sets the X-Ray trace header of every invocation (active tracing): Powertools logs its id.
os.environ["_X_AMZN_TRACE_ID"] = "Root=1-6749a3e1-0a1b2c3d4e5f60718293a4b5;Parent=53995c3f42cd8ad8;Sampled=1"
for key in [k for k in os.environ if k.startswith("OPENAI_")]:
    del os.environ[key]

class Counted(io.TextIOBase):
    bytes = 0
    def write(self, text):
        Counted.bytes += len(text.encode())
        return len(text)

real, sys.stdout = sys.stdout, Counted()
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation
from tests.support.webhook import post

def bytes_of(step):
    before = Counted.bytes
    step()
    return Counted.bytes - before

figures = {"planned": [], "execution": [], "question": [], "answer": []}
with LocalStack(start_poller=False) as stack:
    chat = Conversation(stack=stack, user=WhatsAppUser(wa_id="972500000096"))
    def turn(text):
        assert post(chat.user.payload(chat.user.text(text)))["statusCode"] == 200
        stack.poller.drain()
    chat.say("remind me to call mom tomorrow at 5pm")  # warm
    for round_ in range(%(rounds)d + 1):
        planned = bytes_of(lambda: turn("remind me to call mom tomorrow at 5pm"))
        execution = bytes_of(stack.stepfunctions.wait_all)
        question = bytes_of(lambda: turn("delete all my reminders"))
        answer = bytes_of(lambda: turn("yes"))
        stack.stepfunctions.wait_all()
        chat.replies()
        if round_:
            for name, value in zip(figures, (planned, execution, question, answer)):
                figures[name].append(value)
sys.stdout = real
print(json.dumps({name: statistics.median(values) for name, values in figures.items()}))
"""


def run() -> list[Row]:
    out = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", MEASURE % {"rounds": ROUNDS}],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("POWERTOOLS_")},
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    return [
        (
            "planned turn, webhook Lambda (ingress + turn): log bytes at INFO",
            f"{figures['planned']:.0f}",
            "bytes",
        ),
        ("its execution (executor + responder): log bytes at INFO", f"{figures['execution']:.0f}", "bytes"),
        ("HITL question turn (ingress + turn): log bytes at INFO", f"{figures['question']:.0f}", "bytes"),
        ("HITL answer turn (ingress + turn): log bytes at INFO", f"{figures['answer']:.0f}", "bytes"),
    ]


if __name__ == "__main__":
    for row in run():
        print(*row)
