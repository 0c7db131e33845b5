"""The responder: join the step outcomes of one turn, word them, send one reply, remember it."""
