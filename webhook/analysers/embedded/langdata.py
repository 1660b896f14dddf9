"""The analyser's words, as data: one file per language and concept, ``lang/<code>/<concept>.txt``.

Each line of a file is one alternative of the concept in that language: a phrase, or a regular-
expression fragment matched against the lower-cased hint (``m(?:[oö]|oe)glich`` for German written
without umlauts). Blank lines and lines starting with ``#`` are ignored. A concept is the union of
its files over every language; the rules compile each concept once, at import. Adding a language is
adding a directory: no code names a language.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "lang"


@cache
def languages() -> tuple[str, ...]:
    """The codes of every language with data files (sorted)."""
    return tuple(sorted(p.name for p in ROOT.iterdir() if p.is_dir() and any(p.glob("*.txt"))))


def _lines(path: Path) -> tuple[str, ...]:
    if not path.is_file():
        return ()
    lines = (line.rstrip("\n\r") for line in path.read_text(encoding="utf-8").splitlines())
    return tuple(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


@cache
def in_language(language: str, concept: str) -> tuple[str, ...]:
    """The alternatives of ``concept`` in one language (empty when it has no such file)."""
    return _lines(ROOT / language / f"{concept}.txt")


@cache
def alternatives(concept: str) -> tuple[str, ...]:
    """The alternatives of ``concept`` over every language, without repeats, in file order."""
    seen: dict[str, None] = {}
    for language in languages():
        for line in in_language(language, concept):
            seen.setdefault(line, None)
    return tuple(seen)


def group(concept: str) -> str:
    """``(?:a|b|...)``: one regular-expression group matching any alternative of ``concept`` (and
    nothing at all, not the empty string, when no language has the concept)."""
    return "(?:" + ("|".join(alternatives(concept)) or "(?!)") + ")"


@cache
def table(concept: str) -> dict[str, float]:
    """A concept whose lines read ``alternative = number`` (number words), over every language."""
    result: dict[str, float] = {}
    for line in alternatives(concept):
        key, _, value = line.rpartition("=")
        result.setdefault(key.strip(), float(value))
    return result


# Fragments a template may name besides concepts: word edges (a dash counts as part of a word) and a
# short gap of up to four words.
FRAGMENTS = {"b": r"(?<![\w-])", "e": r"(?![\w-])", "gap": r"(?:\s+[\w'-]+){0,4}?\s+"}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def one_of(alternatives_: list[str]) -> str:
    """The regular expression matching any of ``alternatives_`` (tried in order), with the word-start
    check that most of them open with said once more in front of each run of them: ``{b}(?:{b}x|{b}y)``
    matches what ``{b}x|{b}y`` does, but the regex engine rejects a position inside a word at once instead
    of trying every alternative there (a cue has hundreds). The alternatives keep their own check, so the
    words the typo tolerance reads from the pattern (``vocabulary``) cost no more to read."""
    word_start = FRAGMENTS["b"]
    parts: list[str] = []
    run: list[str] = []  # alternatives that open with the word-start check, to be written as one group
    for alternative in alternatives_:
        if alternative.startswith(word_start) and not _alternation_outside_groups(alternative):
            run.append(alternative)
            continue
        if run:
            parts.append(word_start + "(?:" + "|".join(run) + ")")
            run = []
        parts.append(alternative)
    if run:
        parts.append(word_start + "(?:" + "|".join(run) + ")")
    return "|".join(parts)


def _alternation_outside_groups(regex: str) -> bool:
    """Whether ``regex`` holds a ``|`` outside every group and character class (``{b}x|y`` checks the
    word start before ``x`` only, so a check in front of it would wrongly hold for both)."""
    depth, class_start, escaped = 0, -1, False  # class_start: where the open character class began
    for index, char in enumerate(regex):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif class_start >= 0:
            # a "]" first in the class ("[]x]", "[^]x]") is one of its members, not its end
            if char == "]" and regex[class_start + 1:index] not in ("", "^"):
                class_start = -1
        elif char == "[":
            class_start = index
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
    return False


def expand(template: str, fragments: dict[str, str] | None = None) -> str:
    """A template with its ``{placeholders}`` replaced: a fragment (``FRAGMENTS`` and ``fragments``), or
    else the group of the concept so named, whose own lines may name placeholders in turn."""
    known = {**FRAGMENTS, **(fragments or {})}

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in known:
            return known[name]
        lines = alternatives(name)
        return "(?:" + ("|".join(expand(line, fragments) for line in lines) or "(?!)") + ")"

    return _PLACEHOLDER.sub(one, template)


def compile_concept(concept: str, fragments: dict[str, str] | None = None) -> re.Pattern[str]:
    """One pattern matching any line of ``concept`` (each line a template, see ``expand``)."""
    return re.compile(expand("{" + concept + "}", fragments))
