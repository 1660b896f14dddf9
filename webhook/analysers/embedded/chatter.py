"""Chatter around a wish: a greeting before it, thanks after it, emoji and emoticons anywhere.

"hi team, keep it off m03 thanks!" asks exactly what "keep it off m03" asks. Left in, the greeting
hides how a sentence opens (a statement reads as a wish once "hi team," precedes it) and the thanks
hides how it ends (a refusal said after a name, "lass den weg", must close its clause). So before
any rule runs, courtesy (``lang/<code>/courtesy.txt``) that opens or closes the hint, every
pictograph and every emoticon are blanked with spaces: no offset moves, and no rule ever has to spell them.
"""

from __future__ import annotations

import re
import unicodedata

from webhook.analysers.embedded.langdata import group

_COURTESY = group("courtesy")
# A greeting that opens the hint is set off by punctuation ("hi team, ..."): "merci de ..." is a request.
_OPENING = re.compile(rf"^[\W_]*(?<![\w-]){_COURTESY}\s*[,!.:;\u2013\u2014-]+")
# Thanks that close it, after a word or a sign: "... nope thanks!", "... 500Go merci !".
_CLOSING = re.compile(rf"(?:^|(?<=[\s\W]))(?<![\w-]){_COURTESY}[\s,!.:;)\u2013\u2014-]*$")
# Emoticons typed with punctuation, standing alone: ":)", ";-)", ":(", ":d", "xd", "^^", "<3".
_EMOTICON = re.compile(r"(?<!\S)(?:[:;][-'^o]?[)(\]\[dpo/\\|*3]+|xd+|\^\^|<3)(?!\S)")
# Emoji modifiers and joiners that are not themselves symbols: skin tones, variation selectors, keycap.
_EMOJI_PARTS = frozenset(map(chr, (*range(0x1F3FB, 0x1F400), 0xFE0E, 0xFE0F, 0x20E3)))


def _is_pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So" or char in _EMOJI_PARTS


def blank_chatter(text: str) -> str:
    """``text`` (lower-cased) with courtesy at its edges, pictographs and emoticons blanked, offsets kept."""
    if not text.isascii():
        text = "".join(" " if _is_pictograph(c) else c for c in text)
    text = _EMOTICON.sub(lambda m: " " * len(m.group(0)), text)
    for edge, start in ((_OPENING, 0), (_CLOSING, max(0, len(text) - _TAIL))):
        while (match := edge.search(text, start)) is not None and match.end() > match.start():
            text = text[:match.start()] + " " * (match.end() - match.start()) + text[match.end():]
    return text


# Courtesy closes a hint within its last characters: the closing search starts there (hints run to 1000).
_TAIL = 80
