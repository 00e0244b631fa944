"""Results: the run store and its records, scoring (pure functions), summaries, provenance."""
