"""`make bench`: the table of speed and AWS-call figures (measured, never asserted in tests)."""
