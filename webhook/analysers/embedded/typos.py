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

import importlib
import re
from functools import cache, lru_cache

from webhook.analysers.embedded.langdata import alternatives, expand, in_language, languages
from webhook.analysers.embedded.language import detect, vocabulary
from webhook.analysers.embedded.lexicon import CONTRACTED
from webhook.analysers.embedded.vocabulary import read_words

# The keywords the rules read, spelled as the rules expect them (lang/*/keywords.txt), and real words
# one slip away from a keyword, never "corrected" (lang/*/not_typos.txt: "void" is not "avoid").
KEYWORDS = frozenset(alternatives("keywords"))
_KNOWN = frozenset(alternatives("not_typos"))
_LETTERS = "abcdefghijklmnopqrstuvwxyzáéíóúñäöüßàâçèêëîïôûùÿœæ"
_TOKEN = re.compile(r"(?<![\w.\-/])[a-záéíóúñäöüßàâçèêëîïôûùÿœæ]{4,}(?![\w\-/]|\.\w)")


# The modules whose patterns and word tables the rules read.
RULE_MODULES = ("lexicon", "concepts", "workloads", "slots", "rules", "polarity_guard")


# Tables derived from the whole vocabulary, not words the rules key on: every known word spelled without
# its accents ("comento" of "comentó") would be a target for "momento".
_DERIVED = ("_UNACCENTED_WORDS",)


def rule_data() -> list[object]:
    """The data objects of the rule modules (patterns, cue records, word tables): what the rules match."""
    objects: list[object] = []
    for name in RULE_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        objects.extend(v for k, v in vars(module).items() if not k.startswith("__") and k not in _DERIVED)
    return objects


@lru_cache(maxsize=1)
def _rule_words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Words the rules' patterns spell: (every piece, whole words only, stems), read from the patterns as data.

    Every piece is never "corrected" ("posible" is Spanish, not a slip of "possible"); whole words are
    corrected to, and stems with the token's own ending: "desahogad" in ``desahogad\\w*`` is a stem, and
    "desahogado" is no slip of it but "desahoagdo" is."""
    words = read_words(rule_data())
    return frozenset(words.pieces), frozenset(words.whole), frozenset(words.stems | (words.pieces - words.whole))


@lru_cache(maxsize=1)
def _index() -> tuple[frozenset[str], frozenset[str], dict[str, tuple[str, ...]]]:
    """The words to correct to, the words never touched, and the targets by each one-letter deletion."""
    known, whole, _ = _rule_words()
    # Targets: the keywords, and every longer word the rules spell out ("anything", "quietest", "núcleos");
    # short rule words stay out (too many real words are one slip from "three" or "close").
    targets = frozenset(KEYWORDS | {w for w in whole if len(w) >= 6})
    protected = frozenset(targets | known | _KNOWN)
    deletes: dict[str, set[str]] = {}
    for word in targets:
        for i in range(len(word)):
            deletes.setdefault(word[:i] + word[i + 1:], set()).add(word)
    return targets, protected, {k: tuple(sorted(v)) for k, v in deletes.items()}


@lru_cache(maxsize=1)
def _stem_slips() -> dict[str, tuple[tuple[int, str, bool], ...]]:
    """Stems of the rules (``répart`` in ``répart\\w*``, ``belastet``) by each of their slipped spellings:
    the rules match every word that starts with a stem, so "répaarti" is "réparti" and "belstete" is
    "belastete". Fewer slips than for whole words, as a stem's slip must also pass for the start of
    every real word ("blanc" is no "balanc"): never at the first letter, and only those that keep the
    stem's last letter, where words inflect: two letters swapped or one doubled (rank 0), one dropped
    before the last in a long stem (rank 1). The flag: the slip counts only before a short ending (a
    dropped letter, a swap that moves the last letter: "interior" is no "interdi" + "or")."""
    slipped: dict[str, set[tuple[int, str, bool]]] = {}
    for stem in _rule_words()[2]:
        n = len(stem)
        if n < _MIN_STEM:
            continue
        for i in range(1, n - 1):
            if stem[i] != stem[i + 1]:  # a swap that moves the last letter leaves the ending unsure
                slipped.setdefault(stem[:i] + stem[i + 1] + stem[i] + stem[i + 2:], set()).add((0, stem, i == n - 2))
        for i in range(1, n):
            slipped.setdefault(stem[:i + 1] + stem[i:], set()).add((0, stem, False))
        if n >= _MIN_STEM_DROP:
            for i in range(1, n - 1):
                slipped.setdefault(stem[:i] + stem[i + 1:], set()).add((1, stem, True))
    return {k: tuple(sorted(v)) for k, v in slipped.items()}


_MIN_STEM = 6
_MIN_STEM_DROP = 7


def _stem_fixes(token: str) -> list[tuple[int, str]]:
    """(rank, corrected token) for every stem a start of ``token`` is one slip of; the rest of the token is
    the word's own ending ("belstete" -> "belastet" + "e")."""
    slipped = _stem_slips()
    found = []
    for end in range(_MIN_STEM - 1, len(token) + 1):
        for rank, stem, short in slipped.get(token[:end], ()):
            if not short or len(token) - end <= _MAX_SHORT_ENDING:
                found.append((rank, stem + token[end:]))
    return found


_MAX_SHORT_ENDING = 2


def _slips(token: str, targets: frozenset[str], deletes: dict[str, tuple[str, ...]]) -> list[tuple[int, str]]:
    """(rank, keyword) for every keyword one slip from ``token``; rank 0 = swapped or doubled letter,
    1 = dropped letter, 2 = wrong or extra letter (long words only)."""
    found: list[tuple[int, str]] = []
    n = len(token)
    # The last letter is where words inflect ("requires" is no slip of "required", "require" none of
    # "required"): only a swap or a doubled letter counts there.
    tail = n - 1
    for i in range(n - 1):  # swapped neighbours
        swapped = token[:i] + token[i + 1] + token[i] + token[i + 2:]
        if swapped != token and swapped in targets:
            found.append((0, swapped))
    for i in range(n):  # one letter too many: doubled (any length) or extra (long words)
        shorter = token[:i] + token[i + 1:]
        if shorter in targets:
            doubled = (i > 0 and token[i - 1] == token[i]) or (i + 1 < n and token[i + 1] == token[i])
            if doubled:
                found.append((0, shorter))
            elif len(shorter) >= 7 and i < tail:
                found.append((2, shorter))
        for keyword in deletes.get(shorter, ()):  # same length, one wrong letter
            if len(keyword) == n >= 7 and i < tail and keyword[:i] == token[:i] and keyword[i + 1:] == token[i + 1:]:
                found.append((2, keyword))
    for keyword in deletes.get(token, ()):  # one letter dropped
        if len(keyword) == 5 and keyword[:-1] == token:
            found.append((1, keyword))  # "avoi", "evit"
        elif len(keyword) >= 6 and keyword[:-1] != token:
            found.append((1, keyword))  # dropped anywhere but at the end
    return found


_CACHE: dict[tuple[str, str | None, tuple[str, ...]], str] = {}


def _fix(token: str, language: str | None = None, kin: tuple[str, ...] = ()) -> str:
    """The keyword ``token`` is a slip of, or ``token`` itself; ``language`` settles a slip two
    languages' keywords share ("evitr": Spanish "evitar", French "eviter"); a slip goes to a word of
    ``language``, of ``kin`` (when the hint's language is not clear) or of English, never to another
    language's."""
    cached = _CACHE.get((token, language, kin))
    if cached is not None:
        return cached
    targets, protected, deletes = _index()
    result = token
    if token not in protected and (elided := _elided(token, protected, language)) is not None:
        result = elided
    elif token not in protected and not any(token in vocabulary(code).words for code in languages()):
        found = _slips(token, targets, deletes)
        if not any(token in vocabulary(code) for code in languages()):  # no stem of a rule reads it as it is
            found += _stem_fixes(token)
        if found and language is not None:
            # never a slip into another language's word: "minio" (a name) is no Spanish "minimo", "occupies" no
            # French "occupes"; English is the jargon every hint borrows ("host", "nodes")
            found = [(rank, k) for rank, k in found if not _foreign(k, (language, *kin))]
            # a plain slip (swap, doubled or dropped letter) of the hint's own language's word before another
            # language's ("machne": "machine", not "machen")
            own = [(rank, k) for rank, k in found if rank <= 1 and k in vocabulary(language)]
            found = own or found
        if found:
            best = min(rank for rank, _ in found)
            keywords = {k for rank, k in found if rank == best}
            if len({unaccented(k) for k in keywords}) == 1 or _one_stem(keywords):
                # "nucleos" and "núcleos" are one word; so are two endings after one stem
                keywords = {min(keywords, key=lambda k: (k not in KEYWORDS, len(k), k))}
            if len(keywords) > 1 and len(keywords & KEYWORDS) == 1:  # "koten": "knoten", not "kosten"
                keywords &= KEYWORDS
            if len(keywords) > 1 and language is not None:
                own = {k for k in keywords if k in vocabulary(language)}
                keywords = own if len(own) == 1 else keywords
            if len(keywords) == 1:
                keyword = keywords.pop()
                # a plural or singular of a keyword is a word of its own, not a slip ("machine", "distinto")
                if token.rstrip("s") != keyword.rstrip("s") and not (
                        keyword.startswith(token) and len(keyword) > 5 and keyword[-1] in "sn"):
                    result = keyword
    if len(_CACHE) < 50_000:  # bounded: hints are short, but the webhook runs for a long time
        _CACHE[(token, language, kin)] = result
    return result


@cache
def _foreign(word: str, own: tuple[str, ...]) -> bool:
    """Whether ``word`` is only another language's: some known language spells it, none of ``own`` nor
    English (whose jargon every language's hints use) does."""
    own = (*own, _JARGON)
    return not any(word in vocabulary(code) for code in own) and any(
        word in vocabulary(code) for code in languages() if code not in own)


_JARGON = "en"
# How many words more of its language than of any other a hint holds before its slips keep to that language.
_SETTLED = 2


def _one_stem(words: set[str]) -> bool:
    """True when every word starts with one stem of the rules: they read them alike."""
    first = min(words, key=len)
    return any(first[:end] in _rule_words()[2] and all(w.startswith(first[:end]) for w in words)
               for end in range(_MIN_STEM, len(first) + 1))


def _elided(token: str, protected: frozenset[str], language: str | None) -> str | None:
    """``token`` with its elision's apostrophe put back ("lutilisez" -> "l'utilisez", "despace" ->
    "d'espace"): a keyboard without apostrophes, not a slip, when an elided article of the hint's
    language (lang/<code>/elided_articles.txt) is glued to a word the rules know, or to one that
    starts with a long word of the language ("léloignant": "éloign" of "[ée]loign")."""
    rest = token[1:]
    if language is None or rest[0] not in _VOWELS or not (
            rest in protected or rest in vocabulary(language) or rest.startswith(_long_words(language))):
        return None
    restored = f"{token[0]}'"
    if any(re.fullmatch(article, restored) for article in in_language(language, "elided_articles")):
        return restored + token[1:]
    return None


_VOWELS = frozenset("aeiouyhàâéèêëîïôûù")


@cache
def _long_words(language: str) -> tuple[str, ...]:
    """The language's words of five letters or more: a word glued to an article starts with one."""
    return tuple(sorted(w for w in vocabulary(language).words if len(w) >= 5))


def unaccented(word: str) -> str:
    """``word`` without its accents ("núcleos" -> "nucleos"): how a keyboard without them types it."""
    return word.translate(_ACCENTS)


_ACCENTS = str.maketrans("áéíóúäöüàâçèêëîïôûù", "aeiouaouaaceeeiiouu")


def correct(text: str, language: str | None = None) -> str:
    """``text`` (lower-cased) with single-slip misspellings of keywords replaced by the keywords;
    ``language`` (detected when not given) decides between two languages' keywords."""
    text = _ISH.sub(r"\1", text)  # "rack-ish", "zone-ish": the word with a shrug
    kin: tuple[str, ...] = ()
    if language is None:
        detected = detect(text)
        language = detected.code
        counts = [count for _, count in detected.counts] + [0, 0]
        # a hint whose language is not clear ("évtez la zone ...": the slip was its one French word) may be in any
        kin = tuple(languages()) if counts[0] - counts[1] < _SETTLED else ()
    # ... when it ends the phrase: "que el despliegue redis" may hold a head noun typed with a slip
    named = {m.end() for m in _NAME_NEXT.finditer(text) if _NAME_ENDS.match(text, m.end())}
    text = _TOKEN.sub(lambda m: m.group(0) if m.start() in named else _fix(m.group(0), language, kin), text)
    restored = _contractions(language)  # after the slips: "shhouldnt" is "shouldnt", then "shouldn't"
    return CONTRACTED.sub(lambda m: restored.get(m.group(0), m.group(0)), text) if restored else text


@cache
def _contractions(language: str | None) -> dict[str, str]:
    """The hint language's contractions by their spelling without the apostrophe ("dont" -> "don't",
    lang/<code>/contractions.txt): only that language's hint reads "dont" so."""
    return {line.replace("'", ""): line for line in in_language(language, "contractions")} if language else {}


# "the same zone as minio", "misma zona que minio": the word after a level's "as" is a workload's name, never a slip
_NAME_NEXT = re.compile(expand(r"(?<![\w-])(?:{level_zone}|{level_region}|{level_node}|{level_rack})\s+"
                               r"(?:{located_verb}\s+)?{as_word}\s+(?:{articles}\s+)?"))
_NAME_ENDS = re.compile(expand(r"[\w.-]+(?:\s*(?:[^\w\s]|$)|\s+(?:{and_word}|{or_word}|{list_join})(?![\w-]))"))
_ISH = re.compile(r"(?<![\w-])([a-z]{3,})-ish(?![\w-])")
