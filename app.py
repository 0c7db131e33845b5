#!/usr/bin/env python3
"""CDK app of Memo: one stack (`MemoStack`), cdk-nag AwsSolutions checks always on.

`python app.py` (what `make synth` runs) writes the cloud assembly to cdk.out, the dependencies
layer built with pip (no Docker, no AWS credentials). `python app.py -c key=value ...` sets context
as the CDK CLI's `-c` does (`make synth-offline` passes the test-only placeholder flag). The CDK CLI
runs it through cdk.json. See docs/deploy.md.
"""

from __future__ import annotations

import sys

from infra.application import build_app, context_from_argv


def main() -> None:
    app, _stack = build_app(context=context_from_argv(sys.argv[1:]))
    app.synth()


if __name__ == "__main__":
    main()
