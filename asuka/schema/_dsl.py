"""The check DSL: locators and check steps, as read from a task's ``check:`` lists (executed by
``asuka.uiagents.scripted.steps``), and the base model every benchmark file is validated with."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- check DSL

LOCATOR_KEYS = ("role", "name", "label", "placeholder", "text", "css", "testid", "alt", "title")


class Locator(Strict):
    """How a check finds an element, preferring what a user sees.

    String values of the form ``/pattern/flags`` are regular expressions.
    Exactly one of role, label, placeholder, text, css, testid, alt, title is required; ``name``
    qualifies ``role``. ``within`` scopes the search inside another locator; ``nth`` picks one match.
    """

    role: str | None = None
    name: str | None = None
    label: str | None = None
    placeholder: str | None = None
    text: str | None = None
    css: str | None = None
    testid: str | None = None
    alt: str | None = None
    title: str | None = None
    exact: bool = False
    nth: int | None = None
    within: Locator | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Locator:
        kinds = [k for k in LOCATOR_KEYS if k != "name" and getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                "a locator needs exactly one of role/label/placeholder/text/css/testid/alt/title"
                f" (got {kinds or 'none'})"
            )
        if self.name is not None and self.role is None:
            raise ValueError("'name' is only allowed together with 'role'")
        return self

    def describe(self) -> str:
        parts = [f"{k}={getattr(self, k)!r}" for k in LOCATOR_KEYS if getattr(self, k) is not None]
        if self.nth is not None:
            parts.append(f"nth={self.nth}")
        desc = " ".join(parts)
        return f"{self.within.describe()} >> {desc}" if self.within else desc


# Step name -> argument keys besides the locator keys (None: the argument is a scalar).
STEP_ARGS: dict[str, tuple[str, ...] | None] = {
    "goto": None,            # path or URL
    "reload": None,          # any value (ignored)
    "wait": None,            # milliseconds
    "eval": None,            # JS expression or function body; must be truthy
    "click": (),
    "dblclick": (),
    "hover": (),
    "check": (),
    "uncheck": (),
    "fill": ("value",),
    "select": ("option",),
    "press": ("key",),       # locator optional: without one the key goes to the page
    "upload": ("files",),    # paths relative to the task's data dir
    # intents: what the criterion wants, carried out on the widget the app has
    # (asuka.uiagents.scripted.adapt): a field set to a value, an option chosen, an option on or off
    "set": ("value",),
    "choose": ("option",),
    "turn_on": (),
    "turn_off": (),
    # charts, read by pointing along them (asuka.uiagents.scripted.pointing): point at the part that
    # stands for a value; pointing along the chart shows so many different readings
    "point_at": ("at",),
    "expect_points": ("count",),
    "expect_visible": (),
    "expect_hidden": (),
    "expect_text": ("value", "contains"),
    "expect_value": ("value",),
    "expect_count": ("count", "min", "max"),
    "expect_attr": ("attr", "value"),
}
LOCATOR_OPTIONAL = {"press"}
# the arguments of an assertion that state an expected value
ASSERTION_PARAMS: dict[str, tuple[str, ...]] = {
    "expect_text": ("value",), "expect_value": ("value",),
    "expect_count": ("count", "min", "max"), "expect_attr": ("attr", "value"),
    "expect_points": ("count",),
}


class CheckStep(Strict):
    """One step of a scripted check, written in YAML as a one-key mapping, e.g.
    ``- click: {role: button, name: Save}`` or ``- goto: /``."""

    op: str
    arg: Any = None
    locator: Locator | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_yaml(cls, data: Any) -> Any:
        if isinstance(data, dict) and "op" in data:
            return data
        if not isinstance(data, dict) or len(data) != 1:
            raise ValueError(f"a check step is a mapping with exactly one step name, got {data!r}")
        (op, arg), = data.items()
        if op not in STEP_ARGS:
            raise ValueError(f"unknown check step {op!r}; known: {', '.join(STEP_ARGS)}")
        extra = STEP_ARGS[op]
        if extra is None:
            return {"op": op, "arg": arg}
        if not isinstance(arg, dict):
            raise ValueError(f"step {op!r} takes a mapping with a locator, got {arg!r}")
        unknown = set(arg) - set(LOCATOR_KEYS) - {"exact", "nth", "within"} - set(extra)
        if unknown:
            raise ValueError(f"step {op!r} does not take {sorted(unknown)}")
        loc = {k: v for k, v in arg.items() if k not in extra}
        params = {k: v for k, v in arg.items() if k in extra}
        if op == "expect_text" and "value" not in params:
            raise ValueError("expect_text needs 'value'")
        if op in ("fill", "set", "expect_value") and "value" not in params:
            raise ValueError(f"{op} needs 'value'")
        if op in ("select", "choose") and "option" not in params:
            raise ValueError(f"{op} needs 'option'")
        if op == "press" and "key" not in params:
            raise ValueError("press needs 'key'")
        if op == "expect_attr" and "attr" not in params:
            raise ValueError("expect_attr needs 'attr'")
        if op == "expect_count" and not ({"count", "min", "max"} & set(params)):
            raise ValueError("expect_count needs 'count', 'min' or 'max'")
        if op == "point_at" and "at" not in params:
            raise ValueError("point_at needs 'at' (what the part pointed at stands for)")
        if op == "expect_points" and "count" not in params:
            raise ValueError("expect_points needs 'count'")
        if op == "upload" and "files" not in params:
            raise ValueError("upload needs 'files'")
        if not loc and op not in LOCATOR_OPTIONAL:
            raise ValueError(f"step {op!r} needs a locator (role/label/placeholder/text/css/...)")
        return {"op": op, "locator": loc or None, "params": params}

    def describe(self) -> str:
        if self.locator is None:
            return f"{self.op} {self.arg!r}" if self.arg is not None else self.op
        extra = " ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.op} [{self.locator.describe()}]" + (f" {extra}" if extra else "")


def is_regex(value: str) -> bool:
    return isinstance(value, str) and len(value) >= 2 and value.startswith("/") and bool(
        re.fullmatch(r"/.*/[imsx]*", value, flags=re.S)
    )


def to_pattern(value: str) -> re.Pattern[str] | str:
    """'/abc/i' -> compiled regex; anything else is returned unchanged."""
    if not is_regex(value):
        return value
    body, _, flags = value[1:].rpartition("/")
    f = 0
    for ch in flags:
        f |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[ch]
    return re.compile(body, f)
