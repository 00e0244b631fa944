"""The benchmark: loading and validating tasks, PRDs and DAGs, feature markers, the lints, mutants
and their proofs, statistics, previews, the corpus of independent apps."""
