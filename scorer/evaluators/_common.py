"""Helpers the evaluators share: topology domains, name matching, thresholds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter

from scorer.facts import NodeFacts

AVOID = -2.0  # the paper's Eq. 4

_GETTERS: dict[str, Callable[[NodeFacts], str | None]] = {
    "node": attrgetter("name"),
    "rack": attrgetter("rack"),
    "zone": attrgetter("zone"),
    "region": attrgetter("region"),
}


def domain_getter(level: str) -> Callable[[NodeFacts], str | None]:
    """node -> its domain at ``level`` (node name, rack, zone or region; None when unlabelled)."""
    return _GETTERS[level]


def domains(nodes: Sequence[NodeFacts], level: str) -> list[str | None]:
    """Each node's domain at ``level``; an unknown node has no rack/zone/region."""
    get = _GETTERS[level]
    return [get(n) if n.known or level == "node" else None for n in nodes]


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

    def __call__(self, domain: str | None) -> bool | None:
        if domain is None:
            return None
        folded = domain.casefold()
        return folded in self._exact or (bool(self._prefixes) and folded.startswith(self._prefixes))


def at_least(values: Sequence[float | None], wanted: float) -> list[float | None]:
    """1 where the value reaches ``wanted``, 0 below, None where unknown (the paper's "node ≥ requested")."""
    return [None if v is None else (1.0 if v >= wanted else 0.0) for v in values]


def flags(values: Sequence[bool | None], when_true: float = 1.0) -> list[float | None]:
    return [None if v is None else (when_true if v else 0.0) for v in values]


def mask_unknown(nodes: Sequence[NodeFacts], phi: list[float | None]) -> list[float | None]:
    """Force None on nodes the cache does not know (their zero defaults are not facts)."""
    return [None if not n.known else p for n, p in zip(nodes, phi, strict=True)]
