"""`make eval`: the rule planner (and the OpenAI planner, when a key is set) scored on a labelled set
of English and Hebrew messages (`utterances.txt`); see `harness` and docs/understanding.md."""
