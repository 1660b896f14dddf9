"""Skip a pattern where it cannot match, told by the first characters of its matches.

A cue pattern is an alternation of hundreds of phrasings, and the regex engine tries every one of
them at every word start of the text it scans: most of the analyser's time went there. ``Prefiltered``
reads the pattern's syntax tree once and collects the strings of up to ``LENGTH`` characters that its
matches can start with (a shorter match: all of it). Where no word of the scanned range starts with one
of them, the pattern is not run: it would find nothing. Wherever one does, the pattern runs as before,
so every match is the same; the heads only ever hold more than the pattern can match, never less, and
a construct they cannot bound (a wildcard first, a back-reference, case folding) runs the pattern always.
"""

from __future__ import annotations

import re
import re._constants as sre  # the parser of the re module, as vocabulary.py reads patterns
import re._parser as sre_parse
import sys
from collections.abc import Iterator
from functools import lru_cache, reduce
from itertools import count
from operator import or_

LENGTH = 3  # characters per head: longer heads reject more ranges, but grow with every class they cross
_MAX_CLASS = 64  # a character class wider than this (\d, \w, [^x]) is a wildcard
_MAX_HEADS = 20_000  # at most this many heads are grown from one node's
_WILD = None  # a character the heads do not bound
# A match that opens with one of these checks starts where it holds: its heads are looked up only there.
# Kind 0 is a match that opens with none: its heads are looked up at every position.
_START_CHECKS = (r"(?<![\w-])", r"\b")  # the word-start check (langdata FRAGMENTS["b"]) and a word boundary
_KINDS = {repr(sre_parse.parse(check).data[0]): kind for kind, check in enumerate(_START_CHECKS, 1)}
_STARTS = (None, *(re.compile(check) for check in _START_CHECKS))
# what \s matches in a str pattern (str.isspace): every such character is below U+3001 (a test checks it)
_SPACES = frozenset(c for c in map(chr, range(0x3001)) if c.isspace())

# A head: (characters, open, kind). ``open``: the match may go on after these characters (fewer than
# LENGTH so far, none of them a wildcard); ``kind``: the check the match opens with (``_START_CHECKS``).
_Head = tuple[tuple[str | None, ...], bool, int]


class _Unbounded(Exception):
    """The pattern holds something the heads cannot bound: it runs everywhere."""


def _class(items: list) -> frozenset[str] | None:
    """The characters a class ([...], \\s) matches; None (a wildcard) when it is wider than ``_MAX_CLASS``."""
    chars: set[str] = set()
    for op, av in items:
        if op is sre.LITERAL:
            chars.add(chr(av))
        elif op is sre.RANGE and av[1] - av[0] < _MAX_CLASS:
            chars.update(chr(c) for c in range(av[0], av[1] + 1))
        elif op is sre.CATEGORY and av is sre.CATEGORY_SPACE:
            chars |= _SPACES
        else:  # a negation, \d, \w, a wide range
            return None
    return frozenset(chars) if len(chars) <= _MAX_CLASS else None


def _then(heads: set[_Head], more: set[_Head]) -> set[_Head]:
    """Every head of ``heads`` followed by every head of ``more``. Too many of them, and the open heads stay
    as they are, closed: what a match starts with also starts with any shorter head of it."""
    if sum(open_ for _, open_, _ in heads) * len(more) > _MAX_HEADS:
        return {(chars, False, start) for chars, _, start in heads}
    out = set()
    for chars, open_, start in heads:
        if not open_:
            out.add((chars, open_, start))
            continue
        for extra, extra_open, extra_start in more:
            joined = (chars + extra)[:LENGTH]
            # a head is closed once it is LENGTH long or its characters are no longer bounded; a word-start
            # check before any character is the match's own
            out.add((joined, extra_open and len(joined) < LENGTH and _WILD not in joined,
                     start or (0 if chars else extra_start)))
    return out


def _sequence(items) -> set[_Head]:
    heads: set[_Head] = {((), True, 0)}
    for op, av in items:
        heads = _then(heads, _node(op, av))
        if not any(open_ for _, open_, _ in heads):
            break
    return heads


def _node(op, av) -> set[_Head]:
    """The heads of one node of the syntax tree."""
    if op is sre.LITERAL:
        return {((chr(av),), True, 0)}
    if op in (sre.NOT_LITERAL, sre.ANY):
        return {((_WILD,), False, 0)}
    if op is sre.IN:
        chars = _class(av)
        return {((_WILD,), False, 0)} if chars is None else {((c,), True, 0) for c in chars}
    if op is sre.BRANCH:
        return set().union(*(_sequence(branch) for branch in av[1]))
    if op is sre.SUBPATTERN:
        _, add_flags, _, inner = av
        if add_flags & (re.IGNORECASE | re.VERBOSE):
            raise _Unbounded
        return _sequence(inner)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, inner = av
        once = _sequence(inner)
        copies: set[_Head] = {((), True, 0)}
        for _ in range(low):
            copies = _then(copies, once)
        found = set(copies)
        for _ in range(min(high, low + LENGTH) - low):  # LENGTH more copies fill every head
            copies = _then(copies, once)
            found |= copies
        return found
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):  # zero width: a check the heads need not make ...
        return {((), True, _KINDS.get(repr((op, av)), 0))}  # ... but where it holds, if the match opens with it
    raise _Unbounded  # a back-reference, a conditional group


def heads(pattern: re.Pattern[str]) -> dict[int, frozenset[str]] | None:
    """The strings of 1 .. LENGTH characters a match of ``pattern`` starts with, by the kind of check the
    match opens with (``_START_CHECKS``); None when they cannot be bounded."""
    if pattern.flags & (re.IGNORECASE | re.VERBOSE) or not isinstance(pattern.pattern, str):
        return None
    try:
        found = _sequence(sre_parse.parse(pattern.pattern, pattern.flags).data)
    except _Unbounded:
        return None
    by_kind: dict[int, set[str]] = {}
    for chars, _, kind in found:
        known = chars[:chars.index(_WILD)] if _WILD in chars else chars
        if not known:  # an empty match or a wildcard first: anything may match
            return None
        by_kind.setdefault(kind, set()).add("".join(known))
    return {kind: frozenset(strings) for kind, strings in by_kind.items()}


class Index:
    """The heads of many patterns, by kind: a head -> the bits of the patterns that may start with it. One
    look at a text tells, for every range of it, which of them may match there."""

    def __init__(self) -> None:
        self._heads: tuple[dict[str, int], ...] = tuple({} for _ in _STARTS)
        self._lengths: list[tuple[int, ...]] = [() for _ in _STARTS]  # the head lengths of each kind
        self._bits = count()
        # the texts of the readings in flight (a hint, its masked copy) and their ranges; a text read again later is
        # looked at again (see language.detect)
        self.at = lru_cache(maxsize=8)(self._at)
        self.possible = lru_cache(maxsize=512)(self._possible)

    def add(self, found: dict[int, frozenset[str]]) -> int:
        """Index a pattern's heads (``heads``); its bit."""
        bit = 1 << next(self._bits)
        for kind, strings in found.items():
            index = self._heads[kind]
            for string in strings:
                index[string] = index.get(string, 0) | bit
            self._lengths[kind] = tuple(sorted({*self._lengths[kind], *map(len, strings)}))
        self.at.cache_clear()  # the texts read so far did not know this pattern
        self.possible.cache_clear()
        return bit

    def _at(self, text: str) -> list[int]:
        """For each position of ``text``, the bits of the patterns with a head that starts there, where its
        check holds (a head that runs past the end of a range only makes the range one that may match)."""
        bits = [0] * (len(text) + 1)
        for kind, index in enumerate(self._heads):
            if not index:
                continue
            lengths = self._lengths[kind]
            get = index.get
            for p in range(len(text)) if kind == 0 else [m.start() for m in _STARTS[kind].finditer(text)]:
                for n in lengths:
                    bits[p] |= get(text[p:p + n], 0)
        return bits

    def _possible(self, text: str, start: int, end: int) -> int:
        """The bits of the patterns that may match in [start, end) of ``text`` (a range past its end holds
        no character: no pattern that needs one matches there)."""
        return reduce(or_, self.at(text)[max(start, 0):end], 0)


INDEX = Index()  # the analyser's patterns


class Prefiltered:
    """A compiled pattern that is not run over a range of text where no match of it can start: its
    ``finditer`` and ``search`` answer exactly as the pattern's own."""

    def __init__(self, compiled: re.Pattern[str], index: Index = INDEX) -> None:
        self.compiled = compiled
        self.pattern = compiled.pattern
        found = heads(compiled)
        if found is not None and any(len(string) == 1 for string in found.get(0, ())):
            found = None  # a letter at any position: looking it up everywhere costs more than the pattern
        self._index = index
        self._bit = 0 if found is None else index.add(found)

    def may_match(self, text: str, start: int = 0, end: int = sys.maxsize) -> bool:
        """False when no match can start in [start, end) of ``text`` (an empty range: the pattern decides)."""
        return not self._bit or start >= end or bool(self._index.possible(text, start, end) & self._bit)

    def finditer(self, text: str, start: int = 0, end: int = sys.maxsize) -> Iterator[re.Match[str]]:
        """``re.Pattern.finditer``, skipped where nothing can match."""
        if self._bit and start < end and not self._index.possible(text, start, end) & self._bit:
            return iter(())
        return self.compiled.finditer(text, start, end)

    def search(self, text: str, start: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.search``, skipped where nothing can match."""
        if self._bit and start < end and not self._index.possible(text, start, end) & self._bit:
            return None
        return self.compiled.search(text, start, end)

    def match(self, text: str, start: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.match`` (not filtered: one position is cheap)."""
        return self.compiled.match(text, start, end)

    def fullmatch(self, text: str, start: int = 0, end: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.fullmatch`` (not filtered)."""
        return self.compiled.fullmatch(text, start, end)
