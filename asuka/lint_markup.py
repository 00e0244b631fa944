"""Static lint of checks that read the reference app's markup or wording (``asuka validate``).

A scripted check that finds an element by ``#chart [data-year]`` or asserts the exact words of an
empty state measures whether an app copied the reference app, not whether it does what the PRD
asks: an app written independently from the PRD fails it. This lint reads every criterion's
``check`` steps against the task's PRD, query and mock data, without a browser, and reports:

- **markup** (warnings): ids, classes and ``data-*`` attributes read by a ``css`` locator (also
  inside ``within``), a ``testid`` locator, a JS ``eval`` step (``getElementById``,
  ``querySelector``, ``closest``, ``dataset``, ``getAttribute``, ``classList``) or ``expect_attr``,
  whose names the PRD does not spell out (``#chart``, ``id "chart"``, ``.seg``, ``data-year``),
  and ``localStorage`` keys an ``eval`` step uses that the PRD does not give;
- **wording** (warnings): ``expect_text`` values (plain, exact or regex) and the names locators
  use (role name, label, placeholder, text, alt, title, a selected option) that are mostly words
  (not a number, money, date, count or code) and that neither the PRD nor the query contains (case
  and whitespace ignored, numbers taken as wildcards; values from the mock data or typed by the
  evaluation task's own steps count as backed). A regex is backed when it matches the PRD text, or
  when each of its literal word runs is backed (one alternative of each alternation suffices). A
  placeholder is backed only where the PRD speaks of a placeholder;
- **structure** (notes, never errors): element selectors such as ``tbody tr`` or ``mark`` that
  assume a DOM shape, unless the PRD names that element.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import yaml

from asuka.schema import BenchTask, CheckStep, Locator, Task, is_regex

try:  # the regex parser behind `re` (public as sre_parse up to 3.10)
    import re._parser as _sre  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    import sre_parse as _sre  # type: ignore[no-redef]

@dataclass(frozen=True)
class Finding:
    task: str
    criterion: str
    step: int       # index of the step in the criterion's check (as Verdict.step)
    kind: str       # id | class | attribute | storage | testid | wording | name | structure
    via: str        # css | eval | testid | expect_attr | expect_text | label | role name | ...
    subjects: tuple[str, ...]    # what is not backed
    reason: str
    file: str
    line: int | None = None
    severity: str = "warning"    # warning | note (structure only; never an error)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.criterion} check[{self.step}]: {self.reason}"


# ------------------------------------------------------------------ text normalisation

_TRANS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ",
                        "\u2026": "..."})


def norm(text: str) -> str:
    """Lower case, typographic quotes and dashes made plain, whitespace collapsed."""
    return " ".join(text.translate(_TRANS).lower().split())


def _prose(text: str) -> str:
    """Markdown emphasis and code marks removed, then normalised."""
    return norm(re.sub(r"[*`]", "", text))


_MONTHS = ("january february march april may june july august september october november "
           "december jan feb mar apr jun jul aug sep sept oct nov dec")
_DAYS = ("monday tuesday wednesday thursday friday saturday sunday "
         "mon tue tues wed thu thur fri sat sun")
_UNITS = ("kwh wh kw mwh kg mg lb lbs oz km cm mm mi ft ml hr hrs min mins sec ms mo yr yrs px pt "
          "usd eur gbp jpy cny chf am pm")
_NEUTRAL = set(f"{_MONTHS} {_DAYS} {_UNITS}".split())
_TOKEN = re.compile(r"[\w'\u2019-]+")


def wordy(text: str) -> bool:
    """Mostly words: two words or more, or one word and no number (a number, money, date, count,
    code or a single labelled number is not wording)."""
    words, numbers = 0, False
    for tok in _TOKEN.findall(text):
        if any(c.isdigit() for c in tok):
            numbers = True
        elif sum(c.isalpha() for c in tok) >= 2 and tok.lower().strip("'-") not in _NEUTRAL:
            words += 1
    return words >= 2 or (words == 1 and not numbers)


# ------------------------------------------------------------------ what a task backs

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


def _stem(text: str) -> str:
    """Plurals ignored: "days" ~ "day", "habit(s)" ~ "habit"."""
    return re.sub(r"(?<=[a-z]{2})(?:\(e?s\)|s\b)", "", text)


def _leaves(value: Any, out: set[str]) -> None:
    """The strings of a parsed JSON value (names and wording a page shows from the data)."""
    if isinstance(value, str):
        if 2 <= len(value) <= 200 and any(c.isalpha() for c in value):
            out.add(_prose(value))
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
        self.texts = [_prose(v) for v in values if v.strip() and not is_regex(v)]
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
        self.prd = _prose(prd)
        self.query = _prose(query)
        self.strings: set[str] = set()
        for name, text in data.items():
            self.strings |= _data_strings(name, text)
        self.data = _prose("\n".join(data.values())) + " | " + " | ".join(sorted(self.strings))
        self.placeholder_text = " | ".join(_placeholder_spots(self.prd))
        self._stems: dict[str, str] = {}
        self._values: dict[tuple, list[str]] = {}
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
            self._stems[text] = _stem(text)
        return self._stems[text]

    def phrase(self, run: str, typed: Typed, where: str | None = None) -> bool:
        """A literal phrase (no regex) is backed: it is in the PRD, query, data or typed values;
        or it is a PRD phrase once its numbers and data values are taken as gaps (plural s
        ignored); or it starts or ends with a PRD phrase next to a placeholder (``Remove <title>``).
        With ``where``: only that text backs it."""
        text = _prose(run)
        if not text:
            return True
        if where is None:
            if any(text in h for h in (self.prd, self.query, self.data, *typed.texts)):
                return True
            hays = (self.prd, self.query)
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
            _GAP.get(p, re.escape(_stem(p)).replace(r"\ ", r"\s+"))
            for p in re.split("([\x00\x01])", skeleton.strip("\x00\x01 ")) if p)
        if any(re.search(pattern, self._stemmed(h)) for h in hays):
            return True
        # cells of a row or card: every phrase between the numbers is a PRD phrase
        segments = [x.strip() for x in skeleton.split("\x01")]
        if len(segments) > 1 and all(
                not wordy(x.replace("\x00", " ")) or any(re.search(
                    r".{1,60}?".join(rf"(?<![\w-]){re.escape(_stem(y.strip()))}(?![\w-])"
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
            tree = _sre.parse(body, re.I)
        except Exception:  # an invalid regex is the loader's business
            return []
        # the whole regex against the PRD and query only: on the (large) data text patterns like
        # `a[\s\S]*b[\s\S]*%` backtrack for seconds; its literal runs are looked up there below
        hays = (where,) if where is not None else (self.prd, self.query)
        if any(rx.search(h) for h in hays):
            return []
        return _unbacked_runs(list(tree), lambda r: self.phrase(r, typed, where))


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


def _unbacked_runs(items: list, backed, prefix: str = "") -> list[str]:
    """Walk a parsed regex: literal runs (whitespace classes count as a space) must be backed
    when wordy; of an alternation one alternative must be (``prefix``: the literal text before
    an alternation, which the parser factors out of ``Sunday|Saturday``)."""
    missing: list[str] = []
    buf: list[str] = [prefix]

    def flush() -> None:
        run = " ".join("".join(buf).split())
        buf.clear()
        if run and wordy(run) and not backed(run):
            missing.append(run)

    def branch(alts: list) -> None:
        head = "".join(buf)
        buf.clear()
        results = [_unbacked_runs(list(a), backed, head) for a in alts]
        if all(results):
            missing.append(" | ".join(r for res in results for r in res))

    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            buf.append(chr(av))
        elif name == "IN" and _is_space(av):
            buf.append(" ")
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, _hi, sub = av
            sub = list(sub)
            if lo >= 1 and len(sub) == 1 and str(sub[0][0]) == "IN" and _is_space(sub[0][1]):
                buf.append(" ")
            elif lo >= 1 and len(sub) == 1 and str(sub[0][0]) == "LITERAL":
                buf.append(chr(sub[0][1]))
                flush()
            else:
                flush()
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        elif name == "SUBPATTERN":
            sub = list(av[-1])
            if len(sub) == 1 and str(sub[0][0]) == "BRANCH":
                branch(sub[0][1][1])
            else:
                flush()
                missing.extend(_unbacked_runs(sub, backed))
        elif name == "BRANCH":
            branch(av[1])
        else:
            flush()
    flush()
    return missing


def _is_space(av: Any) -> bool:
    return all(str(o) == "CATEGORY" and "SPACE" in str(a) and "NOT" not in str(a) or
               (str(o) == "LITERAL" and chr(a).isspace()) for o, a in av)


# ------------------------------------------------------------------ names read from markup

_ATTR = re.compile(r"\[\s*([\w-]+)[^\]]*(?:\]|$)")  # a JS string may end inside one
_STRING = re.compile(r"""(['"])(?:\\.|(?!\1).)*\1""")
_PSEUDO_ARGS = re.compile(r"::?(?:nth-[\w-]+|lang|dir)\([^)]*\)")
_NAME = re.compile(r"(::?|[#.])?(-?[A-Za-z_][\w-]*)")


def selector_names(selector: str) -> dict[str, set[str]]:
    """{'id': ..., 'class': ..., 'attribute': (data-* only), 'tag': ...} of a CSS selector."""
    out: dict[str, set[str]] = {"id": set(), "class": set(), "attribute": set(), "tag": set()}
    sel = _STRING.sub("", selector)
    out["attribute"] = {a for a in _ATTR.findall(sel) if a.lower().startswith("data-")}
    sel = _PSEUDO_ARGS.sub("", _ATTR.sub(" ", sel))
    for m in _NAME.finditer(sel):
        prefix, name = m.group(1) or "", m.group(2)
        if prefix.startswith(":"):
            continue
        out[{"#": "id", ".": "class"}.get(prefix, "tag")].add(name if prefix else name.lower())
    out["tag"] -= {"*"}
    return out


_JS_STR = r"""(['"`])((?:\\.|(?!\1).)*)\1"""
_JS_SELECTOR = re.compile(rf"\b(?:querySelector(?:All)?|closest|matches)\(\s*{_JS_STR}")
_JS_ID = re.compile(rf"\bgetElementById\(\s*{_JS_STR}")
_JS_CLASS = re.compile(rf"\b(?:getElementsByClassName\(|classList\.contains\()\s*{_JS_STR}")
_JS_TAG = re.compile(rf"\bgetElementsByTagName\(\s*{_JS_STR}")
_JS_ATTR = re.compile(rf"\b(?:get|has)Attribute\(\s*{_JS_STR}")
_JS_DATASET = re.compile(r"\bdataset(?:\.([A-Za-z_]\w*)|\[\s*['\"](\w+)['\"]\s*\])")
_JS_STORAGE = re.compile(rf"\b(?:local|session)Storage\.(?:get|set|remove)Item\(\s*{_JS_STR}")


def eval_names(js: str) -> dict[str, set[str]]:
    """The ids, classes, data-* attributes and tags a JS expression queries the DOM by, and the
    storage keys it reads or writes."""
    out: dict[str, set[str]] = {"id": set(), "class": set(), "attribute": set(), "tag": set(),
                                "storage": set()}
    clean = lambda s: re.sub(r"\$\{[^}]*\}", "", s)  # noqa: E731
    for m in _JS_SELECTOR.finditer(js):
        for k, v in selector_names(clean(m[2])).items():
            out[k] |= v
    out["id"] |= {clean(m[2]) for m in _JS_ID.finditer(js) if clean(m[2])}
    out["class"] |= {c for m in _JS_CLASS.finditer(js) for c in clean(m[2]).split()}
    out["tag"] |= {clean(m[2]).lower() for m in _JS_TAG.finditer(js)}
    out["attribute"] |= {m[2] for m in _JS_ATTR.finditer(js) if m[2].lower().startswith("data-")}
    for m in _JS_DATASET.finditer(js):
        key = m[1] or m[2]
        out["attribute"].add("data-" + re.sub(r"[A-Z]", lambda c: "-" + c[0].lower(), key))
    out["storage"] |= {m[2] for m in _JS_STORAGE.finditer(js) if "${" not in m[2]}
    return out


# ------------------------------------------------------------------ the lint

_SHOW = {"id": "#{}", "class": ".{}", "attribute": "[{}]", "tag": "{}",
         "storage": "storage key {!r}"}
_NAME_KEYS = ("name", "label", "placeholder", "text", "alt", "title")


def _chain(loc: Locator | None) -> Iterator[Locator]:
    while loc is not None:
        yield loc
        loc = loc.within


def _short(v: Any, n: int = 70) -> str:
    s = str(v)
    return repr(s if len(s) <= n else s[:n - 1] + "\u2026")


def _typed(step: CheckStep) -> list[str]:
    out = [step.params.get("value"), step.params.get("option")] if step.op in ("fill", "select") \
        else []
    return [str(v) for v in out if v is not None]


def lint_task(task: Task, prd: str, data: dict[str, str] | None = None, *,
              file: str | None = None, node: yaml.Node | None = None) -> list[Finding]:
    """Findings of one task's checks against its PRD (and query and mock data: {name: text})."""
    from asuka.bench import _line_of

    file = file or f"tasks/{task.id}/task.yaml"
    prd_name = f"prds/{task.id}.md"
    back = Backing(prd, task.query, data)
    out: list[Finding] = []
    for i, et in enumerate(task.eval_tasks):
        typed = Typed([v for c in et.criteria for s in c.check or [] for v in _typed(s)])
        for j, crit in enumerate(et.criteria):
            for k, step in enumerate(crit.check or []):
                line = _line_of(node, ("eval_tasks", i, "criteria", j, "check", k)) \
                    if node is not None else None

                def add(kind: str, via: str, subjects: list[str], reason: str,
                        severity: str = "warning") -> None:
                    out.append(Finding(task.id, crit.id, k, kind, via, tuple(subjects), reason,
                                       file, line, severity))

                for f in _markup(step, back, prd_name):
                    add(*f)
                for f in _wording(step, back, typed, prd_name):
                    add(*f)
    return out


def _markup(step: CheckStep, back: Backing, prd_name: str) -> Iterator[tuple]:
    sources: list[tuple[str, str, dict[str, set[str]]]] = []
    for loc in _chain(step.locator):
        if loc.css is not None:
            sources.append(("css", f"css {_short(loc.css)}", selector_names(loc.css)))
        if loc.testid is not None and not back.ident("testid", loc.testid):
            yield ("testid", "testid", [loc.testid],
                   f"testid {_short(loc.testid)}: a test id the PRD does not name ({prd_name})")
    if step.op == "eval" and isinstance(step.arg, str):
        sources.append(("eval", "eval", eval_names(step.arg)))
    if step.op == "expect_attr":
        attr, value = str(step.params.get("attr", "")), step.params.get("value")
        names = {"id": set(), "class": set(), "attribute": set(), "tag": set()}
        if attr.lower().startswith("data-"):
            names["attribute"].add(attr)
        if attr == "class" and isinstance(value, str):
            body = re.sub(r"\\[A-Za-z]", " ", value[1:].rpartition("/")[0]) \
                if is_regex(value) else value
            names["class"] |= set(re.findall(r"[A-Za-z_][\w-]*", body))
        if attr == "id" and isinstance(value, str) and not is_regex(value):
            names["id"].add(value)
        sources.append(("expect_attr", f"expect_attr {attr!r}", names))
    for via, what, names in sources:
        missing = {kind: sorted(n for n in names.get(kind, ()) if not back.ident(kind, n))
                   for kind in ("id", "class", "attribute", "storage")}
        subjects = [_SHOW[kind].format(n) for kind, ns in missing.items() for n in ns]
        if subjects:
            kind = next(k for k, ns in missing.items() if ns)
            yield (kind, via, subjects,
                   f"{what} reads {', '.join(subjects)}: not named in {prd_name} "
                   + ("(the reference app's storage layout)" if kind == "storage" else
                      "(reference-app markup; find it by what a user sees)"))
        tags = sorted(t for t in names["tag"] if not back.tag(t))
        if tags:
            yield ("structure", via, tags,
                   f"{what} assumes the element(s) {', '.join(tags)}, which {prd_name} does "
                   "not name (DOM structure)", "note")


def _wording(step: CheckStep, back: Backing, typed: Typed, prd_name: str) -> Iterator[tuple]:
    for loc in _chain(step.locator):
        for key in _NAME_KEYS:
            value = getattr(loc, key)
            if not isinstance(value, str):
                continue
            via = "role name" if key == "name" else key
            what = f"{loc.role} name" if key == "name" else key
            if key == "placeholder":
                missing = back.value(value, typed, placeholder=True)
                if missing:
                    elsewhere = not back.value(value, typed)
                    yield ("name", via, missing,
                           f"placeholder {_short(value)}: " +
                           (f"{prd_name} has these words, but not as a placeholder (an input "
                            "the PRD names by its label need not have one: find it by label)"
                            if elsewhere else f"wording not in {prd_name}"))
                continue
            missing = back.value(value, typed)
            if missing:
                yield ("name", via, missing,
                       f"{what} {_short(value)}: wording not in {prd_name}, the query or the data"
                       + (f" ({', '.join(map(_short, missing))})" if is_regex(value) else ""))
    if step.op == "select" and isinstance(step.params.get("option"), str):
        option = step.params["option"]
        missing = back.value(option, Typed([]))
        if missing:
            yield ("name", "option", missing,
                   f"option {_short(option)}: wording not in {prd_name}, the query or the data")
    if step.op == "expect_text" and isinstance(step.params.get("value"), str):
        value = step.params["value"]
        missing = back.value(value, typed)
        if missing:
            exact = step.params.get("contains") is False
            yield ("wording", "expect_text", missing,
                   f"expect_text {'exactly ' if exact else ''}{_short(value)}: wording not in "
                   f"{prd_name}, the query or the data"
                   + (f" ({', '.join(map(_short, missing))})" if is_regex(value) else ""))


def read_data(bt: BenchTask) -> dict[str, str]:
    """{path relative to the task: text} of the task's mock data: the files it hands to the code
    agent and everything else under data/ (files the checks upload)."""
    root = Path(bt.root)
    paths = [root / rel for rel in bt.task.data]
    if (root / "data").is_dir():
        paths += sorted(p for p in (root / "data").rglob("*") if p.is_file())
    out: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            if path.stat().st_size <= 4_000_000:
                out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    return out


def lint_bench_task(bt: BenchTask) -> list[Finding]:
    """lint_task for a loaded task, with its mock data and task.yaml line numbers."""
    path = Path(bt.root) / "task.yaml"
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"),
                            Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        node = None
    return lint_task(bt.task, bt.prd, read_data(bt), file=f"tasks/{bt.id}/task.yaml", node=node)


def lint_tasks(tasks: list[BenchTask]) -> list[Finding]:
    return [f for t in tasks for f in lint_bench_task(t)]


def counts(findings: list[Finding], severity: str = "warning") -> Counter[str]:
    """Findings of one severity per task."""
    return Counter(f.task for f in findings if f.severity == severity)


# ------------------------------------------------------------------ console text

HINT = "asuka validate --lint-markup"


def summary_line(findings: list[Finding]) -> str:
    """One line: the warnings per task (what `asuka validate` prints without --lint-markup)."""
    per_task = counts(findings)
    if not per_task:
        return "markup no check reads markup or wording the PRD does not give"
    tasks = ", ".join(f"{t} {n}" for t, n in sorted(per_task.items(), key=lambda x: (-x[1], x[0])))
    return (f"markup {sum(per_task.values())} finding(s) of checks reading markup or wording the "
            f"PRD does not give: {tasks}; list them with `{HINT}`")


def per_task_lines(findings: list[Finding]) -> list[str]:
    """A line per task with findings: warnings by what reads them, then the structure notes."""
    by_task: dict[str, list[Finding]] = {}
    for f in findings:
        by_task.setdefault(f.task, []).append(f)
    width = max((len(t) for t in by_task), default=0)
    lines = []
    for task, fs in sorted(by_task.items(), key=lambda x: (-len(x[1]), x[0])):
        warn = Counter(f.via for f in fs if f.severity == "warning")
        notes = sum(f.severity == "note" for f in fs)
        kinds = ", ".join(f"{via} {n}" for via, n in warn.most_common())
        lines.append(f"  {task:<{width}}  {sum(warn.values()):>4} warning(s)"
                     + (f" ({kinds})" if kinds else "")
                     + (f", {notes} structure note(s)" if notes else ""))
    return lines
