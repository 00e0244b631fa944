"""The loop: one cell (rounds of agent, deploy, evaluate, feedback), the executor that runs many,
experiments, sweeps, re-evaluation, progress."""

# the round strategies beside the paper's loop register themselves when imported
from asuka.loop import sequential as _sequential  # noqa: E402,F401
