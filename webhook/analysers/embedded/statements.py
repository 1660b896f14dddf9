"""Statements of fact versus wishes: "We run on 12 nodes across 3 zones" asks for nothing.

A sentence that describes the cluster or the workload (a subject such as "we", "our cluster",
"the nodes in us-east-1a", "rack-4", followed by a present-tense verb of being or having) and
carries no sign of a wish (no modal, request verb, strength word, imperative or "please") states
a fact. The rules skip such sentences, as they skip the past-tense ones (``lexicon.DESCRIPTIVE``).

This errs on the side of reading a wish: any wish marker anywhere in the sentence keeps it, so
"We run on GPUs, so keep it there" and "Our jobs need 4 GPUs" still count.
"""

from __future__ import annotations

import re

from webhook.analysers.embedded.langdata import alternatives, expand, group
from webhook.analysers.embedded.lexicon import NEGATION_AFTER, STRONG, WEAK, compile_words, concept_words

# Who states facts about the infrastructure, in any tense of being or having: "we", "our cluster", "the
# nodes in us-east-1a", "rack-4", "node-7", "each node", "GPU nodes (cost ...)".
_INFRA_SUBJECT = (
    r"(?:{we_words}|{statement_determiner}\s+(?:{whole_words}\s+)?(?:[\w-]+\s+)?{infra_words}"
    r"(?:\s+{place_preposition}\s+[\w-]+(?:\s+[\w-]+)?)?|"
    r"{monitoring_words}(?:\s+[\w-]+)?|(?:{level_rack}|{level_zone}|{level_region}|us|eu|ap|sa|ca|me|af)-[\w-]+|"
    r"{node_name_prefix}-?\d+[\w.-]*|"
    r"(?:{articles}\s+)?{level_node}\s+[a-z][\w-]*\d[\w.-]*|"
    r"{each_words}\s+(?:[\w-]+\s+)?{infra_words}|"
    r"(?:[\w-]+\s+)?{infra_plural}(?=\s+{have_verbs}\b))"
)
# The workload itself only states a fact with a time word ("this service currently runs in eu-west-1"):
# "the app is memory-hungry" describes a need.
_WORKLOAD_SUBJECT = r"(?:{it_word}|{this_word}\s+\w+|{articles}\s+{head_nouns})"
_STATEMENT = re.compile(expand(
    r"^\W*(?:{statement_label}\s*[,:-]?\s*)?(?:{we_have}|"
    r"(?:" + _INFRA_SUBJECT + r")\s+(?:{now_words}\s+)?{state_verbs}|(?:{now_words}\s*,?\s+)?"
    + _INFRA_SUBJECT + r"\s+{state_verbs}|(?:" + _WORKLOAD_SUBJECT + r")\s+(?:{now_words}\s+{state_verbs}|"
    r"{state_verbs}\s+{now_words})|{now_words}\s*,?\s+(?:" + _WORKLOAD_SUBJECT + r")\s+{state_verbs})(?![\w-])"
))
WISH = concept_words("wish")


# Openings of statements kept as data (lang/*/statement_opening.txt): "chaque nœud a ...", "the ledger
# service lives in ...".
_STATEMENT_OPENING = re.compile(r"^\W*" + group("statement_opening") + r"(?![\w-])")


def is_statement(sentence: str) -> bool:
    """True when the lower-cased ``sentence`` only states a fact (subject + present verb, no wish marker)."""
    if not (_STATEMENT.match(sentence) or _STATEMENT_OPENING.match(sentence)):
        return False
    # "rack-7 is a no go", "rack-2 is off limits": a verdict on a place is a wish
    wishes = [m for m in WISH.finditer(sentence)
              if not (_PARTICIPLE.match(sentence, m.start()) and sentence[:m.start()].rstrip().endswith(","))]
    return not (wishes or WEAK.search(sentence) or STRONG.search(sentence) or NEGATION_AFTER.search(sentence))


# "Our GPUs are A100s, spread across two racks": after a comma, "spread across" describes where things are
_PARTICIPLE = re.compile(expand(r"{spread_participle}\s+{across_word}\b"))


# Questions about the cluster ("why does rack-3 overheat?") ask for an answer, not a placement.
_QUESTION = re.compile(r"^\W*" + group("question_words") + r"(?![\w-])")
_QUESTION_BARE = re.compile(r"^\W*" + group("question_bare") + r"(?![\w-])")
_YOU = compile_words(*alternatives("you_words"))


def is_question(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is a question about something (ends with "?" and opens with a question
    word, or ends the hint and opens unmistakably); "can you put it in us-east-1?" is a request and stays."""
    # match on the slice: "^" never matches at a later ``pos`` ("¿Quién ...?", a second sentence)
    sentence = text[start:end]
    if "?" in text[end:end + 2]:
        opens = _QUESTION.match(sentence) is not None
    else:
        # typed without its "?", a question opened by "¿" or by an unmistakable question word
        # ("why does it avoid zone a", lang/*/question_bare.txt) still ends the hint
        opens = not text[end:].strip() and (
            _QUESTION_BARE.match(sentence) is not None
            or (text[:start].rstrip().endswith("¿") and _QUESTION.match(sentence) is not None))
    return opens and not (WISH.search(text, start, end) and _YOU.search(text, start, end))
