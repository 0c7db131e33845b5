"""Operator review of Memo's plan steps on the HITL case platform (adapter `memo_operation`)."""
