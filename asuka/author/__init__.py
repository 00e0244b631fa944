"""Authoring tasks with a model (``asuka author``): the paper's construction pipeline, each
stage a prompt template and a checked answer, recorded; a draft that validates, repaired by the
model from the validator's problems."""

from asuka.author._models import STAGES
from asuka.author._pipeline import AUTHORING_DIR, ORDER, Author, Authored, AuthoringError, \
    validate, write_task

__all__ = ["AUTHORING_DIR", "ORDER", "STAGES", "Author", "Authored", "AuthoringError",
           "validate", "write_task"]
