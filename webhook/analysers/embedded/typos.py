"""Typo tolerance for the words the rules key on: one slip (a dropped, doubled, swapped or wrong letter).

Hints are typed in a hurry ("avoi us-east-1b", "spraed accross zones", "evitr la zona"). Rather than
spell every slip into every pattern, each plain word of the hint that is one edit away from exactly
one keyword (and is not itself a known word) is rewritten to that keyword before any rule runs.
Names are never touched: only tokens made of letters alone, not joined to dashes, dots or digits.

Precision: short keywords allow fewer kinds of slips (a four-letter "void" must never become
"avoid"), a variant two keywords share is ambiguous and left alone, and common words that happen to
be one edit from a keyword are listed in ``_KNOWN``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

# The keywords the rules read (en, es, de), spelled as the rules expect them.
KEYWORDS = frozenset((
    # en
    "avoid", "avoided", "avoiding", "spread", "across", "distribute", "separate", "different", "replicas",
    "replica", "zones", "racks", "regions", "region", "nodes", "prefer", "preferred", "preferably", "ideally",
    "possible", "colocate", "together", "nearby", "least", "loaded", "utilised", "utilized", "memory", "storage",
    "scratch", "ephemeral", "network", "bandwidth", "latency", "exclude", "except", "should", "please", "machines",
    "different", "distinct", "available", "availability", "mandatory", "required", "critical", "essential",
    "absolutely", "outside", "without", "neighbouring", "neighboring", "between", "instead",
    # es
    "evitar", "evita", "repartir", "reparte", "distribuir", "distribuye", "réplicas", "zonas", "nodos", "regiones",
    "preferiblemente", "idealmente", "memoria", "almacenamiento", "cargados", "diferentes", "distintos",
    "distintas", "obligatorio", "imprescindible", "necesita", "excepto",
    # de
    "vermeiden", "vermeide", "verteilen", "verteile", "knoten", "zonen", "regionen", "bevorzugt", "vorzugsweise",
    "idealerweise", "arbeitsspeicher", "speicher", "möglichst", "möglich", "replikate", "verschiedene",
    "verschiedenen", "unbedingt", "zwingend", "erforderlich", "bitte", "nicht",
))
# Real words one slip away from a keyword: never "corrected".
_KNOWN = frozenset((
    "void", "avid", "voids", "lose", "close", "closer", "ever", "zone", "cone", "tones", "bones", "node", "notes",
    "modes", "codes", "rack", "packs", "backs", "lacks", "tracks", "region", "legions", "least", "lease", "leased",
    "feast", "beast", "yeast", "lest", "loaded", "leaded", "loader", "reloaded", "prefers", "proffer", "refer",
    "should", "shoulder", "could", "would", "please", "pleased", "lease", "storages", "stowage", "except",
    "expect", "accept", "excel", "across", "acres", "spreads", "spread", "spear", "nearby", "nearly", "zonal",
    "memo", "memos", "nodo", "nodal", "zona", "bitter", "bite", "bits", "nacht", "licht", "nicht", "dicht",
    "evite", "evitad", "evitan", "reparto", "memorias", "knote", "between", "betweens", "instead", "cargado",
    "cargadas", "noten", "zonas", "nodes", "speichern", "gespeichert", "verteilt", "möglichen", "mögliche",
    "replikat", "necesitan", "necesito", "obligatoria", "imprescindibles", "avoids", "excludes", "excluded",
    "separated", "separately", "distributed", "distributes", "regional", "nodal", "latent", "ideal", "idea",
    "ideals", "racked", "excepts", "distinctly", "preferable", "regiones", "critically", "essentially",
))
_LETTERS = "abcdefghijklmnopqrstuvwxyzáéíóúñäöüß"
_TOKEN = re.compile(r"(?<![\w.\-/])[a-záéíóúñäöüß]{4,}(?![\w\-/]|\.\w)")


def _variants(word: str) -> list[set[str]]:
    """Spellings one slip away from ``word``, likeliest slips first (swapped or doubled letters, then a
    dropped one, then a wrong or extra one); short words only allow the likeliest."""
    n = len(word)
    swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(n - 1)}
    swaps |= {word[:i] + word[i] + word[i:] for i in range(n)}
    drops: set[str] = set()
    if n >= 6:
        drops = {word[:i] + word[i + 1:] for i in range(n)}
    elif n >= 5:
        drops = {word[:-1]}  # "avoi", "evit": the last letter dropped
    others: set[str] = set()
    if n >= 7:
        for i in range(n):
            for c in _LETTERS:
                others.add(word[:i] + c + word[i + 1:])  # wrong letter
                others.add(word[:i] + c + word[i:])  # extra letter
    return [swaps - {word}, drops - {word}, others - {word}]


def _rule_words() -> set[str]:
    """Every word spelled out in the rule modules (patterns and comments): the rules know these already,
    so they are never "corrected" ("posible" is Spanish, not a slip of "possible")."""
    here = Path(__file__).parent
    words: set[str] = set()
    for name in ("lexicon.py", "concepts.py", "workloads.py", "slots.py", "rules.py", "statements.py"):
        path = here / name
        if path.exists():
            words.update(re.findall(r"[a-záéíóúñäöüß]{4,}", path.read_text(encoding="utf-8").lower()))
    return words


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    table: dict[str, str] = {}
    settled: set[str] = set()  # variants taken by a likelier slip of some keyword
    ambiguous: set[str] = set()
    variants = {keyword: _variants(keyword) for keyword in KEYWORDS}
    for rank in range(3):
        level: dict[str, str] = {}
        for keyword in sorted(KEYWORDS):
            for variant in variants[keyword][rank]:
                if variant in settled:
                    continue
                if variant in level and level[variant] != keyword:
                    ambiguous.add(variant)
                level[variant] = keyword
        table.update(level)
        settled |= level.keys()
    for word in ambiguous | KEYWORDS | _KNOWN | _rule_words():
        table.pop(word, None)
    # a plural or singular of a keyword is a word of its own, not a slip ("machine", "distinto")
    return {v: k for v, k in table.items() if len(v) >= 4 and v.rstrip("s") != k.rstrip("s")
            and not (k.startswith(v) and len(v) >= len(k) - 1 and k[-1] in "sn" and len(k) > 5)}


def correct(text: str) -> str:
    """``text`` (lower-cased) with single-slip misspellings of keywords replaced by the keywords."""
    table = _table()
    text = _ISH.sub(r"\1", text)  # "rack-ish", "zone-ish": the word with a shrug
    return _TOKEN.sub(lambda m: table.get(m.group(0), m.group(0)), text)


_ISH = re.compile(r"(?<![\w-])([a-z]{3,})-ish(?![\w-])")
