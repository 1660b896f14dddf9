"""Which language a hint is written in, and whether the analyser has the data to read it.

A language is *known* when it has any file under ``lang/<code>/`` and *supported* when it has the
files the rules cannot do without (``REQUIRED``). Each known language's vocabulary is every word its
files spell (concept files and ``function_words.txt``). A hint's plain words (names, numbers and
words shared by every language, such as "gpu" or "rack", left out) are counted against each
vocabulary. A hint that reads clearly as an unsupported language, or as no known language at all,
is not guessed at: the analyser gives no intent and says so (a wrong answer is worse than none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from webhook.analysers.embedded.langdata import ROOT, in_language, languages
from webhook.analysers.embedded.vocabulary import read_words

# Without these a language's negations and strengths would be misread: it is not supported.
REQUIRED = ("negation_before", "negation_after", "weak", "strong")
# A hint needs this many words of another language, and more of them than of any supported one,
# before it is called unsupported. Words known to no language prove nothing ("lorem ipsum", a
# product name, English jargon no list holds): only a known language, or another script, decides.
MIN_FOREIGN_WORDS = 2
# Letters outside the Latin script (Cyrillic, Greek, CJK, ...) above this share: no supported
# language is written so.
MAX_OTHER_SCRIPT = 0.5
MIN_OTHER_SCRIPT = 4  # "¯\_(ツ)_/¯" is a shrug, not Japanese
_WORD = re.compile(r"(?<![\w.'’/-])[^\W\d_]{2,}(?![\w/-]|[.'’][^\W\d_])")
_LATIN = re.compile(r"[a-zà-ɏḀ-ỿ]")
_ELISION = re.compile(r"(?<![\w-])[a-z][’'](?=[^\W\d_])")  # French l'/d'/qu': the word after counts


@dataclass(frozen=True, slots=True)
class Language:
    """The verdict on one hint: ``code`` is None when no known language fits."""

    code: str | None
    supported: bool
    counts: tuple[tuple[str, int], ...] = ()


@cache
def supported() -> tuple[str, ...]:
    """The languages with every required concept file."""
    return tuple(code for code in languages() if all((ROOT / code / f"{c}.txt").is_file() for c in REQUIRED))


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    words: frozenset[str]  # whole words
    stems: tuple[str, ...]  # starts of words ("distribut" in "distribut\w*")

    def __contains__(self, token: str) -> bool:
        return token in self.words or token.startswith(self.stems)


@cache
def _vocabularies() -> dict[str, _Vocabulary]:
    spelled = {}
    for code in languages():
        concepts = sorted(p.stem for p in (ROOT / code).glob("*.txt"))
        words = read_words([in_language(code, concept) for concept in concepts])
        short = {w for c in concepts for line in in_language(code, c) for w in re.findall(r"[^\W\d_]+", line)}
        spelled[code] = (words.whole | {w for w in short if len(w) >= 2}, (words.pieces - words.whole) | words.stems)
    # words every language spells ("gpu", "rack", "ssd") tell no language apart
    common = frozenset.intersection(*(frozenset(w) for w, _ in spelled.values())) if spelled else frozenset()
    return {code: _Vocabulary(frozenset(whole) - common, tuple(sorted(s for s in stems if len(s) >= 5)))
            for code, (whole, stems) in spelled.items()}


def vocabulary(code: str) -> _Vocabulary:
    """The words (and stems) a known language's files spell, less those every language shares."""
    return _vocabularies()[code]


# The analyser asks before reading a hint, the typo corrector again while reading it. Room for the texts of the few
# hints in flight only: a hint read again later is detected again, as production (whose controller answers a
# repeated hint from its own cache) and a benchmark that cycles through its hints both see.
@lru_cache(maxsize=8)
def detect(text: str) -> Language:
    """The language of a lower-cased hint (names and numbers may be left in: they never count)."""
    tokens = [m.group(0) for m in _WORD.finditer(_ELISION.sub(" ", text))]
    vocabularies = _vocabularies()
    counts = {code: sum(t in words for t in tokens) for code, words in vocabularies.items()}
    ranked = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    backed = supported()
    best_supported = max((counts[c] for c in backed), default=0)
    best_other = max(((n, c) for c, n in counts.items() if c not in backed), default=(0, None))
    if best_other[0] >= MIN_FOREIGN_WORDS and best_other[0] > best_supported:
        return Language(best_other[1], False, ranked)
    letters = [c for c in text if c.isalpha()]
    other = sum(not _LATIN.match(c) for c in letters)
    if other >= MIN_OTHER_SCRIPT and other > MAX_OTHER_SCRIPT * len(letters):
        return Language(None, False, ranked)
    best = max(backed, key=lambda c: (counts[c], c == "en"), default=None) if backed else None
    return Language(best, True, ranked)
