"""The protocol: the DAG engine (dag | flat | full) and the evaluation of one workspace along it."""
