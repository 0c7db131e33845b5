"""Measuring helpers: AWS API calls counted at botocore's client, wall time, cold imports."""

from __future__ import annotations

import base64
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from botocore.client import BaseClient

REPO = Path(__file__).resolve().parents[1]
Row = tuple[str, str, str]


DYNAMODB_WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})
DYNAMODB_READS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"})


def _wire(value: Any) -> Any:
    """A value as DynamoDB's JSON protocol sends it: binary attributes in base64."""
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode("ascii")
    return str(value)


def _size(document: Any) -> int:
    """Bytes of a request or response as JSON on the wire (DynamoDB's protocol is JSON)."""
    if isinstance(document, dict):
        document = {k: v for k, v in document.items() if k != "ResponseMetadata"}
    return len(json.dumps(document, default=_wire, separators=(",", ":")).encode())


def _value_size(value: dict[str, Any]) -> int:
    """Bytes of one attribute value by DynamoDB's item-size rule (numbers: about one byte per two
    digits, plus one; maps and lists: 3 bytes plus one per element)."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        return len(inner.lstrip("-").replace(".", "")) // 2 + 1
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) + 1 for k, v in inner.items())
    if kind == "L":
        return 3 + sum(_value_size(v) + 1 for v in inner)
    return sum(len(v.encode()) if isinstance(v, str) else len(v) for v in inner)  # SS, NS, BS


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


_SET_PAIR = re.compile(r"(#?\w+)\s*=\s*(:\w+)")


def _update_size(update: dict[str, Any]) -> int:
    """The attributes an update's SET writes (names and values), by the item-size rule."""
    expression = str(update.get("UpdateExpression", ""))
    names = update.get("ExpressionAttributeNames", {})
    values = update.get("ExpressionAttributeValues", {})
    written = expression.split("SET", 1)[1].split(" REMOVE ")[0] if "SET" in expression else ""
    return sum(
        len(names.get(name, name).encode()) + _value_size(values[value])
        for name, value in _SET_PAIR.findall(written)
        if value in values
    )


def item_bytes_written(operation: str, params: dict[str, Any]) -> int:
    """What a DynamoDB write stores, by DynamoDB's item-size rule (the size writes are billed by):
    a put's item, an update's SET attributes; deletes and condition checks store nothing."""
    if operation == "PutItem":
        return item_size(params["Item"])
    if operation == "UpdateItem":
        return _update_size(params)
    if operation == "BatchWriteItem":
        return sum(
            item_size(request["PutRequest"]["Item"])
            for requests in params["RequestItems"].values()
            for request in requests
            if "PutRequest" in request
        )
    if operation == "TransactWriteItems":
        total = 0
        for entry in params["TransactItems"]:
            if "Put" in entry:
                total += item_size(entry["Put"]["Item"])
            elif "Update" in entry:
                total += _update_size(entry["Update"])
        return total
    return 0


class ApiCalls:
    """Counts every AWS API call made through any botocore client while active, and the DynamoDB
    bytes: what the writes send and what the reads bring back."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.dynamodb_written = 0
        self.dynamodb_read = 0
        self.dynamodb_item_bytes_written = 0
        self.seconds = 0.0  # wall time inside the calls (botocore and, locally, moto)

    @contextmanager
    def counting(self) -> Iterator[ApiCalls]:
        # The one place every botocore call passes (private, hence getattr/setattr).
        original = getattr(BaseClient, "_make_api_call")  # noqa: B009
        calls = self.calls

        def counted(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
            service = client.meta.service_model.service_name
            calls[f"{service}:{operation}"] += 1
            if service == "dynamodb" and operation in DYNAMODB_WRITES:
                size = _size(params)
                self.dynamodb_written += size
                self.dynamodb_item_bytes_written += item_bytes_written(operation, params)
            start = time.perf_counter()
            try:
                response = original(client, operation, params)
            finally:
                self.seconds += time.perf_counter() - start
            if service == "dynamodb" and operation in DYNAMODB_READS:
                self.dynamodb_read += _size(response)
            return response

        setattr(BaseClient, "_make_api_call", counted)  # noqa: B010
        try:
            yield self
        finally:
            setattr(BaseClient, "_make_api_call", original)  # noqa: B010

    @property
    def total(self) -> int:
        return sum(self.calls.values())

    def count(self, prefix: str) -> int:
        return sum(n for name, n in self.calls.items() if name.startswith(prefix))


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f}"


def _import_once(code: str, pycache: str, *, write: bool = True) -> tuple[float, float]:
    probe = (
        "import time as _t; _s = _t.perf_counter(); _c = _t.process_time(); "
        f"{code}; print(_t.perf_counter() - _s, _t.process_time() - _c)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-X", f"pycache_prefix={pycache}", "-c", probe],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall, cpu = out.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def best_imports(*codes: str, repeat: int = 7, source: bool = False) -> list[tuple[float, float]]:
    """Best (wall time, CPU time) of each `code` in a fresh interpreter, the runs interleaved
    (a, b, a, b, ...) so that a busy moment of the machine weighs on all of them alike. CPU time (the
    child's user + system) moves less than wall time when the machine is busy.

    The bytecode is under control, not left to what the venv happens to hold: a first untimed run
    compiles every module into a private cache (`-X pycache_prefix`). By default every module is then
    imported from it: the import's own work. With `source`, only the standard library is: the
    packages and the project are compiled on every run, as in a Lambda whose layers ship no .pyc."""
    with tempfile.TemporaryDirectory(prefix="bench-pyc-") as pycache:
        for code in codes:
            _import_once(code, pycache)
        if source:
            stdlib = Path(pycache, *Path(sysconfig.get_paths()["stdlib"]).parts[1:])
            for entry in Path(pycache).rglob("*.pyc"):
                if not entry.is_relative_to(stdlib) or "site-packages" in entry.parts:
                    entry.unlink()
        best = [(float("inf"), float("inf"))] * len(codes)
        for _ in range(repeat):
            for index, code in enumerate(codes):
                wall, cpu = _import_once(code, pycache, write=not source)
                best[index] = (min(best[index][0], wall), min(best[index][1], cpu))
    return best


def modules_after(code: str, *, after: str = "pass") -> int:
    """Modules `code` imports in a fresh interpreter, once `after` has run."""
    out = subprocess.run(  # noqa: S603
        [
            sys.executable,
            "-c",
            f"import sys; {after}; _b = set(sys.modules); {code}; print(len(set(sys.modules) - _b))",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(out.strip().splitlines()[-1])


def modules_of(code: str) -> list[str]:
    """The modules a fresh interpreter holds once `code` has run (the benchmarks' own left out)."""
    out = subprocess.run(  # noqa: S603
        [sys.executable, "-c", f"import sys; {code}; print(' '.join(sorted(sys.modules)))"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [name for name in out.strip().splitlines()[-1].split() if not name.startswith("benchmarks")]
