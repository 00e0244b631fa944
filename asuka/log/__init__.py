"""The run log: everything a run records (the store and its records, cell specs' provenance)
and the pure functions that score a round from its records (scoring, contracts, fixes,
sequences, agreement statistics). Core: the roles, the engine, the loop and the readers all
read it; it imports none of them."""
