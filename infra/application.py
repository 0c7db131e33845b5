"""Builds the CDK app: the Memo stack, cdk-nag AwsSolutions as a validation plugin, bundling on or off.

Shared by `app.py` and the infra tests so that both synthesize the same thing.

The dependencies layer is built (bundled with pip) whenever the app is synthesized, by the CDK CLI
(`cdk synth`, `cdk deploy`) and by `python app.py` (`make synth`) alike: a cloud assembly is
deployable or it is not written. Only the test-only flag writes one without the built layer:
- `bundle` unset / `auto` / `true`: build it (needs PyPI and Python 3.13, no Docker);
- `bundle=false`: refused (`UnbuiltLayerRefused`) unless `placeholder_layer_for_tests=true` is given
  too. The layer is then a placeholder, and the stack carries a CloudFormation rule that fails every
  create and update (`infra.lambdas.NOT_BUILT_RULE_ID`), so even `cdk deploy --app <that assembly>`
  stops before any resource changes; `make deploy` checks the assembly before it tries
  (`infra.deploy_guard`). The infra tests and `make synth-offline` use the flag.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from aws_cdk import App, Validations
from cdk_nag import AwsSolutionsChecks

from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, PROJECT_ROOT, load_cdk_json_context, parse_bool
from infra.stack import MemoStack

STACK_NAME = "MemoStack"
BUNDLE_CONTEXT_KEY = "bundle"
PLACEHOLDER_LAYER_CONTEXT_KEY = "placeholder_layer_for_tests"
# Set by the CDK CLI for the app it runs; absent when the app is started as `python app.py`.
CLI_OUTDIR_ENV_VAR = "CDK_OUTDIR"


class UnbuiltLayerRefused(RuntimeError):
    """A synthesis without the built dependencies layer that did not say it is for tests only."""


def bundling_enabled(value: object) -> bool:
    if value is None or str(value).strip().lower() in {"", "auto"}:
        return True
    return parse_bool(BUNDLE_CONTEXT_KEY, value)


def context_from_argv(argv: Sequence[str]) -> dict[str, str]:
    """`-c key=value` (or `--context key=value`) pairs given to `python app.py`, as the CDK CLI takes
    them; anything else is refused."""
    context: dict[str, str] = {}
    args = list(argv)
    while args:
        flag = args.pop(0)
        pair = args.pop(0) if flag in {"-c", "--context"} and args else ""
        key, equals, value = pair.partition("=")
        if not (key and equals):
            raise SystemExit(f"usage: app.py [-c key=value]...; got {flag!r} {pair!r}".rstrip())
        context[key] = value
    return context


def build_app(
    *,
    context: Mapping[str, Any] | None = None,
    outdir: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[App, MemoStack]:
    """The app with its one stack; `context` adds to (and overrides) cdk.json's context."""
    environ = os.environ if environ is None else environ
    if outdir is None and CLI_OUTDIR_ENV_VAR not in environ:
        outdir = str(PROJECT_ROOT / "cdk.out")
    app = App(
        context={**load_cdk_json_context(), **(context or {})},
        outdir=outdir,
    )
    if not bundling_enabled(app.node.try_get_context(BUNDLE_CONTEXT_KEY)):
        placeholder = app.node.try_get_context(PLACEHOLDER_LAYER_CONTEXT_KEY)
        if not parse_bool(PLACEHOLDER_LAYER_CONTEXT_KEY, placeholder if placeholder is not None else False):
            raise UnbuiltLayerRefused(
                "bundle=false would write a cloud assembly whose dependencies layer is an empty "
                "placeholder: every function would fail on import, so it must never be deployed. Build "
                "the layer (leave `bundle` unset: needs PyPI and Python 3.13, no Docker) or, for tests "
                f"and offline inspection only, add `-c {PLACEHOLDER_LAYER_CONTEXT_KEY}=true`: the "
                "assembly then carries a CloudFormation rule that fails any deployment of it."
            )
        # CDK's own switch: stacks matching none of these patterns skip asset bundling.
        app.node.set_context(BUNDLING_STACKS_CONTEXT_KEY, [])
    # Environment-agnostic: the account and region come from the credentials `cdk deploy` runs with.
    stack = MemoStack(app, STACK_NAME)
    Validations.of(stack).add_plugins(AwsSolutionsChecks(stack))
    return app, stack
