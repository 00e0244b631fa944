"""The loop: one cell (rounds of agent, deploy, evaluate, feedback), the executor that runs many,
experiments, sweeps, re-evaluation, progress."""
