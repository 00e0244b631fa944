"""Human agreement (the paper's RQ3 on any run): a reproducible sample of a run's judged
criteria, an annotation console where people label them beside the real app, the labels in
SQLite inside the run, and the judge-vs-human statistics (``asuka annotate``, ``asuka agree
RUN --humans``)."""

from asuka.annotate._agree import human_agreement
from asuka.annotate._app import make_app
from asuka.annotate._sample import STRATA, draw_sample
from asuka.annotate._store import ANNOTATIONS_FILE, LABELS, SCHEMA_VERSION, Item, LabelStore

__all__ = ["ANNOTATIONS_FILE", "LABELS", "SCHEMA_VERSION", "STRATA", "Item", "LabelStore",
           "draw_sample", "human_agreement", "make_app"]
