"""Checks of the code's shape that `make lint` runs (sizes, tests at the mirrored path)."""
