"""The version the platform reports (MCP server info, OpenAPI): the installed distribution's metadata.

The code ships inside the `memo` distribution (and, deployed, inside a Lambda layer built from it).
Where no distribution metadata is installed (a bare layer), the version is `0+unknown`, never a
number that could be mistaken for a release.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

DISTRIBUTION = "memo"
UNKNOWN = "0+unknown"


@cache
def platform_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN
