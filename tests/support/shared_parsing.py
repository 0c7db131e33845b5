"""Parse botocore's and moto's fixed inputs once per test process instead of once per local stack.

Every `LocalStack` (one per test using the `stack` fixture) makes fresh boto3 sessions: each new
botocore session re-reads and re-parses the JSON service models and endpoints (most of a stack's
start-up), and moto re-parses the executor's state machine definition with its pure-Python ASL
parser to validate it. Both are pure functions of fixed inputs (botocore's data files; the rendered
definition string), so one parse per process is the same check for a fraction of the CPU. Clients,
sessions, moto backends and executions stay per test: only the parsed data files are shared, the way
one botocore session already shares them between its own clients.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import botocore.loaders
import botocore.session

_lock = threading.Lock()
_loaders: dict[str | None, Any] = {}
_create_loader = botocore.loaders.create_loader


def _shared_loader(search_path_string: str | None = None) -> Any:
    """One botocore `Loader` (and its cache of parsed JSON) per data path, for every session."""
    with _lock:
        loader = _loaders.get(search_path_string)
        if loader is None:
            loader = _loaders[search_path_string] = _create_loader(search_path_string)
        return loader


def share_parsed_definitions() -> None:
    """Install the shared botocore loader and validate each state machine definition once.

    A definition that fails validation is not cached (lru_cache keeps only returns), so a bad one
    is refused on every call, as before.
    """
    botocore.session.create_loader = _shared_loader
    from moto.stepfunctions.parser.models import StepFunctionsParserBackend

    validate = StepFunctionsParserBackend._validate_definition
    if not hasattr(validate, "cache_info"):
        StepFunctionsParserBackend._validate_definition = staticmethod(  # type: ignore[method-assign]
            functools.lru_cache(maxsize=32)(validate)
        )
