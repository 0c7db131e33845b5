"""One Lambda execution environment per function: the clean Python running `bootstrap.py` with the
function's code in its /var/task, the layers in its /opt, and the environment Lambda sets (the
function's own variables from the template, resolved, plus Lambda's reserved ones). It is started
once (the init phase) and invoked several times, warm, like a Lambda container.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import subprocess  # nosec B404 - the clean Python with a fixed argument list, no shell
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.deploy_check.assembly import LambdaFunction
from tools.deploy_check.runtime import PYTHON_VERSION, lambda_pythonpath

# How long past the function's own timeout an invocation is waited for before the container is killed.
GRACE_SECONDS = 10.0
INIT_SECONDS = 60.0


@dataclass(frozen=True)
class Sandbox:
    """Where one function's execution environment lives on this machine."""

    python: Path  # the clean interpreter
    bootstrap: Path  # bootstrap.py, in a directory of its own (Lambda's /var/runtime)
    task: Path  # /var/task
    opt: Path  # /opt
    home: Path  # an empty home: no developer's AWS configuration is read


@dataclass(frozen=True)
class Invocation:
    ok: bool
    response: Any
    error: Mapping[str, Any] | None
    ms: float

    def summary(self) -> str:
        if self.ok:
            return "ok"
        error = self.error or {}
        return f"{error.get('errorType')}: {error.get('errorMessage')}"


def trace_header() -> str:
    """An X-Ray trace header as Lambda sets `_X_AMZN_TRACE_ID` for a sampled invocation."""
    return f"Root=1-{int(time.time()):08x}-{secrets.token_hex(12)};Parent={secrets.token_hex(8)};Sampled=1"


def lambda_environment(
    function: LambdaFunction, *, physical_name: str, region: str, sandbox: Sandbox, log_group: str
) -> dict[str, str]:
    """The variables Lambda itself sets for `function` (its own come from the template)."""
    return {
        "_HANDLER": function.handler,
        "AWS_EXECUTION_ENV": f"AWS_Lambda_python{PYTHON_VERSION}",
        "AWS_LAMBDA_FUNCTION_NAME": physical_name,
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(function.memory_mb),
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand",
        "AWS_LAMBDA_LOG_GROUP_NAME": log_group,
        "AWS_LAMBDA_LOG_STREAM_NAME": f"{time.strftime('%Y/%m/%d')}/[$LATEST]{uuid.uuid4().hex}",
        "AWS_LAMBDA_LOG_FORMAT": "JSON",
        "AWS_REGION": region,
        "AWS_DEFAULT_REGION": region,
        "LAMBDA_TASK_ROOT": str(sandbox.task),
        "LAMBDA_RUNTIME_DIR": str(sandbox.bootstrap.parent),
        "PYTHONPATH": lambda_pythonpath(sandbox.task, sandbox.opt),
        "PATH": f"{sandbox.python.parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "en_US.UTF-8",
        "TZ": ":UTC",
        "HOME": str(sandbox.home),
        "AWS_CONFIG_FILE": str(sandbox.home / "aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(sandbox.home / "aws-credentials"),
        "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",
        # Lambda's /var/task and /opt are read-only: nothing is written beside the modules.
        "PYTHONDONTWRITEBYTECODE": "1",
    }


class ContainerError(RuntimeError):
    """The execution environment died or answered something that is not the bootstrap's protocol."""


class Container:
    """One warm execution environment of one function."""

    def __init__(self, function: LambdaFunction, sandbox: Sandbox, environment: Mapping[str, str], log: Path):
        self.function = function
        self.sandbox = sandbox
        self.environment = dict(environment)
        self.log = log
        self.function_arn = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._answers = -1
        self._buffer = b""
        self.init: dict[str, Any] = {}

    def start(self, function_arn: str) -> dict[str, Any]:
        """Start the environment and run the init phase (the handler's import); returns its report."""
        self.function_arn = function_arn
        read_end, write_end = os.pipe()
        with self.log.open("ab") as output:
            self._process = subprocess.Popen(  # noqa: S603 - fixed argument list, no shell  # nosec B603
                [
                    str(self.sandbox.python),
                    str(self.sandbox.bootstrap),
                    str(write_end),
                    str(self.sandbox.opt),
                ],
                stdin=subprocess.PIPE,
                stdout=output,
                stderr=subprocess.STDOUT,
                env=self.environment,
                cwd=self.sandbox.task,
                pass_fds=(write_end,),
            )
        os.close(write_end)
        self._answers = read_end
        self.init = self._read(INIT_SECONDS)["init"]
        return self.init

    @property
    def running(self) -> bool:
        return self._process is not None and not self.init.get("error")

    def invoke(self, event: Mapping[str, Any]) -> Invocation:
        timeout = float(self.function.timeout_seconds)
        request = {
            "event": event,
            "request_id": str(uuid.uuid4()),
            "trace_id": trace_header(),
            "function_arn": self.function_arn,
            "timeout_ms": int(timeout * 1000),
        }
        self._send(request)
        try:
            answer = self._read(timeout + GRACE_SECONDS)
        except TimeoutError:
            self.kill()  # Lambda ends an environment whose invocation timed out
            return Invocation(
                False, None, {"errorType": "Sandbox.Timedout", "errorMessage": "timed out"}, timeout * 1000
            )
        return Invocation(
            bool(answer["ok"]), answer.get("response"), answer.get("error"), float(answer["ms"])
        )

    def describe(self) -> dict[str, Any]:
        self._send({"describe": True})
        return self._read(INIT_SECONDS)

    def stop(self) -> None:
        if self._process is None:
            return
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._answers)
        self._process = None

    def kill(self) -> None:
        if self._process is not None:
            self._process.kill()
        self.stop()

    def _send(self, request: Mapping[str, Any]) -> None:
        if self._process is None or self._process.stdin is None:
            raise ContainerError(f"{self.function.name}: the execution environment is not running")
        self._process.stdin.write(json.dumps(request).encode() + b"\n")
        self._process.stdin.flush()

    def _read(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.function.name}: no answer within {timeout:.0f} s")
            ready, _, _ = select.select([self._answers], [], [], remaining)
            if ready:
                chunk = os.read(self._answers, 65536)
                if not chunk:
                    raise ContainerError(
                        f"{self.function.name}: the execution environment exited; see {self.log}"
                    )
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer
