"""`make deploy-check`: synthesize the stack as `cdk deploy` does and run every function as Lambda
would, on a clean Python 3.13 against a local AWS (see `__main__` and docs/deploy.md)."""
