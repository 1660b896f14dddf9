"""The words the rules match, read from their patterns as data (never from source text).

The typo tolerance needs to know which words the rules key on. Reading the rule modules' source
let a comment change what a hint means; here the words come from the compiled patterns (and the
word tables) the rules actually use: each pattern is parsed into its syntax tree and every word it
can spell is enumerated (``m(?:[oö]|oe)glichst`` gives "möglichst" and "moeglichst"). A word that
runs on into an open-ended part (``verteil\\w*``) is a stem: it is known, never a target to correct to.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import re._constants as sre  # the parser of the re module: its own reading of each pattern
import re._parser as sre_parse
from collections.abc import Iterable, Iterator
from typing import Any

from webhook.analysers.embedded.prefilter import Prefiltered

STEM = "\x01"  # a part that may go on with more letters (\w, [a-z], .)
GAP = " "  # a part that ends a word (\s, \d, \b, a lookaround)
MIN_LETTERS = 4
# Above this many spellings of one sequence the words that would span the join are given up
# (a bound on work; the words on either side are still read).
MAX_SPELLINGS = 20_000
_LETTERS = re.compile(r"[^\W\d_]+")  # letters of any language
_GAP_CATEGORIES = (sre.CATEGORY_SPACE, sre.CATEGORY_DIGIT)
_BOUND = re.compile(f"[{STEM}{GAP}]")  # where a word may end; a compiled search is what keeps warm-up short


def _bounds(spelling: str) -> list[int]:
    return [match.start() for match in _BOUND.finditer(spelling)]


@dataclasses.dataclass(slots=True)
class Words:
    """Words read from patterns: ``whole`` ones, every ``piece`` (stems included), and the ``stems``: words
    some pattern lets go on with more letters (``comparta\\w*``; a stem may be a whole word elsewhere)."""

    whole: set[str] = dataclasses.field(default_factory=set)
    pieces: set[str] = dataclasses.field(default_factory=set)
    stems: set[str] = dataclasses.field(default_factory=set)

    def add(self, chunk: str, open_left: bool, open_right: bool) -> None:
        """The words of a run of text between two boundaries; ``open_*``: that side may go on."""
        for match in _LETTERS.finditer(chunk):
            word = match.group(0)
            if len(word) < MIN_LETTERS:
                continue
            self.pieces.add(word)
            goes_on = match.end() == len(chunk) and open_right
            if goes_on and not (match.start() == 0 and open_left):
                self.stems.add(word)
            if not (goes_on or (match.start() == 0 and open_left)):
                self.whole.add(word)

    def add_pieces(self, text: str) -> None:
        """Words known but never corrected to (a fragment whose word ends are unknown)."""
        self.pieces.update(w for w in _LETTERS.findall(text) if len(w) >= MIN_LETTERS)

    def add_spelling(self, spelling: str) -> None:
        """Every word of one complete spelling (boundaries marked with STEM or GAP)."""
        bounds = _bounds(spelling)
        if not bounds:
            self.add(spelling, False, False)
            return
        self.add(spelling[:bounds[0]], False, spelling[bounds[0]] == STEM)
        self.add(spelling[bounds[-1] + 1:], spelling[bounds[-1]] == STEM, False)
        self._between(spelling, bounds)

    def _between(self, spelling: str, bounds: list[int]) -> None:
        for a, b in itertools.pairwise(bounds):
            self.add(spelling[a + 1:b], spelling[a] == STEM, spelling[b] == STEM)

    def fold(self, spelling: str) -> str:
        """Read the words that lie wholly inside ``spelling`` now and keep only its two open ends."""
        bounds = _bounds(spelling)
        if len(bounds) < 2:
            return spelling
        self._between(spelling, bounds)
        return spelling[:bounds[0] + 1] + spelling[bounds[-1]:]


def _sequence(nodes: Iterable[tuple[Any, Any]], words: Words) -> set[str]:
    spellings = {""}
    for op, av in nodes:
        part = _node(op, av, words)
        if len(spellings) * len(part) > MAX_SPELLINGS:
            for spelling in spellings:
                words.add_spelling(spelling + STEM)
            spellings = {STEM}
        spellings = {words.fold(s + p) for s in spellings for p in part}
    return spellings


def _node(op: Any, av: Any, words: Words) -> set[str]:
    if op is sre.LITERAL:
        return {chr(av)}
    if op is sre.IN:
        if all(o is sre.LITERAL for o, _ in av):
            return {chr(v) for _, v in av}
        if all(o is sre.CATEGORY and v in _GAP_CATEGORIES for o, v in av):
            return {GAP}
        return {STEM}
    if op is sre.CATEGORY:
        return {GAP} if av in _GAP_CATEGORIES else {STEM}
    if op is sre.BRANCH:
        return set().union(*(_sequence(branch, words) for branch in av[1]))
    if op is sre.SUBPATTERN:
        return _sequence(av[3], words)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, inner = av
        body = _sequence(inner, words)
        if (low, high) == (1, 1):
            return body
        if (low, high) == (0, 1):
            return {"", *body}
        # open-ended: spaces stay a gap ("\s*" never glues two words); anything else is a stem's ending
        # ("verteil\w*": "verteil" is where words start, not a word to correct to)
        if all(set(b) <= {GAP} for b in body):
            return {GAP}
        for spelling in body:
            words.add(spelling, True, True)
        return {STEM}
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return {GAP}  # \b and lookarounds sit where a word starts or ends
    return {STEM}  # ., [^x], a back reference: anything may follow


def pattern_words(pattern: str, words: Words) -> None:
    """Add the words ``pattern`` (a regular expression, lower case) can spell to ``words``."""
    for spelling in _sequence(sre_parse.parse(pattern), words):
        words.add_spelling(spelling)


def patterns_in(value: Any, seen: set[int] | None = None) -> Iterator[str]:
    """Every pattern text in a rule data object: compiled patterns, pattern strings, and those inside
    tuples, lists, sets, dict keys and values, and the fields of this package's dataclasses."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern | Prefiltered):
        yield value.pattern
    elif isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from patterns_in(key, seen)
            yield from patterns_in(item, seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from patterns_in(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) and type(value).__module__.startswith(
            __package__ or ""):  # the rules' own records (cues), not e.g. the catalogue's descriptions
        for field in dataclasses.fields(value):
            yield from patterns_in(getattr(value, field.name), seen)


def read_words(objects: Iterable[Any]) -> Words:
    """The words of every pattern held by ``objects`` (a string that is not a pattern counts as text)."""
    words = Words()
    seen: set[int] = set()
    for obj in objects:
        for text in patterns_in(obj, seen):
            try:
                pattern_words(text.lower(), words)
            except (re.error, OverflowError, RecursionError):
                words.add_pieces(text.lower())  # a fragment of a pattern: its words are known, not targets
    return words
