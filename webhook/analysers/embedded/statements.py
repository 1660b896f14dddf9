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

from webhook.analysers.embedded.langdata import group
from webhook.analysers.embedded.lexicon import NEGATION_AFTER, STRONG, WEAK, concept_words

_INFRA = group("infra_words")  # what a statement is about: the cluster, its nodes, a team
# Who states facts about the infrastructure, in any tense of being or having.
_INFRA_SUBJECT = (
    r"(?:we|they|" + group("statement_determiner") + r"\s+"
    r"(?:whole\s+|entire\s+|current\s+)?"
    r"(?:[\w-]+\s+)?" + _INFRA
    + r"(?:\s+(?:in|on|of|at|from|en|de|del|de la|im|in der|vom|am)\s+[\w-]+(?:\s+[\w-]+)?)?|"
    r"(?:monitoring|metrics|grafana|prometheus)(?:\s+[\w-]+)?|(?:rack|zone|region|us|eu|ap|sa|ca|me|af)-[\w-]+|"
    r"(?:node|worker|host|server|nodo|knoten|m|w|n)-?\d+[\w.-]*|"
    r"(?:the\s+|el\s+|der\s+)?(?:node|host|server|nodo|knoten)\s+[a-z][\w-]*\d[\w.-]*|"
    + group("we_words") + r"|"
    # "each node has ...", "cada nodo tiene ...", "jeder Knoten hat ...", "GPU nodes cost ..."
    + group("each_words") + r"\s+(?:[\w-]+\s+)?" + _INFRA + r"|"
    r"(?:[\w-]+\s+)?(?:nodes|machines|servers|racks|zones|regions|nodos|knoten)(?=\s+(?:cost|costs|cuestan|kosten|"
    r"have|has|tienen|haben|are|son|sind)\b))"
)
# The workload itself only states a fact with a time word ("this service currently runs in eu-west-1"):
# "the app is memory-hungry" describes a need.
_WORKLOAD_SUBJECT = (r"(?:it|this\s+\w+|the\s+(?:service|app|application|deployment|workload|job|pod|pods)|"
                     r"(?:der|die|das|el|la|los|las)\s+(?:pod|pods|job|dienst|app|deployment|workload|servicio|"
                     r"aplicaci(?:[oó])n|anwendung)|"
                     r"el\s+servicio|la\s+aplicaci[oó]n|der\s+dienst|die\s+anwendung|es)")
_NOW = group("now_words")
_VERB = group("state_verbs")  # being, having, running, standing somewhere
# Where another workload lives is a fact ("the ledger service lives in us-east-1b"), not a wish.
_ELSEWHERE = (r"the\s+[\w-]+\s+(?:service|deployment|app|database|db|pods?|cluster)\s+(?:currently\s+)?(?:lives|runs|"
              r"sits|resides|is located|is hosted|is)\s+(?:in|on)")
_ELSEWHERE_STATEMENT = re.compile(r"^\W*" + _ELSEWHERE + r"(?![\w-])")
_STATEMENT = re.compile(
    r"^\W*(?:(?:for context|context|fyi|btw|by the way|note|background|heads[- ]?up|psa|aviso|ojo|hinweis|"
    r"alert|alerta|warnung|warning|incident|incidente|st(?:[oö]|oe)rung|"
    r"para contexto|como contexto|zur info|"
    r"right now|currently|today|at the moment|ahora mismo|ahora|actualmente|hoy|derzeit|aktuell|im moment|"
    r"momentan|zurzeit|"
    r"hintergrund|zum kontext)\s*[,:-]?\s*)?(?:tenemos|contamos con|disponemos de|"
    r"(?:" + _INFRA_SUBJECT + r")\s+(?:" + _NOW + r"\s+)?" + _VERB + r"|(?:" + _NOW + r"\s*,?\s+)?"
    + _INFRA_SUBJECT + r"\s+" + _VERB + r"|(?:" + _WORKLOAD_SUBJECT + r")\s+(?:" + _NOW + r"\s+" + _VERB + r"|"
    + _VERB + r"\s+" + _NOW + r")|" + _NOW + r"\s*,?\s+(?:" + _WORKLOAD_SUBJECT + r")\s+" + _VERB + r")(?![\w-])"
)
WISH = concept_words("wish")


# Openings of statements kept as data (lang/*/statement_opening.txt): "chaque nœud a ...".
_STATEMENT_OPENING = re.compile(r"^\W*" + group("statement_opening") + r"(?![\w-])")


def is_statement(sentence: str) -> bool:
    """True when the lower-cased ``sentence`` only states a fact (subject + present verb, no wish marker)."""
    if not (_STATEMENT.match(sentence) or _ELSEWHERE_STATEMENT.match(sentence)
            or _STATEMENT_OPENING.match(sentence)):
        return False
    # "rack-7 is a no go", "rack-2 is off limits": a verdict on a place is a wish
    wishes = [m for m in WISH.finditer(sentence)
              if not (_PARTICIPLE.match(sentence, m.start()) and sentence[:m.start()].rstrip().endswith(","))]
    return not (wishes or WEAK.search(sentence) or STRONG.search(sentence) or NEGATION_AFTER.search(sentence))


# "Our GPUs are A100s, spread across two racks": after a comma, "spread across" describes where things are
_PARTICIPLE = re.compile(r"(?:spread|distributed|repartid[oa]s|verteilt)\s+"
                         r"(?:across|over|between|among|entre|(?:[uü]|ue)ber)\b")


# Questions about the cluster ("why does rack-3 overheat?") ask for an answer, not a placement.
_QUESTION = re.compile(
    r"^\W*(?:why(?! not| don'?t| no)|how(?! about)|what(?! about)|who|when|which|where|does anyone|do we|did|"
    r"is there|are there|has anyone|"
    # "does this cluster even have NVLink nodes?", "hat der Cluster NVMe?": yes/no questions about the cluster
    r"(?:does|do|is|are|has|have)\s+(?:this|the|our|that|these|any|we)\s+(?:[\w-]+\s+)?(?:cluster|nodes?|fleet|"
    r"racks?|zones?|machines?|hardware|gpus?|have|run|support)|"
    r"(?:hat|haben|gibt|ist|sind)\s+(?:der|die|das|unser\w*)\s+(?:cluster|knoten|rechenzentrum)|"
    r"(?:tiene|tienen|hay|es|son)\s+(?:el|los|la|las|nuestr[oa]s?)\s+(?:cl[uú]ster|nodos?|m[aá]quinas)|"
    r"can (?:someone|anyone|somebody) (?:explain|tell|check|look)|could (?:someone|anyone) (?:explain|tell|check)|"
    r"por qu[eé]|c[oó]mo|qu[eé]|qui[eé]n|cu[aá]ndo|alguien sabe|warum|wieso|weshalb|wie|was|wer|wann|gibt es|"
    r"kann (?:jemand|wer) (?:erkl(?:[aä]|ae)ren|sagen|pr(?:[uü]|ue)fen)|" + group("question_words") + r")(?![\w-])")


def is_question(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is a question about something (ends with "?" and opens with a question
    word); "can you put it in us-east-1?" is a request and stays."""
    tail = text[end:end + 2]
    # match on the slice: "^" never matches at a later ``pos`` ("¿Quién ...?", a second sentence)
    return "?" in tail and _QUESTION.match(text[start:end]) is not None and not (
        WISH.search(text, start, end) and re.search(r"(?<![\w-])(?:you|u|ustedes|usted|du|ihr|sie)(?![\w-])",
                                                    text[start:end]))
