#!/usr/bin/env python3
"""CDK app of Memo: one stack (`MemoStack`), cdk-nag AwsSolutions checks always on.

`python app.py` (what `make synth` runs) writes the cloud assembly to cdk.out without Docker, without
network and without AWS credentials. The CDK CLI runs it through cdk.json. See docs/deploy.md.
"""

from __future__ import annotations

from infra.application import build_app


def main() -> None:
    app, _stack = build_app()
    app.synth()


if __name__ == "__main__":
    main()
