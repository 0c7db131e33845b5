"""The one wiring pattern of Memo's Lambdas.

Each Lambda has a module in `memo/wiring/` with one `LambdaRuntime` subclass: built from the Lambda's
settings (`memo.settings`), its adapters are cached properties, so nothing (no client, no secret) is
built at import or construction, only on first use. The handler asks `XRuntime.current()`, which reads
the settings from the environment once per container. Tests and the local stack build their own
runtime (their clock, their fakes) and install it with `use_runtime`; `reset_runtime()` forgets what
was installed or built, so the next `current()` reads the environment again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from memo.clock import Clock, utc_now


class RuntimeSettings(Protocol):
    """What a runtime needs of its settings model: `memo.settings.FunctionSettings` (pydantic), or
    the webhook ingress's settings (`memo.wiring.ingress`, the standard library only)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Self: ...

    @classmethod
    def build(cls) -> None: ...


S = TypeVar("S", bound=RuntimeSettings)

_installed: dict[type[Any], Any] = {}


class LambdaRuntime(Generic[S]):
    """A Lambda's settings, its clock, and (in subclasses) its adapters as cached properties."""

    settings_model: ClassVar[type[RuntimeSettings]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The settings validator is built with the runtime class, at import (the cold start's init),
        # not by the first request; the other Lambdas' settings models are never built here.
        cls.settings_model.build()

    def __init__(self, settings: S, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @classmethod
    def current(cls) -> Self:
        """The runtime of this container: the installed one, or one built from the environment."""
        runtime = _installed.get(cls)
        if runtime is None:
            runtime = _installed[cls] = cls(cast(S, cls.settings_model.from_env(os.environ)))
        return cast(Self, runtime)


def use_runtime(runtime: LambdaRuntime[Any]) -> None:
    """Install `runtime` as its class's `current()` (tests and the local stack)."""
    _installed[type(runtime)] = runtime


def reset_runtime(kind: type[LambdaRuntime[Any]] | None = None) -> None:
    """Forget the runtime of `kind` (every Lambda's, without it): the next `current()` rebuilds it
    from the environment."""
    if kind is None:
        _installed.clear()
    else:
        _installed.pop(kind, None)
