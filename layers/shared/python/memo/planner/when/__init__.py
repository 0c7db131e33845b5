"""The parts of a date/time expression: clock times and parts of the day (`clock`), days and
calendar dates (`days`), relative offsets and lead times (`offsets`), over a `Scan` of the message
that takes out each fragment found (`scan`). `memo.planner.timeparse` combines them."""
