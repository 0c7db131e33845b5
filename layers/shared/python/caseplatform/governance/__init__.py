"""Governance over the case platform: review metrics computed from the events."""
