"""The clause-level vocabulary the rules read: strength, negation, what a wish is not, clause structure.

The words themselves live in ``lang/<code>/<concept>.txt`` (``langdata``); this module compiles each
concept once. Everything is matched against the *lower-cased* hint. Word boundaries are explicit
lookarounds (``(?<![\\w-])``) rather than ``\\b`` so that names with dashes (``gpu-node-7``) are one
word: a cue never fires inside a name.
"""

from __future__ import annotations

import re

from webhook.analysers.embedded.langdata import alternatives, expand, group, one_of, table


def words(*alternatives: str) -> str:
    """One regex alternative group that matches any of ``alternatives`` as whole words."""
    return r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])"


def compile_words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(words(*alternatives))


def concept_words(concept: str) -> re.Pattern[str]:
    """The compiled whole-word pattern of one concept over every language."""
    return compile_words(*alternatives(concept))


def any_of(*patterns: re.Pattern[str]) -> re.Pattern[str]:
    """One pattern that matches where ``patterns`` joined by "|" match (``langdata.one_of``: the word-start
    check they open with is tested once in front of them first)."""
    return re.compile(one_of([p.pattern for p in patterns]))


# --- strength (ARCHITECTURE 2.2: weak 0.5 / strong 1.5 / else 1.0) ------------------------------------
WEAK = concept_words("weak")
STRONG = concept_words("strong")

# --- negation ----------------------------------------------------------------------------------------
# Cues that negate what follows them inside the same clause.
NEGATION_BEFORE = concept_words("negation_before")
# Cues that negate what comes before them in the same clause (German verb-final, "X is off limits").
NEGATION_AFTER = concept_words("negation_after")
# Phrases whose negation words negate nothing ("not only X but also Y", "no zone other than X",
# "non négociable"): a negation cue inside one is no negation (clauses, polarity_guard).
NOT_NEGATING = re.compile(r"(?<![\w-])(?:" + expand("{not_negating}") + r")(?![\w-])")
# "not necessarily": a negation that only allows, never asks for the opposite.
HEDGE = re.compile(r"(?<![\w-])(?:" + expand("{not_necessarily}") + r")(?![\w-])")
# "they may sit on different nodes", "dürfen auf verschiedenen Knoten liegen": a permission, never a wish
PERMISSION = concept_words("permission")
# "darf höchstens eine", "at most one ... may": a limit, which restricts rather than allows
AT_MOST = concept_words("at_most")
# "no need", "nicht nötig": a thing not needed is indifference, not a wish to avoid it (ARCHITECTURE 2.2)
NOT_NEEDED = re.compile(rf"(?<![\w-]){group('not_needed')}(?![\w-])")
# "doesn't care about GPUs", "da igual", "egal": indifference too
INDIFFERENT = re.compile(rf"\b{group('indifferent')}\b")

# --- what a wish is not ----------------------------------------------------------------------------
# Instructions aimed at the model (prompt injection) or forged structure: the whole sentence is dropped.
INJECTION = re.compile(
    rf"(?<![\w-]){group('injection_ignore')}\b.{{0,40}}?{group('injection_target')}"
    rf"|(?<![\w-]){group('injection_role')}\s*:"
    rf"|{group('injection_phrase')}"
    rf"|(?<![\w-]){group('injection_output')}\b.{{0,40}}?{group('injection_output_target')}"
)
# Contractions typed without their apostrophe ("dont", "isnt"; lang/*/contractions.txt): read as the
# contraction only in a hint of their language (typos.correct), and what a slip of one is corrected to.
CONTRACTED = compile_words(*(line.replace("'", "") for line in alternatives("contractions")))
# What marks a wish (a modal, a request verb, "please"): a sentence without one may only describe.
WISH = concept_words("wish")
# Statements about the past or about people, not placement wishes ("since {month_words}": lines may name concepts).
DESCRIPTIVE = compile_words(*(expand(line) for line in alternatives("descriptive")))
# A complaint said right after a name ("m04 keeps crashing", "nodes running kafka are bad").
TROUBLE = re.compile(r"\s*[,:;-]?\s*" + group("trouble") + r"(?![\w-])")
# What opens a reason or a relative clause after a wish ("because", ", which"): a description there
# explains the wish, it does not cancel it.
BECAUSE = concept_words("because")
# what opens the goal of a wish with a subject of its own ("so that", "para que", "damit", "pour que")
PURPOSE_CLAUSE = concept_words("purpose_clause")

# --- topology levels -------------------------------------------------------------------------------------
# The words of the four levels a place belongs to (zone, rack, region, node; lang/*/level_<level>.txt), one
# alternation for every rule that asks whether a level is named.
LEVEL_WORDS = "|".join(group(f"level_{level}") for level in ("zone", "rack", "region", "node"))
ANY_LEVEL = re.compile(r"(?<![\w-])(?:" + LEVEL_WORDS + r")(?![\w-])")

# --- clause structure -----------------------------------------------------------------------------------
# Hard boundaries end a clause: strength and negation never cross them.
HARD_SPLIT = re.compile(r"[;!?¿¡]|\.+(?=\s|$)|\s[-–—]\s|" + words(*alternatives("hard_split")))
# Soft boundaries separate list items and co-ordinated clauses; a continuation may inherit strength.
# A slash or a plus between spaces lists items as a comma does ("8 cores / 32 GB / ssd", "2x H100 + 100G");
# written tight they stay inside a name or a unit ("us-east-1a/b", "16c/64g", "Gbit/s").
SOFT_SPLIT = re.compile(r"(?<!\d),|,(?!\d)|:(?=\s)|&|[()]|\s[/+](?=\s)|" + words(*alternatives("soft_split")))
# A co-ordinated clause that starts with one of these is a new wish with its own (neutral) strength.
OPENERS = concept_words("openers")
FILLER = concept_words("filler")
# Words that point back at something already said ("skip it", "not that one", "lo evito"), and the
# courtesy a refusal may carry ("no thanks", "non merci").
REFERENCE = compile_words(*alternatives("reference"), *alternatives("courtesy"))

NUMBER_WORDS = table("numbers")
