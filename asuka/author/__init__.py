"""Authoring tasks with a model (``asuka author``): the paper's construction pipeline, each
stage a prompt template and a checked answer, recorded; a draft that validates, repaired by the
model from the validator's problems; optionally a reference app, checks and the proof that takes
the task out of draft."""

from asuka.author._models import STAGES
from asuka.author._pipeline import (
    AUTHORING_DIR,
    ORDER,
    PROOF_STAGES,
    Author,
    Authored,
    AuthoringError,
    validate,
    write_task,
)

__all__ = ["AUTHORING_DIR", "ORDER", "PROOF_STAGES", "STAGES", "Author", "Authored",
           "AuthoringError", "validate", "write_task"]
