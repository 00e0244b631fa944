"""Prices in US$ per million tokens, for the cost column of Usage.

THE ENTRIES BELOW ARE ILLUSTRATIVE EXAMPLES, not a maintained price list: check your provider's
current prices and edit them, add your models, or put a table in a YAML file named by the
environment variable ASUKA_PRICES (same shape: model -> {input, cached_input, output}), or set
``ModelSpec.price``. A model that is not in the table gets ``cost_usd = None``.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

PRICES: dict[str, dict[str, float]] = {
    # EXAMPLES — edit to match your provider's price list.
    "gpt-4o-mini": {"input": 0.15, "cached_input": 0.075, "output": 0.60},
    "gpt-4o": {"input": 2.50, "cached_input": 1.25, "output": 10.00},
    "claude-3-5-haiku": {"input": 0.80, "cached_input": 0.08, "output": 4.00},
}


def price_table() -> dict[str, dict[str, float]]:
    table = dict(PRICES)
    path = os.environ.get("ASUKA_PRICES")
    if path and Path(path).is_file():
        table.update(yaml.safe_load(Path(path).read_text()) or {})
    return table


def lookup(model: str, table: dict[str, dict[str, float]] | None = None
           ) -> dict[str, float] | None:
    """Exact name first, else the longest table key the model name starts with
    (``gpt-4o-mini-2024-07-18`` -> ``gpt-4o-mini``)."""
    table = price_table() if table is None else table
    if model in table:
        return table[model]
    keys = [k for k in table if model.startswith(k)]
    return table[max(keys, key=len)] if keys else None


def cost_usd(price: dict[str, float] | None, input_tokens: int, output_tokens: int,
             cached_tokens: int = 0) -> float | None:
    """``input_tokens`` includes the cached ones, which are billed at ``cached_input``."""
    if not price:
        return None
    cached_rate = price.get("cached_input", price.get("input", 0.0))
    fresh = max(input_tokens - cached_tokens, 0)
    return (fresh * price.get("input", 0.0) + cached_tokens * cached_rate
            + output_tokens * price.get("output", 0.0)) / 1_000_000
