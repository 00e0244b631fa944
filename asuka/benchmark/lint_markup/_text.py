"""Text as the markup lint compares it: normalised (case, typographic marks, whitespace), plurals
stemmed, whether a value is wording at all (``wordy``), and how a finding quotes a value.
"""

from __future__ import annotations

import re
from typing import Any

_TRANS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ",
                        "\u2026": "..."})


def norm(text: str) -> str:
    """Lower case, typographic quotes and dashes made plain, whitespace collapsed."""
    return " ".join(text.translate(_TRANS).lower().split())


def prose(text: str) -> str:
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


def stem(text: str) -> str:
    """Plurals ignored: "days" ~ "day", "habit(s)" ~ "habit"."""
    return re.sub(r"(?<=[a-z]{2})(?:\(e?s\)|s\b)", "", text)


def short(v: Any, n: int = 70) -> str:
    s = str(v)
    return repr(s if len(s) <= n else s[:n - 1] + "\u2026")
