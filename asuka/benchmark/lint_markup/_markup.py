"""Markup findings: the ids, classes, ``data-*`` attributes, test ids and storage keys a step reads
(``css`` and ``testid`` locators, ``within`` included; JS ``eval``; ``expect_attr``) that the PRD
does not name, and the element selectors that assume a DOM shape (structure notes).
"""

from __future__ import annotations

import re
from typing import Iterator

from asuka.benchmark.lint_markup._backing import Backing
from asuka.benchmark.lint_markup._text import short
from asuka.schema import CheckStep, Locator, is_regex

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

    def clean(s: str) -> str:  # template-literal substitutions dropped
        return re.sub(r"\$\{[^}]*\}", "", s)

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


_SHOW = {"id": "#{}", "class": ".{}", "attribute": "[{}]", "tag": "{}",
         "storage": "storage key {!r}"}


def chain(loc: Locator | None) -> Iterator[Locator]:
    """A step's locator and the ones it searches ``within`` (the wording lint reads them too)."""
    while loc is not None:
        yield loc
        loc = loc.within


# what a step's findings are yielded as: (kind, via, subjects, reason[, severity])
RawFinding = tuple[str, str, list[str], str] | tuple[str, str, list[str], str, str]


def markup_findings(step: CheckStep, back: Backing, prd_name: str) -> Iterator[RawFinding]:
    """(kind, via, subjects, reason[, severity]) of each unbacked markup read of a step."""
    sources: list[tuple[str, str, dict[str, set[str]]]] = []
    for loc in chain(step.locator):
        if loc.css is not None:
            sources.append(("css", f"css {short(loc.css)}", selector_names(loc.css)))
        if loc.testid is not None and not back.ident("testid", loc.testid):
            yield ("testid", "testid", [loc.testid],
                   f"testid {short(loc.testid)}: a test id the PRD does not name ({prd_name})")
    if step.op == "eval" and isinstance(step.arg, str):
        sources.append(("eval", "eval", eval_names(step.arg)))
    if step.op == "expect_attr":
        attr, value = str(step.params.get("attr", "")), step.params.get("value")
        names: dict[str, set[str]] = {"id": set(), "class": set(), "attribute": set(),
                                      "tag": set()}
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
