"""The hint sanitiser: the only text an analyser ever sees has passed through here.

A hint is untrusted user data that ends up inside an LLM prompt. The sanitiser does not try to
judge intent (that is the analyser's job, which treats the hint as data); it removes what has no
business in a placement wish and what could fake the prompt's structure:

1. a hard cut before any work, so a 100 KB annotation costs as little as a short one;
2. Unicode NFKC (full-width letters, ligatures, compatibility digits become plain text);
3. control, format (zero-width, bidirectional overrides, BOM), private-use and unassigned
   characters removed;
4. Cyrillic/Greek look-alike letters inside otherwise Latin words mapped to Latin (homoglyphs);
5. prompt-delimiter look-alikes removed: chat-template tokens (``<|im_start|>``, ``[INST]``),
   XML-like tags (``<hint>``, ``</system>``), code fences, long runs of ``#=*-_~<>`` and braces;
6. whitespace collapsed; the result capped at ``max_chars`` on a word boundary.

It returns the clean text and a list of what it changed (empty when nothing changed).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

DEFAULT_MAX_CHARS = 1000

_REMOVED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn"}
# Letters that render like Latin ones; mapped only inside words that also hold Latin letters, so
# a genuinely Greek or Cyrillic word is left alone.
_HOMOGLYPHS = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "к": "k", "м": "m", "н": "h", "т": "t",
    "в": "b", "г": "r", "п": "n",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})
_LOOKALIKES = frozenset(chr(c) for c in _HOMOGLYPHS)
_WORD = re.compile(r"\w+")
_LATIN = re.compile(r"[A-Za-z]")

# Prompt markup: what only a prompt's own structure is written in. A hint holding it forges that structure.
_MARKUP = (
    r"<\|[^|>]{0,40}\|>"  # chat-template special tokens: <|im_start|>, <|endoftext|>
    r"|\[/?(?:INST|SYS|SYSTEM|USER|ASSISTANT)\]"  # [INST] ... [/INST]
    r"|<<?/?SYS>>?"  # <<SYS>>
    # XML-like tags, our own <hint> included, with name="value" attributes (never "a < b and c > d")
    r"|</?\s*[A-Za-z][\w:.-]{0,100}"
    r"(?:\s+[A-Za-z_:][\w:.-]{0,100}\s*=\s*(?:\"[^\"<>]{0,200}\"|'[^'<>]{0,200}'|[^\s<>\"']{1,200}))*\s*/?>"
)
_FORGED = re.compile(_MARKUP, re.IGNORECASE)
_DELIMITERS = re.compile(
    _MARKUP
    + r"|`{2,}"  # code fences
    r"|([#=*_~<>\-])\1{2,}"  # ###, ===, ---, <<<, >>> and friends
    r"|[{}]",  # JSON object braces: no placement wish needs them
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SanitisedHint:
    text: str
    changes: tuple[str, ...] = ()
    # The hint held prompt markup (<hint>, </system>, [INST], <|im_start|>): the words it wraps were written to pass
    # for the prompt's own, so no analyser reads them as a wish (``webhook.analysers.base.analyse``).
    forged_markup: bool = False

    @property
    def sha256(self) -> str:
        """The hint's identity: a hint that held prompt markup is another hint than its text alone (a NUL, which
        no sanitised text holds, marks it), so the two never share a cache entry or a signature."""
        return hint_sha256("\x00" + self.text if self.forged_markup else self.text)


def hint_sha256(text: str) -> str:
    """The hint's identity everywhere: cache key, signature binding, analysis annotation."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    space = text.rfind(" ", 0, limit + 1)
    return text[: space if space > limit // 2 else limit].rstrip()


def sanitise(hint: str, max_chars: int = DEFAULT_MAX_CHARS) -> SanitisedHint:
    """Clean one hint. Pure and total: any ``str`` in, a ``SanitisedHint`` out."""
    changes: list[str] = []
    original_length = len(hint)
    # Generous pre-cut: NFKC can only grow text a little, and the final cut happens below.
    text = hint[: max_chars * 4]

    normalised = unicodedata.normalize("NFKC", text)
    if normalised != text:
        changes.append("unicode-normalised (NFKC)")
    text = normalised

    kept = []
    removed = 0
    for char in text:
        if char.isspace():  # kept for the collapse below: VT, FF, NEL, U+2028 separate words like a newline does
            kept.append(char)
        elif unicodedata.category(char) in _REMOVED_CATEGORIES:
            removed += 1
        else:
            kept.append(char)
    if removed:
        changes.append(f"removed {removed} control/format/invisible character(s)")
    text = "".join(kept)

    homoglyphs = 0

    def _latinise(match: re.Match[str]) -> str:
        nonlocal homoglyphs
        word = match.group(0)
        if _LATIN.search(word) and any(c in _LOOKALIKES for c in word):
            homoglyphs += sum(c in _LOOKALIKES for c in word)
            return word.translate(_HOMOGLYPHS)
        return word

    text = _WORD.sub(_latinise, text)
    if homoglyphs:
        changes.append(f"replaced {homoglyphs} look-alike letter(s) with Latin")

    # Removing an invisible character or mapping a look-alike can bring a letter and a combining mark
    # together ("e<ZWSP>\u0301"); compose them now, or a second pass would change the text again.
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
        if "unicode-normalised (NFKC)" not in changes:
            changes.append("unicode-normalised (NFKC)")

    forged = _FORGED.search(text) is not None
    text, delimiters = _DELIMITERS.subn(" ", text)
    if delimiters:
        changes.append(f"neutralised {delimiters} delimiter look-alike(s)")

    collapsed = " ".join(text.split())
    # Trimming the ends alone is not reported: leading/trailing blanks never carry meaning.
    if collapsed != text.strip():
        changes.append("collapsed whitespace")
    text = collapsed

    if len(text) > max_chars or original_length > max_chars * 4:
        text = _cut(text, max_chars)
        changes.append(f"truncated {original_length} -> {len(text)} characters")
    return SanitisedHint(text, tuple(changes), forged)
