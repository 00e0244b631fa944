"""Tools that run the evaluator on the benchmark itself: the mutant proofs of a task's checks
(``asuka validate --mutants``), the corpora of independent apps with their labels (agreement of
verdicts with people), and ``asuka preview``. They use the deploy, the UI agents and the engine,
so they sit above them; the benchmark's data (``asuka.benchmark``) never imports them."""
