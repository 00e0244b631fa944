"""What a task backs: the ids, classes, elements and wording its PRD, query and mock data spell out
(``Backing``), and the values its evaluation tasks type themselves (``Typed``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any, Iterator

from asuka.benchmark.lint_markup._regex import parse, unbacked_runs
from asuka.benchmark.lint_markup._text import prose, stem, wordy
from asuka.schema import is_regex

_SVG = {"g", "rect", "circle", "path", "line", "polygon", "polyline", "text", "tspan", "ellipse"}
# an element is backed when the PRD names it in a selector (`li[data-x]`, `<pre>`) or uses the word
_TAG_WORDS = {**{t: "svg" for t in _SVG}, "svg": "svg", "canvas": "canvas", "table": "table",
              "tr": "table", "td": "table", "th": "table", "tbody": "table", "thead": "table",
              "tfoot": "table", "ul": "list", "ol": "list", "li": "list", "dl": "list",
              "pre": "code|monospace", "code": "code|monospace", "em": "emphasis|italic",
              "i": "italic", "strong": "bold|strong", "b": "bold", "mark": "highlight",
              "blockquote": "quote", "hr": "rule|divider", "iframe": "iframe", "video": "video",
              "audio": "audio"}
# elements with an ARIA role of their own (what a user sees), generic containers every page has,
# and the document's own: not structure
_SEMANTIC = set("html head title meta link script style body main div span a button input select "
                "option optgroup textarea label form img h1 h2 h3 h4 h5 h6 dialog nav header "
                "footer section article aside details summary fieldset legend output progress "
                "meter datalist".split())


_PLACEHOLDER = r"(?:<[^<>]{1,40}>|\{[^{}]{1,40}\}|\.\.\.)"   # <title>, {name}, ... in a PRD


_GAP = {"\x00": r".{1,60}?", "\x01": r"\S{1,20}(?:\s\S{1,12})?"}


def _leaves(value: Any, out: set[str]) -> None:
    """The strings of a parsed JSON value (names and wording a page shows from the data)."""
    if isinstance(value, str):
        if 2 <= len(value) <= 200 and any(c.isalpha() for c in value):
            out.add(prose(value))
    elif isinstance(value, dict):
        for x in value.values():
            _leaves(x, out)
    elif isinstance(value, list):
        for x in value:
            _leaves(x, out)


def _data_strings(name: str, text: str) -> set[str]:
    out: set[str] = set()
    if name.endswith(".json") or text.lstrip()[:1] in ("{", "["):
        try:
            _leaves(json.loads(text), out)
        except ValueError:
            pass
    elif name.endswith((".csv", ".tsv")):
        _leaves(list(csv.reader(io.StringIO(text), delimiter="\t" if name.endswith(".tsv")
                                else ",")), out)
    return out


def _placeholder_spots(prd: str) -> Iterator[str]:
    """What a PRD says placeholders read: the quoted text after the word (or its clause), and
    the clause just before it ("`Select a patient…` placeholder")."""
    for m in re.finditer(r"placeholders?\b", prd):
        after = prd[m.end():m.end() + 160]
        quote = re.match(r"\s*(?:text\s+|of\s+)?\"", after)
        if quote:
            end = after.find('"', quote.end())
            yield after[:end if end > 0 else None]
        else:
            yield re.split(r"[,;()]|(?<!\.)\. ", after, maxsplit=1)[0]
        yield re.split(r"[,;(]|(?<!\.)\. | and ", prd[max(0, m.start() - 60):m.start()])[-1]


class Typed:
    """Values an evaluation task's own steps type or select (and the strings of typed JSON)."""

    def __init__(self, values: list[str]) -> None:
        self.texts = [prose(v) for v in values if v.strip() and not is_regex(v)]
        self.strings: set[str] = set()
        for v in values:
            if v.strip() and not is_regex(v):
                _leaves(v, self.strings)
                self.strings |= _data_strings("", v)
        self.key = tuple(self.texts)


class Backing:
    """What a task's PRD, query and mock data spell out."""

    def __init__(self, prd: str, query: str = "", data: dict[str, str] | None = None) -> None:
        data = data or {}
        self.raw = prd + "\n" + query
        self.prd = prose(prd)
        self.query = prose(query)
        self.strings: set[str] = set()
        for name, text in data.items():
            self.strings |= _data_strings(name, text)
        self.data = prose("\n".join(data.values())) + " | " + " | ".join(sorted(self.strings))
        self.placeholder_text = " | ".join(_placeholder_spots(self.prd))
        self._stems: dict[str, str] = {}
        self._values: dict[tuple[str, bool, tuple[str, ...]], list[str]] = {}
        self._ident: dict[tuple[str, str], bool] = {}

    # -- markup names
    def ident(self, kind: str, name: str) -> bool:
        key = (kind, name)
        if key not in self._ident:
            self._ident[key] = _ident_backed(self.raw, kind, name)
        return self._ident[key]

    def tag(self, name: str) -> bool:
        name = name.lower()
        if name in _SEMANTIC or self.ident("tag", name):
            return True
        words = _TAG_WORDS.get(name)
        pattern = rf"(?<![\w-])(?:{words})" if words else rf"(?<![\w-]){re.escape(name)}(?![\w-])"
        return re.search(pattern, self.prd) is not None

    # -- wording
    def _stemmed(self, text: str) -> str:
        if text not in self._stems:
            self._stems[text] = stem(text)
        return self._stems[text]

    def phrase(self, run: str, typed: Typed, where: str | None = None) -> bool:
        """A literal phrase (no regex) is backed: it is in the PRD, query, data or typed values;
        or it is a PRD phrase once its numbers and data values are taken as gaps (plural s
        ignored); or it starts or ends with a PRD phrase next to a placeholder (``Remove <title>``).
        With ``where``: only that text backs it."""
        text = prose(run)
        if not text:
            return True
        if where is None:
            if any(text in h for h in (self.prd, self.query, self.data, *typed.texts)):
                return True
            hays: tuple[str, ...] = (self.prd, self.query)
        else:
            if text in where:
                return True
            hays = (where,)
        skeleton = text   # data values -> \x00 (a gap of any short text), numbers -> \x01
        for s in sorted((x for src in (self.strings, typed.strings) for x in src if x in text),
                        key=len, reverse=True):
            skeleton = re.sub(rf"(?<![\w-]){re.escape(s)}(?![\w-])", "\x00", skeleton)
        skeleton = re.sub(r"[^\s\x00]*\d[^\s\x00]*", "\x01", skeleton)
        if not wordy(re.sub("[\x00\x01]", " ", skeleton)):
            return True  # data and numbers around a word or two
        pattern = "".join(
            _GAP.get(p, re.escape(stem(p)).replace(r"\ ", r"\s+"))
            for p in re.split("([\x00\x01])", skeleton.strip("\x00\x01 ")) if p)
        if any(re.search(pattern, self._stemmed(h)) for h in hays):
            return True
        # cells of a row or card: every phrase between the numbers is a PRD phrase
        segments = [x.strip() for x in skeleton.split("\x01")]
        if len(segments) > 1 and all(
                not wordy(x.replace("\x00", " ")) or any(re.search(
                    r".{1,60}?".join(rf"(?<![\w-]){re.escape(stem(y.strip()))}(?![\w-])"
                                     .replace(r"\ ", r"\s+") for y in x.split("\x00") if y.strip()),
                    self._stemmed(h)) for h in hays)
                for x in segments):
            return True
        words = text.split()
        for i in range(len(words) - 1, 0, -1):
            # "Remove <title>" backs "remove small wonders" when the rest is (part of) a value
            head, rest = " ".join(words[:i]), " ".join(words[i:])
            if re.search(r"[a-z]{3}", head) and self._filler(rest, typed, i > 1) and any(
                    re.search(rf"(?<![\w-]){re.escape(head)}\s*[(\"'\[]?{_PLACEHOLDER}", h)
                    for h in hays):
                return True
            rest, tail = " ".join(words[:-i]), " ".join(words[-i:])
            if re.search(r"[a-z]{3}", tail) and self._filler(rest, typed, i > 1) and any(
                    re.search(rf"{_PLACEHOLDER}[)\"'\]]?\s*{re.escape(tail)}(?![\w-])", h)
                    for h in hays):
                return True
        return False

    def _filler(self, text: str, typed: Typed, prd: bool) -> bool:
        """Text that can stand for a PRD placeholder: a number, (part of) a data value, or with
        ``prd`` a PRD phrase ("Post by <author>" + "Unknown user")."""
        pattern = rf"(?<![\w-]){re.escape(text)}(?![\w-])"
        return not wordy(text) or any(re.search(pattern, h) for h in (
            self.data, *typed.texts, *((self.prd,) if prd else ())))

    def value(self, value: str, typed: Typed, *, placeholder: bool = False) -> list[str]:
        """The unbacked word runs of a plain or regex value ([] when it is backed)."""
        key = (value, placeholder, typed.key)
        if key not in self._values:
            self._values[key] = self._value(value, typed, placeholder)
        return self._values[key]

    def _value(self, value: str, typed: Typed, placeholder: bool) -> list[str]:
        where = self.placeholder_text if placeholder else None
        if not is_regex(value):
            return [] if not wordy(value) or self.phrase(value, typed, where) else [value]
        body, _, flags = value[1:].rpartition("/")
        try:
            rx = re.compile(body, re.I | (re.S if "s" in flags else 0))
            tree = parse(body)
        except Exception:  # an invalid regex is the loader's business
            return []
        # the whole regex against the PRD and query only: on the (large) data text patterns like
        # `a[\s\S]*b[\s\S]*%` backtrack for seconds; its literal runs are looked up there below
        hays = (where,) if where is not None else (self.prd, self.query)
        if any(rx.search(h) for h in hays):
            return []
        return unbacked_runs(tree, lambda r: self.phrase(r, typed, where))


def _ident_backed(prd: str, kind: str, name: str) -> bool:
    n = re.escape(name)
    end = r"(?![\w-])"
    q = r"[\"'`\u201c]?"
    pats = {
        "id": [rf"#{n}{end}", rf"\bid\s*[=:]?\s*{q}{n}{end}", rf"(?<![\w-]){n}{q}\s+id\b"],
        "class": [rf"(?<![\d\w-])\.{n}{end}", rf"(?<![\w-])[a-z][\w-]*\.{n}{end}",
                  rf"\bclass(?:name)?\s*=\s*[\"'][^\"']*(?<![\w-]){n}{end}",
                  rf"\bclass(?:es)?\s+{q}{n}{end}", rf"(?<![\w-]){n}{q}\s+class(?:es)?\b"],
        "attribute": [rf"(?<![\w-]){n}{end}"],
        "storage": [rf"(?<![\w.-]){n}(?![\w-])"],
        "testid": [rf"data-testid\s*=\s*{q}{n}{end}", rf"\btest[ -]?id\s+{q}{n}{end}"],
        "tag": [rf"(?<![\w-]){n}(?=[.#\[:][\w\"'-])", rf"`{n}`", rf"<{n}[\s>]"],
    }[kind]
    return any(re.search(p, prd, re.I if kind == "tag" else 0) for p in pats)
