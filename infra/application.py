"""Builds the CDK app: the Memo stack, cdk-nag AwsSolutions as a validation plugin, bundling on or off.

Shared by `app.py` and the infra tests so that both synthesize the same thing.

Bundling (building the dependencies layer with pip) is decided by the `bundle` context key:
- `true`: build it (needs PyPI, no Docker);
- `false`: skip it (offline synth; the layer asset is then a placeholder, not deployable);
- unset / `auto`: build it when the CDK CLI runs the app (`cdk synth`, `cdk deploy`), skip it when
  the app runs as `python app.py` (`make synth`), so that a plain `cdk deploy` never ships an empty
  layer and `make synth` works offline.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from aws_cdk import App, Validations
from cdk_nag import AwsSolutionsChecks

from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, PROJECT_ROOT, load_cdk_json_context, parse_bool
from infra.stack import MemoStack

STACK_NAME = "MemoStack"
BUNDLE_CONTEXT_KEY = "bundle"
# Set by the CDK CLI for the app it runs; absent when the app is started as `python app.py`.
CLI_OUTDIR_ENV_VAR = "CDK_OUTDIR"


def bundling_enabled(value: object, *, run_by_cli: bool) -> bool:
    if value is None or str(value).strip().lower() in {"", "auto"}:
        return run_by_cli
    return parse_bool(BUNDLE_CONTEXT_KEY, value)


def build_app(
    *,
    context: Mapping[str, Any] | None = None,
    outdir: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[App, MemoStack]:
    """The app with its one stack; `context` adds to (and overrides) cdk.json's context."""
    environ = os.environ if environ is None else environ
    run_by_cli = CLI_OUTDIR_ENV_VAR in environ
    if outdir is None and not run_by_cli:
        outdir = str(PROJECT_ROOT / "cdk.out")
    app = App(
        context={**load_cdk_json_context(), **(context or {})},
        outdir=outdir,
    )
    if not bundling_enabled(app.node.try_get_context(BUNDLE_CONTEXT_KEY), run_by_cli=run_by_cli):
        # CDK's own switch: stacks matching none of these patterns skip asset bundling.
        app.node.set_context(BUNDLING_STACKS_CONTEXT_KEY, [])
    # Environment-agnostic: the account and region come from the credentials `cdk deploy` runs with.
    stack = MemoStack(app, STACK_NAME)
    Validations.of(stack).add_plugins(AwsSolutionsChecks(stack))
    return app, stack
