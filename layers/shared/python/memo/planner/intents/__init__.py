"""The rule planner's matchers, one module per kind of request; `memo.planner.rules` tries them in order."""
