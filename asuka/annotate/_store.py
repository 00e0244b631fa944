"""The labels of an agreement study: ``annotations.sqlite`` in the run directory, with a schema
version; the sample it was drawn with, and one row per (annotator, item), each written in a
transaction of its own so a killed console loses nothing. CSV and JSONL import and export."""

from __future__ import annotations

import csv
import json
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

ANNOTATIONS_FILE = "annotations.sqlite"
SCHEMA_VERSION = 1
LABELS = ("pass", "fail", "cant_tell")
SCHEMA = """
create table if not exists meta (key text primary key, value text not null);
create table if not exists items (
  item integer primary key, cell_id text not null, round integer not null,
  eval_task text not null, criterion text not null, unique (cell_id, round, criterion));
create table if not exists labels (
  annotator text not null, item integer not null references items(item),
  label text not null check (label in ('pass', 'fail', 'cant_tell')), note text default '',
  at real not null, primary key (annotator, item));
"""


@dataclass(frozen=True)
class Item:
    item: int
    cell_id: str
    round: int
    eval_task: str
    criterion: str


class LabelStore:
    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / ANNOTATIONS_FILE
        with closing(self._db()) as db, db:
            db.executescript(SCHEMA)
            row = db.execute("select value from meta where key='schema_version'").fetchone()
            if row is None:
                db.execute("insert into meta values ('schema_version', ?)", (SCHEMA_VERSION,))
            elif int(row[0]) != SCHEMA_VERSION:
                raise ValueError(f"{self.path}: schema version {row[0]}, this Asuka reads "
                                 f"{SCHEMA_VERSION}")

    def _db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("pragma journal_mode=wal")
        return db

    # ------------------------------------------------------------ the sample

    def set_sample(self, items: list[tuple[str, int, str, str]], how: dict) -> None:
        """Record the drawn sample once; a second draw must be the same (resume)."""
        with closing(self._db()) as db, db:
            have = db.execute("select count(*) from items").fetchone()[0]
            if have:
                old = json.loads(db.execute(
                    "select value from meta where key='sample'").fetchone()[0])
                if old != how:
                    raise ValueError(f"{self.path} holds a sample drawn with {old}; "
                                     f"this one is {how} (use the same, or another run copy)")
                return
            db.executemany("insert into items (cell_id, round, eval_task, criterion) "
                           "values (?,?,?,?)", items)
            db.execute("insert or replace into meta values ('sample', ?)", (json.dumps(how),))

    def items(self) -> list[Item]:
        with closing(self._db()) as db:
            return [Item(*r) for r in db.execute(
                "select item, cell_id, round, eval_task, criterion from items order by item")]

    def item(self, n: int) -> Item | None:
        with closing(self._db()) as db:
            r = db.execute("select item, cell_id, round, eval_task, criterion from items "
                           "where item=?", (n,)).fetchone()
        return Item(*r) if r else None

    # ------------------------------------------------------------ labels

    def put(self, annotator: str, item: int, label: str, note: str = "") -> None:
        if label not in LABELS:
            raise ValueError(f"label must be one of {', '.join(LABELS)}, not {label!r}")
        with closing(self._db()) as db, db:  # one transaction per label
            db.execute("insert or replace into labels values (?,?,?,?,?)",
                       (annotator, item, label, note, time.time()))

    def labels(self, annotator: str | None = None) -> list[dict]:
        q = ("select l.annotator, l.item, i.cell_id, i.round, i.eval_task, i.criterion, "
             "l.label, l.note, l.at from labels l join items i using (item)")
        args: tuple = ()
        if annotator is not None:
            q, args = q + " where l.annotator=?", (annotator,)
        keys = ("annotator", "item", "cell_id", "round", "eval_task", "criterion", "label",
                "note", "at")
        with closing(self._db()) as db:
            return [dict(zip(keys, r)) for r in db.execute(q + " order by l.item", args)]

    def progress(self) -> dict[str, int]:
        with closing(self._db()) as db:
            return dict(db.execute("select annotator, count(*) from labels group by annotator"
                                   " order by annotator").fetchall())

    def next_item(self, annotator: str) -> int | None:
        with closing(self._db()) as db:
            r = db.execute("select item from items where item not in (select item from "
                           "labels where annotator=?) order by item limit 1",
                           (annotator,)).fetchone()
        return r[0] if r else None

    # ------------------------------------------------------------ exchange

    def export(self, path: Path) -> int:
        rows = self.labels()
        if Path(path).suffix == ".csv":
            with open(path, "w", newline="", encoding="utf-8") as fh:
                w = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["annotator"])
                w.writeheader()
                w.writerows(rows)
        else:
            Path(path).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return len(rows)

    def import_(self, path: Path) -> int:
        """Labels collected elsewhere (annotator, cell_id, round, criterion, label, note),
        matched to the sample's items; a row naming no sampled item is an error (file:line)."""
        path = Path(path)
        if path.suffix == ".csv":
            with open(path, newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        else:
            rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
                    if x.strip()]
        by_key = {(i.cell_id, i.round, i.criterion): i.item for i in self.items()}
        for n, r in enumerate(rows, 2 if path.suffix == ".csv" else 1):
            key = (r.get("cell_id"), int(r.get("round") or 0), r.get("criterion"))
            if key not in by_key:
                raise ValueError(f"{path}:{n}: no sampled item {key}")
            self.put(str(r["annotator"]), by_key[key], str(r["label"]), r.get("note") or "")
        return len(rows)
