"""The deterministic rungs of the resolution ladder: relaxed locators and relaxed wording.

A check names things the way its reference app does ("link Orders", "Roast: Light"); an app
nobody here wrote says the same thing its own way ("Work orders" as a button, "Light roast").
Before any model is asked, a locator that matched nothing is looked up again in what the page
offers, and an observed text that missed the expected words is compared again by meaning-free
normalisation. Both are conservative, because a broken app must still fail:

- **Relaxed locators** (``relax_locator``): candidates are the page's accessibility tree
  (``aria_snapshot``), restricted to the locator's *role family* (link / button / menuitem /
  tab; textbox / searchbox / spinbutton / combobox; checkbox / switch; …; a label, placeholder
  or title locator looks among form controls and named elements). Names are compared as word
  sets after normalisation (case, accents, punctuation, "+", icons, plural "s", a count badge
  such as "(3)" on a name without digits). A candidate holding every word of the wanted name
  scores by how few words it adds; one sharing half of them (and a word that is not a stop word)
  scores lower; a presence assertion accepts only the first kind. Only a unique best candidate
  above the threshold is taken: a tie, or nothing close, stays a miss. A named container the
  page has exactly one of, unnamed (a table, a form, a list), is taken for a missing scope.
- **Relaxed wording** (``same_words``): the expected text holds when the observed text says the
  same words in another form or order within a short window ("Light roast" for "Roast: Light",
  "250g" for "250 g", "Basket 0" for "Basket (0)"), while every number stays exact after
  normalising thousands separators and currency symbols, and numbers keep their order; a label
  and its number must not be split by another number, and a label the page shows with another
  number ("Total $14.48") is not matched by its words found elsewhere.

Nothing here acts on the page except reading it; ``asuka.uiagents.scripted.ladder`` decides when a rung
runs and records what it took (``Verdict.groundings`` entries of kind ``relaxed``).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from asuka.schema import Locator, is_regex

# roles that do the same job for a user: a link that acts as a button still gets the job done
ROLE_FAMILIES: tuple[frozenset[str], ...] = (
    frozenset({"link", "button", "menuitem", "tab", "option", "treeitem"}),
    frozenset({"textbox", "searchbox", "spinbutton", "combobox", "slider"}),
    frozenset({"checkbox", "switch", "menuitemcheckbox"}),
    frozenset({"radio", "menuitemradio", "tab", "option"}),
    frozenset({"table", "grid", "treegrid"}),
    frozenset({"row"}),
    frozenset({"cell", "gridcell", "columnheader", "rowheader"}),
    frozenset({"list", "listbox", "feed"}),
    frozenset({"listitem", "article", "option"}),
    # a dialog is its own thing: a card or a region standing for it would pass a check of a
    # panel that never opens
    frozenset({"dialog", "alertdialog"}),
    frozenset({"region", "form", "group", "complementary", "article", "section", "main",
               "tabpanel"}),
    frozenset({"heading"}),
    frozenset({"img", "figure", "image"}),
    frozenset({"status", "alert", "log", "note"}),
)
# a label / placeholder / title / alt locator names one of these
LABELLED_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "slider",
                            "checkbox", "switch", "radio", "listbox", "radiogroup", "group"})
TITLED_ROLES = LABELLED_ROLES | ROLE_FAMILIES[0] | frozenset({"img", "image", "figure"})
# containers a page usually has one of, whose missing name may be taken as "that one"
CONTAINERS = frozenset({"table", "grid", "treegrid", "form", "dialog"})
STOP_WORDS = frozenset({"a", "an", "the", "of", "to", "for", "and", "or", "in", "on", "by",
                        "with", "your", "my", "our", "this", "that", "is", "are", "at", "from",
                        "all", "per"})
CONTAIN_MIN = 0.55   # a candidate holding every wanted word, minus 0.1 per extra word
OVERLAP_MIN = 0.5    # share of wanted words for a partial match
MARGIN = 0.05        # the best must beat the runner-up by this
CURRENCY = "$€£¥₹₩₽¢"


# ---------------------------------------------------------------- words


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.casefold()


def _number(tok: str) -> str:
    """A number as digits: thousands separators dropped, a decimal point kept."""
    tok = tok.replace("\u202f", "").replace("\u00a0", "")
    if re.fullmatch(r"\d{1,3}(?:[,' ]\d{3})+(?:\.\d+)?", tok):
        tok = re.sub(r"[,' ]", "", tok)
    return tok


_TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|%|[^\W\d_]+")


def tokens(text: str) -> list[str]:
    """Normalised words and numbers of ``text`` ("Roast: Light" -> [roast, light],
    "$1,798.65" -> [1798.65], "250g" -> [250, g], "12.5 %" -> [12.5%])."""
    folded = _fold(text)
    for ch in CURRENCY:
        folded = folded.replace(ch, " ")
    out: list[str] = []
    for t in _TOKEN.findall(folded):
        if t == "%" and out and out[-1][0].isdigit() and not out[-1].endswith("%"):
            out[-1] += "%"  # a share is another quantity than an amount: "10%" is not "$10"
            continue
        out.append(_number(t) if t[0].isdigit() else t)
    return out


_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
           "sep": 9, "oct": 10, "nov": 11, "dec": 12}
_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE = re.compile(
    r"(?<![\d-])(?P<iso>(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2}))(?![\d-])"
    r"|(?<!\d)(?P<dd>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH.replace("(", "(?P<dm>", 1)
    + r"(?:,?\s+(?P<dy>\d{4}))?(?!\w)"
    r"|(?<!\w)" + _MONTH.replace("(", "(?P<mm>", 1)
    + r"\s+(?P<md>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:,?\s+(?P<my>\d{4}))?(?!\w)")


def _dates(folded: str) -> list[tuple[int, int, str]]:
    """(start, end, yyyy-mm-dd) of each date in ``folded`` ("2026-11-20", "20 Nov 2026",
    "Nov 20, 2026"); a date shown without its year takes the year of the next full date within
    a few words (a range, "20 Nov – 30 Nov 2026"), else 0000."""
    found = []
    for m in _DATE.finditer(folded):
        if m.group("iso"):
            y, mo, d = int(m.group("iy")), int(m.group("im")), int(m.group("id"))
        else:
            month = m.group("dm") or m.group("mm")
            y = int(m.group("dy") or m.group("my") or 0)
            mo, d = _MONTHS[month[:3]], int(m.group("dd") or m.group("md"))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            found.append([m.start(), m.end(), y, mo, d])
    for i, f in enumerate(found):
        if f[2] == 0 and i + 1 < len(found) and found[i + 1][2] \
                and found[i + 1][0] - f[1] <= 12:
            f[2] = found[i + 1][2]
    return [(a, b, f"{y:04d}-{mo:02d}-{d:02d}") for a, b, y, mo, d in found]


_WEEKDAYS = {full: full[:3] for full in ("monday", "tuesday", "wednesday", "thursday", "friday",
                                         "saturday", "sunday")} | {"tues": "tue", "thurs": "thu",
                                                                  "weds": "wed"}


_TIME = re.compile(r"(?<![\d:.])(\d{1,2})(?:([:.h])(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?![\d:]|\.\d)")


def times(text: str) -> list[str]:
    """Each clock time of ``text`` as 24-hour "hh:mm" ("19:30", "7:30 pm", "7pm", "19h30"); a
    bare number, or one with a decimal point and no am/pm, is no time."""
    out = []
    for m in _TIME.finditer(_fold(text)):
        hour, minute, half = int(m.group(1)), m.group(3), (m.group(4) or "").replace(".", "")
        if minute is None and not half or m.group(2) == "." and not half:
            continue  # "12.50" is an amount, "7.30 pm" a time
        if half:
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if half == "pm" else 0)
        if hour < 24 and int(minute or 0) < 60:
            out.append(f"{hour:02d}:{int(minute or 0):02d}")
    return out


def dated(text: str) -> tuple[str, str, list[str]] | None:
    """(month-day, time, other words) of a name that states one date and one clock time and
    little else ("Mon 7 Dec 19:30" -> ("12-07", "19:30", [])), else None."""
    folded = _fold(text)
    found = _dates(folded)
    clock = times(re.sub(_DATE, " ", folded))
    if len(found) != 1 or len(clock) != 1:
        return None
    start, end, iso = found[0]
    rest = [t for t in tokens(folded[:start] + " " + folded[end:])
            if t not in _WEEKDAYS and t not in _WEEKDAYS.values() and not _is_number(t)
            and t not in ("am", "pm", "h")]
    return iso[5:], clock[0], rest


def day_of(text: str) -> set[str]:
    """The month-days ("12-07") ``text`` names."""
    return {iso[5:] for _, _, iso in _dates(_fold(text))}


def _value(tok: str) -> str:
    """A number by its value: "10.00" and "10" are the same amount, "2.50" and "2.5"."""
    if _is_number(tok) and "." in tok and "-" not in tok:
        share = tok.endswith("%")
        tok = tok.rstrip("%").rstrip("0").rstrip(".") + ("%" if share else "")
    return tok


# words apps use for one and the same thing: a billing period called Annual or Yearly
SYNONYMS = {"yearly": "annual", "annually": "annual"}


def values(text: str) -> list[str]:
    """``tokens`` as values, for comparing what a text states: each date one token
    (yyyy-mm-dd, whatever its format), each number by its value."""
    folded = _fold(text)
    out: list[str] = []
    last = 0
    for start, end, iso in _dates(folded):
        out += tokens(folded[last:start])
        out.append(iso)
        last = end
    out += tokens(folded[last:])
    return [_WEEKDAYS.get(t, SYNONYMS.get(t, _value(t))) for t in out]


def _stem(tok: str) -> str:
    if tok[0].isdigit():
        return tok
    tok = SYNONYMS.get(tok, tok)
    if len(tok) > 4 and tok.endswith("ies"):
        return tok[:-3] + "y"
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss"):
        return tok[:-1]
    return tok


def words(text: str) -> list[str]:
    """Stemmed tokens, for comparing names."""
    return [_stem(t) for t in tokens(text)]


def _is_number(tok: str) -> bool:
    return tok[0].isdigit()


_GAPS = re.compile(r"\\s[*+?]|\\s\{\d*,?\d*\}|\[\\s\\S\](?:\*|\{\d*,?\d*\})|\.(?:\*|\{\d*,?\d*\})|"
                   r"\\W[*+?]|\\s|\\b")


def regex_literal(value: str) -> str | None:
    """The words a *simple* regex expects (literal words and numbers separated by gaps such as
    ``\\s*``, ``[\\s\\S]{0,12}``, ``.*``, escaped punctuation), or None for a real pattern
    (alternatives, classes, quantified groups): those stay exact."""
    if not is_regex(value):
        return None
    body = value[1:].rpartition("/")[0]
    if body.startswith("^") or body.endswith("$") and not body.endswith("\\$"):
        return None  # anchored: where the words stand is part of what is expected
    body = _GAPS.sub(" ", body)
    escaped: list[str] = []

    def keep(m: re.Match[str]) -> str:
        escaped.append(m.group(1))
        return f"\x00{len(escaped) - 1}\x00"

    body = re.sub(r"\\([^A-Za-z0-9])", keep, body)
    if re.search(r"[\\\[\](){}|?*+^$]", body):
        return None
    return re.sub(r"\x00(\d+)\x00", lambda m: escaped[int(m.group(1))], body)


def name_words(spec_value: str) -> list[list[str]]:
    """The wanted words of a locator's name or text: one list per alternative of a regex
    (``/save|submit/i`` -> [[save], [submit]]), regex syntax dropped."""
    if not is_regex(spec_value):
        return [words(spec_value)]
    body = spec_value[1:].rpartition("/")[0]
    body = re.sub(r"\\[dDsSwWbB]|\\.|\[[^\]]*\]|\{\d*,?\d*\}|[\^$*+?()]", " ", body)
    alts = [words(a) for a in body.split("|")]
    return [a for a in alts if a]


# ---------------------------------------------------------------- wording


_SIGNED_NUMBER = re.compile(r"(?:(?<![\w.,])([+\-\u2212])\s?[" + CURRENCY + r"]?\s?)?"
                            r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)")


def _signed(text: str) -> list[tuple[str, str]]:
    """(sign, number) of each number of ``text``: "+", "-" or "" for none ("-16.3 °C",
    "−$0.86", "+4.2 %"); a hyphen after a digit or letter is no sign ("2026-11-20", "B-7")."""
    return [("-" if sign == "\u2212" else sign, _number(num).replace(",", ""))
            for sign, num in _SIGNED_NUMBER.findall(text)]


def sign_flipped(expected: str, observed: str) -> bool:
    """A number ``expected`` states with a sign ("+16.3 °C") that ``observed`` shows only with
    the other sign ("-16.3 °C"): the same digits, the opposite value. An unsigned number on
    either side decides nothing (a discount may be shown as "$0.86" or "−$0.86")."""
    shown: dict[str, set[str]] = {}
    for sign, num in _signed(observed):
        shown.setdefault(num, set()).add(sign)
    for sign, num in _signed(expected):
        if sign and num in shown and shown[num] == {"-" if sign == "+" else "+"}:
            return True
    return False


def same_words(expected: str, observed: str, *, contains: bool = True) -> bool:
    """Does ``observed`` say ``expected`` in another form? Words in any order within a window
    of the expected length plus two (the whole text when not ``contains``), every number and
    date exact in value ("$10" is "$10.00", "20 Nov 2026" is "2026-11-20") and in the same
    order, and a signed number never with the opposite sign."""
    want = values(expected)
    have = values(observed)
    if not want or sign_flipped(expected, observed):
        return False
    if not contains:
        return sorted(want) == sorted(have) and _numbers(want) == _numbers(have)
    if _contradicted(want, have):
        return False
    width = min(len(have), len(want) + 2)
    for start in range(0, max(1, len(have) - width + 1)):
        window = have[start:start + width]
        if _holds(want, window) and not _crosses_a_number(want, window):
            return True
    return False


def _contradicted(want: list[str], have: list[str]) -> bool:
    """The page states a wanted label with another number right after it, and never with the
    wanted one ("Total $14.48" when "Total $9.49" is expected): the wanted words found
    elsewhere ("Subtotal $9.49 Shipping $4.99 Total") are not that label's value."""
    for label, value in zip(want, want[1:]):
        if _is_number(label) or not _is_number(value):
            continue
        after = [b for a, b in zip(have, have[1:]) if a == label and _is_number(b)]
        if after and not any(_same(value, b) for b in after):
            return True
    return False


def _crosses_a_number(want: list[str], window: list[str]) -> bool:
    """A wanted label and the number it states ("Total $9.49") stand in ``window`` only with
    another number between them: they belong to two statements ("$9.49 Shipping $4.99
    Total"). A unit after its number ("3 of 12 posts") is not a label."""
    for label, value in zip(want, want[1:]):
        if _is_number(label) or not _is_number(value):
            continue
        at = [i for i, t in enumerate(window) if t == label]
        of = [i for i, t in enumerate(window) if _same(value, t)]
        if at and of and all(any(_is_number(t) and not _same(value, t)
                                 for t in window[min(a, b) + 1:max(a, b)])
                             for a in at for b in of):
            return True
    return False


def numbers_shown(expected: str, observed: str) -> bool:
    """Every number of ``expected`` (a literal or a simple regex) is in ``observed``, in the
    same order, exactly (after normalising separators and currency): then only the words
    around them are in question, which a wording judge may decide."""
    literal = regex_literal(expected) if is_regex(expected) else expected
    if literal is None:
        return False
    want = _numbers(values(literal))
    have = [t for t in values(observed) if _is_number(t)]
    return bool(want) and _subsequence(want, have)


def _numbers(toks: list[str]) -> list[str]:
    return [t for t in toks if _is_number(t)]


def _same(want: str, have: str) -> bool:
    """Token equality, where a date the page shows without its year ("Tue 17 Mar") is the
    dated one expected ("Tue 17 Mar 2026"): the day and month are what it states."""
    return want == have or (have.startswith("0000-") and len(want) == 10
                            and want[4] == "-" and want[4:] == have[4:])


def _holds(want: list[str], window: list[str]) -> bool:
    pool = list(window)
    for t in want:
        hit = next((h for h in pool if _same(t, h)), None)
        if hit is None:
            return False
        pool.remove(hit)
    # the window's numbers, restricted to those wanted, come in the wanted order
    nums = [t for t in window if _is_number(t) and any(_same(w, t) for w in want)]
    return _subsequence(_numbers(want), nums)


def _subsequence(small: list[str], big: list[str]) -> bool:
    it = iter(big)
    return all(any(_same(x, y) for y in it) for x in small)


LABEL_REACH = 3  # words from a value back to the label word before it ("Skip next delivery (Tue")


def labelled_value(expected: str, observed: str) -> bool:
    """Does ``observed`` show the value of ``expected`` ("Parts cost: $2.40") under a label of
    its own that shares a word with the expected label ("Parts $2.40", "Skip next delivery (Tue
    17 Mar)")? Only for a value that states a number or a date, which must be exact; the
    label's other words are how the reference app happened to say it."""
    label, sep, value = expected.partition(":")
    if not sep:
        return False
    want = values(value)
    label_words = {_stem(t) for t in values(label) if t not in STOP_WORDS and not _is_number(t)}
    if not want or not label_words or not _numbers(want) or sign_flipped(value, observed):
        return False
    have = values(observed)
    width = len(want) + 1
    for start in range(len(have)):
        if not _same(want[0], have[start]) or not _holds(want, have[start:start + width]):
            continue
        # the label is the words just before the value, never across another value ("Upcoming
        # deliveries: Tue 17 Mar, Tue 31 Mar" labels only the first date)
        shown: set[str] = set()
        for t in reversed(have[max(0, start - LABEL_REACH):start]):
            if _is_number(t):
                break
            if t not in STOP_WORDS:
                shown.add(_stem(t))
        # a label of its own that shares a word but lacks one of the expected label's, adds
        # one of its own, and the page shows the missing word elsewhere is another quantity:
        # "Holiday hours 0.00" beside "Overtime hours 2.50" is not "Overtime hours: 0.00"
        # ("Monthly payment" on a page that never says "due" still is "Payment due")
        missing = label_words - shown
        elsewhere = missing & {_stem(t) for t in have}
        if shown & label_words and not (missing and shown - label_words and elsewhere):
            return True
    return False


# ---------------------------------------------------------------- the accessibility tree


@dataclass(frozen=True)
class Node:
    role: str
    name: str
    depth: int


_LINE = re.compile(r'^(\s*)- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?')


def parse_snapshot(snapshot: str) -> list[Node]:
    """(role, name) of every element line of a Playwright ``aria_snapshot``."""
    out: list[Node] = []
    for line in snapshot.splitlines():
        m = _LINE.match(line)
        if not m or m.group(2) in ("text", "paragraph") and m.group(3) is None:
            continue
        name = (m.group(3) or "").replace('\\"', '"').replace("\\\\", "\\")
        out.append(Node(m.group(2), name, len(m.group(1)) // 2))
    return out


def family(role: str) -> frozenset[str]:
    out = {role}
    for fam in ROLE_FAMILIES:
        if role in fam:
            out |= fam
    return frozenset(out)


def score(want: list[str], have: list[str], *, presence: bool) -> float:
    """How well a candidate's name words ``have`` stand for the wanted words ``want``."""
    if not want:
        return 0.0
    w = set(want)
    h = set(have)
    if not any(_is_number(t) for t in want):
        h = {t for t in h if not _is_number(t)}  # a count badge: "Basket (3)"
    if not h:
        return 0.0
    if w <= h:
        return max(CONTAIN_MIN, 1.0 - 0.1 * len(h - w))
    if presence:
        return 0.0
    shared = w & h
    if not shared - STOP_WORDS or any(_is_number(t) for t in w - h):
        return 0.0
    share = len(shared) / len(w)
    return 0.5 * share if share >= OVERLAP_MIN else 0.0


@dataclass(frozen=True)
class Relaxed:
    locator: Locator
    note: str


def best(candidates: list[Node], alternatives: list[list[str]], roles: frozenset[str],
         preferred: str | None, *, presence: bool) -> Node | None:
    """The unique best candidate among ``roles``; None when nothing is close or two differently
    named candidates tie."""
    scored: dict[tuple[str, str], float] = {}
    for node in candidates:
        if node.role not in roles or not node.name.strip():
            continue
        have = words(node.name)
        s = max((score(alt, have, presence=presence) for alt in alternatives), default=0.0)
        if s <= 0:
            continue
        if node.role == preferred:
            s += 0.01
        key = (node.role, node.name)
        scored[key] = max(scored.get(key, 0.0), s)
    if not scored:
        return None
    ranked = sorted(scored.items(), key=lambda kv: -kv[1])
    top = ranked[0]
    rivals = [kv for kv in ranked[1:] if words(kv[0][1]) != words(top[0][1])]
    if rivals and rivals[0][1] > top[1] - MARGIN:
        return None
    return Node(top[0][0], top[0][1], 0)


def relax_locator(spec: Locator, snapshot: str, *, presence: bool) -> Relaxed | None:
    """A locator for what the page calls the element ``spec`` names, or None.

    ``presence``: the step asserts the element exists (only whole-name matches count)."""
    nodes = parse_snapshot(snapshot)
    if spec.css is not None or spec.testid is not None:
        return None
    if spec.role is not None:
        if spec.name is None:
            return None
        alts = name_words(spec.name)
        roles = family(spec.role)
        preferred = spec.role
    elif spec.label is not None or spec.placeholder is not None:
        alts = name_words(spec.label if spec.label is not None else spec.placeholder or "")
        roles, preferred = LABELLED_ROLES, None
    elif spec.title is not None or spec.alt is not None:
        alts = name_words(spec.title if spec.title is not None else spec.alt or "")
        roles, preferred = TITLED_ROLES, None
    else:
        return None
    wanted = spec.name if spec.role is not None else spec.label or spec.placeholder
    if spec.exact and wanted and not is_regex(wanted):
        # an exact name's own form counts: the same words written otherwise are another value
        # ("full_name" is not "Full Name" after a header fix; "Coupon Desk" is "Coupon desk");
        # other words may still stand for it ("Work orders" for "Orders"), decoration differ
        whole, same = " ".join(wanted.split()).casefold(), words(wanted)
        nodes = [n for n in nodes
                 if words(n.name) != same or whole in " ".join(n.name.split()).casefold()]
    hit = best(nodes, alts, roles, preferred, presence=presence)
    if hit is None:
        return None
    loc = Locator(role=hit.role, name=hit.name, exact=True, nth=spec.nth)
    return Relaxed(loc, f"{hit.role} \"{hit.name}\"")


def lone_container(spec: Locator, snapshot: str) -> Relaxed | None:
    """A named container (table, form, list, …) the page has exactly one of, unnamed."""
    if spec.role is None or spec.role not in CONTAINERS:
        return None
    roles = family(spec.role) & CONTAINERS
    nodes = [n for n in parse_snapshot(snapshot) if n.role in roles]
    if len(nodes) != 1 or nodes[0].name.strip():
        return None
    return Relaxed(Locator(role=nodes[0].role), f"the page's only {nodes[0].role}")


def text_pattern(value: str, anchored: bool = False) -> str | None:
    """A case-insensitive regex (DSL form) matching ``value``'s words in another form or order:
    punctuation and spacing between words free, numbers exact up to separators. ``anchored``:
    the element's whole text (for an exact locator or a presence check, where a longer text
    that merely contains the word is something else: "Gather" is not "Gatherings")."""
    if is_regex(value):
        return None
    toks = tokens(value)
    if not toks or len(toks) > 6:
        return None

    def piece(t: str) -> str:
        if _is_number(t):
            whole, _, frac = t.partition(".")
            digits = re.sub(r"(\d)(?=(\d{3})+$)", r"\1[,' \\u202f\\u00a0]?", whole)
            return r"(?<![\d.])" + digits + (r"\." + frac if frac else "") + r"(?![\d])"
        return re.escape(t)

    gap = r"[^\w%]{0,3}"
    orders = ([toks] if len(toks) > 3 or _numbers(toks) else
              [list(p) for p in itertools.permutations(toks)])
    alts = ["(?:" + gap.join(piece(t) for t in order) + ")" for order in orders]
    body = "|".join(dict.fromkeys(alts))
    if anchored:
        body = r"^[^\w%]*(?:" + body + r")[^\w%]*$"
    return "/" + body + "/i"
