"""The Lambda runtime's loop, run by the clean Python 3.13 of `make deploy-check` (standard library
only: nothing of the check is importable in there).

Like Lambda's bootstrap it imports the handler named by `_HANDLER` once (the init phase, timed), then
takes one invocation at a time: the event, a request id, a trace header (set as `_X_AMZN_TRACE_ID`
for the invocation, as Lambda does) and the function's timeout. The handler's answer must be JSON, as Lambda
requires; an exception is answered as Lambda reports a function error (`errorType` = its class).

Requests arrive one JSON object per line on stdin; answers leave one per line on the file descriptor
given as the first argument (stdout and stderr are the function's log). `{"describe": true}` answers
where key modules were imported from and how many of the layers' modules were read from bytecode.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import time
import traceback
from typing import Any

KEY_MODULES = (
    "handler",
    "memo",
    "caseplatform",
    "aws_lambda_powertools",
    "pydantic",
    "pydantic_core",
    "boto3",
    "botocore",
)


class Context:
    """The context object Lambda's Python runtime passes to a handler."""

    def __init__(self, request: dict[str, Any]) -> None:
        env = os.environ
        self.function_name = env["AWS_LAMBDA_FUNCTION_NAME"]
        self.function_version = env["AWS_LAMBDA_FUNCTION_VERSION"]
        self.memory_limit_in_mb = env["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]
        self.log_group_name = env["AWS_LAMBDA_LOG_GROUP_NAME"]
        self.log_stream_name = env["AWS_LAMBDA_LOG_STREAM_NAME"]
        self.invoked_function_arn = request["function_arn"]
        self.aws_request_id = request["request_id"]
        self.identity = None
        self.client_context = None
        # Lambda's deadline: the function's timeout from when the invocation arrives.
        self._deadline_ms = int(time.time() * 1000) + int(request["timeout_ms"])

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self._deadline_ms - int(time.time() * 1000))


def error_of(exc: BaseException) -> dict[str, Any]:
    return {
        "errorType": type(exc).__name__,
        "errorMessage": str(exc),
        "stackTrace": traceback.format_exception(exc)[-12:],
    }


def load_handler() -> tuple[Any, dict[str, Any]]:
    module_name, _, function_name = os.environ["_HANDLER"].rpartition(".")
    started = time.perf_counter()
    try:
        handler = getattr(importlib.import_module(module_name), function_name)
    except Exception as exc:  # noqa: BLE001 - an init error is reported, as Lambda reports it
        return None, {"ms": _ms(started), "error": error_of(exc)}
    return handler, {"ms": _ms(started), "error": None}


def invoke(handler: Any, request: dict[str, Any]) -> dict[str, Any]:
    os.environ["_X_AMZN_TRACE_ID"] = request["trace_id"]
    started = time.perf_counter()
    try:
        response = handler(request["event"], Context(request))
        payload = json.loads(json.dumps(response))  # Lambda returns the handler's answer as JSON
    except Exception as exc:  # noqa: BLE001 - a function error is reported with its type, as Lambda does
        return {"ok": False, "error": error_of(exc), "ms": _ms(started)}
    return {"ok": True, "response": payload, "ms": _ms(started)}


def describe(opt: str) -> dict[str, Any]:
    origins = {}
    for name in KEY_MODULES:
        module = sys.modules.get(name)
        origins[name] = getattr(module, "__file__", None) if module else None
    from_layers = with_bytecode = 0
    compiled_here = []
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if not (origin.startswith(opt) and origin.endswith(".py")):
            continue
        from_layers += 1
        if _bytecode_matches(getattr(spec, "cached", None)):
            with_bytecode += 1
        else:
            compiled_here.append(origin[len(opt) :])
    return {
        "sys_path": sys.path,
        "origins": origins,
        "layer_modules": from_layers,
        "layer_modules_from_bytecode": with_bytecode,
        "compiled_at_import": sorted(compiled_here)[:20],
    }


def _bytecode_matches(cached: str | None) -> bool:
    """A `.pyc` this interpreter reads (its magic number) beside the module."""
    if not cached or not os.path.isfile(cached):
        return False
    with open(cached, "rb") as handle:
        return handle.read(4) == importlib.util.MAGIC_NUMBER


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def main() -> int:
    sys.path.pop(0)  # this script's directory: Lambda's bootstrap is not on the function's path
    answers = os.fdopen(int(sys.argv[1]), "w", buffering=1, encoding="utf-8")
    opt = sys.argv[2]
    handler, init = load_handler()
    answers.write(json.dumps({"init": init}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("describe"):
            answer = describe(opt)
        elif handler is None:
            answer = {"ok": False, "error": init["error"], "ms": 0.0}
        else:
            answer = invoke(handler, request)
        answers.write(json.dumps(answer, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
