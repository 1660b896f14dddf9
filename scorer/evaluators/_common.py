"""Helpers the evaluators share: domain matching and thresholds."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

AVOID = -2.0  # the paper's Eq. 4

# Region names users write for a geography, matched against the first token of cloud region names.
_GEOGRAPHIES = {
    "europe": ("eu", "europe"), "eu": ("eu", "europe"), "emea": ("eu", "europe", "me", "af"),
    "us": ("us",), "usa": ("us",), "america": ("us", "ca", "sa", "northamerica", "southamerica"),
    "north america": ("us", "ca", "northamerica"), "asia": ("ap", "asia"), "apac": ("ap", "asia", "australia"),
    "australia": ("ap", "australia"), "canada": ("ca",), "south america": ("sa", "southamerica"),
    "middle east": ("me",), "africa": ("af", "africa"),
}


class DomainMatcher:
    """Is a domain one of the listed ones? Case-insensitive; regions also match a geography or prefix."""

    def __init__(self, items: Iterable[str], level: str) -> None:
        self._exact = {item.casefold() for item in items}
        self._prefixes: tuple[str, ...] = ()
        if level == "region":
            prefixes = []
            for item in self._exact:
                prefixes.extend(p + "-" for p in _GEOGRAPHIES.get(item, ()))
                prefixes.append(item + "-")  # "us-east" matches "us-east-1"
            self._prefixes = tuple(prefixes)

    def __call__(self, domain: str) -> bool:
        folded = domain.casefold()
        return folded in self._exact or (bool(self._prefixes) and folded.startswith(self._prefixes))


def at_least(values: np.ndarray, wanted: float) -> np.ndarray:
    """1 where the value reaches ``wanted``, 0 below, NaN where unknown (the paper's "node ≥ requested")."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(values), np.nan, (values >= wanted).astype(np.float64))
