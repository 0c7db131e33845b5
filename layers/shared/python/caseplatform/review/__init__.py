"""The operator-facing side of the case platform: the review HTTP API (Powertools), MCP over
Streamable HTTP, the reviewer web page, authentication (JWT claims) and per-adapter authorization."""
