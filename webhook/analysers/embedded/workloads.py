"""Relations to other workloads: "same node as the redis deployment", "nodes running kafka".

A relation needs a cue that says *where* (same node / zone / region as, next to, nodes running,
the zone where X runs) followed by the workload names. Names are read only right after such a cue,
so a number ("the 3 pods") or a common word never becomes a workload name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webhook.analysers.embedded.langdata import alternatives, group

NODE, ZONE, REGION = "node", "zone", "region"

_NODE_WORDS = group("level_node")
_ZONE_WORDS = r"(?:(?:datacenter |data center |data centre |availability |failure )?zones?|" + group("level_zone")[3:]
_REGION_WORDS = group("level_region")
_SAME = group("same_as_article")
_AS = group("as_word")
_NAMED_NEXT = r"(?=\s+(?:['\"«„`]|[a-z][\w]*-[\w-]+))"  # a quoted or a dashed name comes next

# (pattern, level). The pattern's end is where the names begin.
_CUES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), level) for p, level in (
    (rf"(?<![\w-]){_SAME}\s+{_ZONE_WORDS}\s+{_AS}\b", ZONE),
    (rf"(?<![\w-]){_SAME}\s+{_REGION_WORDS}\s+{_AS}\b", REGION),
    (rf"(?<![\w-]){_SAME}\s+{_NODE_WORDS}\s+{_AS}\b", NODE),
    (rf"\b(?:share|sharing|shares|comparta|compartir|teilen|teilt)\s+(?:a|the|any|un|una|el|la|einen|eine|den|die)?\s*"
     rf"{_ZONE_WORDS}\s+(?:with|con|mit)\b", ZONE),
    (rf"\b(?:share|sharing|shares|comparta|compartir|teilen|teilt)\s+(?:a|the|any|un|una|el|la|einen|eine|den|die)?\s*"
     rf"{_REGION_WORDS}\s+(?:with|con|mit)\b", REGION),
    (rf"\b(?:share|sharing|shares|comparta|compartir|teilen|teilt)\s+(?:a|the|any|un|una|el|la|einen|eine|den|die)?\s*"
     rf"{_NODE_WORDS}\s+(?:with|con|mit)\b", NODE),
    (rf"\b{_NODE_WORDS},?\s+(?:where|on which|donde|en (?:los|las|el|la) que|wo|auf denen|auf dem)\b", NODE),
    (rf"\b{_ZONE_WORDS},?\s+(?:where|in which|donde|en la que|wo|in der)\b", ZONE),
    # "the zone that hosts kafka", "the AZ which runs billing", "la zona que aloja mongo"
    (rf"\b{_ZONE_WORDS}\s+(?:that|which|que|die)\s+(?:hosts?|runs?|has|holds?|contains?|aloja|tiene|ejecuta|"
     rf"hostet|enth(?:[aä]|ae)lt)\b", ZONE),
    (rf"\b{_NODE_WORDS}\s+(?:that|which|que|die)\s+(?:hosts?|runs?|holds?|aloja|tiene|ejecuta|hostet)\b", NODE),
    # "whatever AZ the ledger service is in", "whichever region kafka runs in": names come before the verb
    *((rf"\b(?:whatever|whichever|the|which)\s+{words}(?=\s+(?:the\s+)?[\w'-]+(?:\s+(?:service|deployment|"
       rf"app|pods?))?\s+(?:is|are|runs?|lives?|sits?)\s+(?:in|on)\b)", level)
      for words, level in ((_ZONE_WORDS, ZONE), (_REGION_WORDS, REGION), (_NODE_WORDS, NODE))),
    # "away from the kafka-broker pods", "clear of any zone running X", "lejos de los pods de X",
    # "fern von den redis-Pods": a name followed (or, in Spanish, preceded) by a head noun
    (rf"\b(?:away from|away frm|far from|far away from|clear of|lejos del?|fern vo[nm]|weg vo[nm]|"
     rf"entfernt vo[nm]|getrennt vo[nm]|separad[oa]s? del?|apartad[oa]s? del?)\s+"
     rf"(?:the\s+|any\s+|all\s+|los\s+|"
     rf"las\s+|el\s+|la\s+|den\s+|dem\s+|der\s+|allen\s+)?"
     rf"(?:(?:noisy|busy|loud|heavy|chatty|hungry|other|ruidos[oa]s|lauten|l(?:[aä]|ae)rmenden)\s+)?"
     rf"(?:(?:{_NODE_WORDS}\s+(?:mit|with|con|running|hosting|del|de|von|vom|des|of)|"
     rf"(?:pods|r[eé]plicas|instancias)\s+(?:de|del))\s+(?=[a-z])|"
     # "lejos del deployment etl-runner", "weg vom Dienst billing-api": the head noun before a dashed name
     rf"(?:deployment|despliegue|servicio|service|dienst|app)\s+(?=[a-z][\w]*-[\w-]+)|(?=[a-z][\w'-]*(?:\s+and\s+[\w'-]+)?\s*"
     rf"(?:-?pods?|deployments?|services?|replicas|instances|workloads?|nodes|boxes|machines|hosts|knoten)(?![\w-])))",
     NODE),
    # "not on any node with redis", "nicht auf Knoten mit redis": names checked against hardware words below
    (rf"\b(?:any|a|the)?\s*{_NODE_WORDS}\s+(?:with|mit|con)\s+(?:the\s+|dem\s+|der\s+|"
     rf"den\s+|el\s+|la\s+)?(?=[a-z][\w-]*(?:\s+(?:pods?|deployment|running))?(?:\s+(?:teilen|teilt|zu teilen|"
     rf"compartir|comparta|share))?\s*(?:[.,;]|$))", NODE),
    (rf"\b{_ZONE_WORDS}\s+(?:running|hosting|that run|that host|with)\b", ZONE),
    (r"\b(?:pegad[oa]s?|pegadit[oa]s?|arrimad[oa]s?)\s+(?:a|al)\b", NODE),
    (r"\bcolo\s+(?:w/|with|wiht|con|mit)(?=\s)", NODE),
    (r"\bco-?schedul\w*\s+(?:w/|with|con|mit)(?=\s)", NODE),
    # "put it with the cache-svc pods": "with" + a name + a head noun
    (r"\b(?:put|place|run|schedule|keep|land|pon|ponlo|coloca|leg|pack)\s+(?:it|this|them|me|lo|es|sie)?\s*"
     r"(?:with|con|mit|bei)\s+(?:the\s+|los\s+|las\s+|den\s+|dem\s+)?(?=[a-z][\w'-]*\s*-?(?:pods?|deployment|service|"
     r"replicas|instances)(?![\w-]))", NODE),
    # "zone-separated from X", "host-isolated from X"
    (r"\b(?:zone|az)[- ]?(?:separated|apart|isolated|distinct|separate)\s+(?:from|de|von)\b", ZONE),
    (r"\b(?:node|host|machine)[- ]?(?:separated|apart|isolated|distinct|separate)\s+(?:from|de|von)\b", NODE),
    # "otra zona distinta a la de mongo", "una zona diferente de la de X"
    (rf"\b{_ZONE_WORDS}\s+(?:distinta|diferente|otra)\s+(?:a|de)\s+(?:la\s+)?(?:de|del)\b", ZONE),
    (rf"\b{_REGION_WORDS},?\s+(?:where|in which|donde|en la que|wo|in der)\b", REGION),
    (rf"\b{_NODE_WORDS}\s+(?:that are |which are |that're |that |which |currently |already )?"
     r"(?:running|hosting|hosts?|run(?:s)? by|que ejecutan|que corren|que tienen|auf denen)\b", NODE),
    (r"(?:\bco-?locat\w*|\bcollocat\w*|\bcolocar\w*|\bcol[oó]ca\w*)\s+(?:w/|w|with|wiht|wtih|whit|con|mit|"
     r"junto a)(?=\s)", NODE),
    (r"\b(?:next to|alongside|beside|together with|along with|buddies with|buddy up with|paired with|pair it with|"
     r"junto al?|junto con|juntit[oa]s? al?|al lado del?|neben|"
     r"zusammen mit|"
     r"bei)\b", NODE),
    (r"\b(?:near|close to|nearby|cerca del?|cerquita del?|nah bei|nahe bei|nahe (?=den |dem |der )|"
     r"in (?:der|die) n(?:[aä]|ae)he (?:von|der|des|vom))(?:\b|(?<= ))", NODE),
    (rf"\b{_NODE_WORDS}\s+(?:with|mit|con)\s+(?:the |dem |der |den |el |la |los |las )?"
     rf"(?=(?:deployment|despliegue|service|servicio|dienst|pods?)\b)", NODE),
    (r"(?<!anti-)(?<!anti)\b(?:pod )?affinity (?:with|to|for)\b", NODE),
    (r"(?<!anti-)(?<!anti)\b(?:afinidad (?:con|al?|por)|affinit(?:[aä]|ae)t (?:zu[mr]?|mit))(?=\s)", NODE),
    (r"\b(?:anti-?afinidad (?:con|al?)|anti-?affinit(?:[aä]|ae)t (?:zu[mr]?|mit|gegen))(?=\s)", NODE),
    # "otra zona que no sea la de mongo", "otro nodo que no sea el de X"
    (rf"\b(?:otra|distinta|diferente)\s+{_ZONE_WORDS}\s+que\s+no\s+sea\s+la\s+(?:de|del)\b", ZONE),
    (rf"\b(?:otro|distinto|diferente)\s+{_NODE_WORDS}\s+que\s+no\s+sea\s+el\s+(?:de|del)\b", NODE),
    (rf"\b(?:a |an )?(?:different|another|other|separate|distinta|otra|otro|distinto|eine andere|einer anderen|"
     rf"einem anderen|anderen?)\s+{_ZONE_WORDS}\s+(?:than|from|to|que|als)\b", ZONE),
    (rf"\b(?:a |an )?(?:different|another|other|separate|distinta|otra|otro|distinto|einem anderen|einen anderen|"
     rf"anderen?)\s+{_NODE_WORDS}\s+(?:than|from|to|que|als)\b", NODE),
    (r"\b(?:anti-?affinity (?:with|to|against)|apart from|separate from|separated from)\b", NODE),
    (r"\bwhere\b", NODE),
    # phrasings kept as data (lang/*/relation_*.txt): beside a workload, or away from it
    (rf"(?<![\w-]){group('relation_next_to')}(?=\s)", NODE),
    (rf"(?<![\w-]){group('relation_away')}(?=\s)", NODE),
    (rf"(?<![\w-]){group('relation_other_zone')}(?=\s)", ZONE),  # "another zone than X": away at zone level
    # "zonas con 'reporting'", "Knoten mit billing-api": a level word with a quoted or dashed name after it
    (rf"\b{_ZONE_WORDS}\s+{group('relation_with')}{_NAMED_NEXT}", ZONE),
    (rf"\b{_NODE_WORDS}\s+{group('relation_with')}{_NAMED_NEXT}", NODE),
))
# Cues whose relation is negative by themselves ("anti-affinity with X").
# Cue words that make a relation negative by themselves ("far from", "getrennt von"; lang/*/relation_negative.txt).
_NEGATIVE_CUE = re.compile(group("relation_negative") + "|" + group("relation_away") + "|"
                           + group("relation_other_zone"))

# Words around workload names (lang/*/): articles ("the", "l'"), head nouns ("deployment", "pods"),
# a leading verb of being there ("donde corre spark") and words that are never names.
_ARTICLES = re.compile(rf"(?:{group('articles')[3:-1]})\s+|{group('elided_articles')}")
_HEAD_NOUNS = group("head_nouns")[3:-1]
_HEAD = re.compile(rf"(?:{_HEAD_NOUNS})(?![\w-])")
_LEADING_VERB = re.compile(rf"{group('leading_verb')}\s+")
_NAME = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"|`([^`]{1,60})`|«([^»]{1,60})»|„([^“”]{1,60})[“”]|"
                   r"([a-z][a-z0-9._-]{0,60}[a-z0-9]|[a-z])(?![\w-])")
_JOIN = group("list_join")[3:-1]
_SEPARATOR = re.compile(rf"\s*(?:,\s*(?:{_JOIN})?|{_JOIN}|&|/)\s*")
_STOP = frozenset(alternatives("not_names"))
# What may follow a name at the end of a list item: punctuation, a head noun, a verb of being there,
# a preposition or a conjunction (lang/*/after_name.txt).
_AFTER_NAME = re.compile(r"\s*(?:$|[,.;:)&/]|(?:" + _HEAD_NOUNS + r")(?![\w-])|" + group("after_name") + r"(?![\w-]))")


# Names that are hardware, not workloads ("nodes with A100s", "nodes with NVMe").
_HARDWARE = re.compile(r"^(?:[a-z]{1,3}\d{1,4}[a-z]?s?|rtx\w*|ssds?|nvmes?|hdds?|\w*gpus?|\w*cpus?|\d[\w.-]*|"
                       r"nvlink\w*|infiniband|rdma|numa\w*)$|"
                       # compounds of disk words: "NVMe-SSDs", "ssd-disks", "flash-drives" ("gpu-operator" is a name)
                       r"^(?:nvmes?|ssds?|hdds?|flash)-(?:ssds?|nvmes?|disks?|drives?|platten?|discos?|speicher)$|"
                       r"^[a-z]+-(?:ssds?|nvmes?|hdds?)$")


@dataclass(frozen=True, slots=True)
class Relation:
    """A wish about other workloads: ``level`` node/zone/region, names, cue span, negative by cue."""

    level: str
    names: tuple[str, ...]
    start: int  # start of the cue
    end: int  # end of the last name
    negative: bool


def _names_after(text: str, position: int, limit: int) -> tuple[list[str], int]:
    """Workload names starting at ``position`` (after articles and head nouns), and where they end."""
    names: list[str] = []
    end = position
    first = True
    while position < limit:
        match = re.compile(r"\s*").match(text, position)
        position = match.end() if match else position
        # skip articles, a leading head noun ("the deployment 'x'", "el despliegue redis") and a verb of
        # being there that comes first in Spanish ("donde corre spark")
        for _ in range(4):
            skip = _ARTICLES.match(text, position) or (
                (_HEAD.match(text, position) or _LEADING_VERB.match(text, position)) if first else None)
            if not skip:
                break
            position = skip.end()
            position = re.compile(r"\s*").match(text, position).end()
        name_match = _NAME.match(text, position, limit)
        if not name_match:
            break
        quoted = next((g for g in name_match.groups()[:5] if g), None)
        name = quoted if quoted is not None else name_match.group(6)
        name = name.strip(" .,")
        if quoted is None:
            # "nginx-Pods", "checkout-Dienst": German compounds of name and head ("billing-service" stays)
            name = re.sub(r"-(?:pods?|deployments?|replicas?|dienste?s?)$", "", name)
        if not name:
            break
        if quoted is None:
            if name in _STOP or name.isdigit() or _HEAD.fullmatch(name):
                break
            # a later bare name must look like the end of a list item, never the start of a new clause
            if not first and not _AFTER_NAME.match(text, name_match.end()):
                break
        names.append(name)
        end = name_match.end()
        first = False
        separator = _SEPARATOR.match(text, end)
        head = _HEAD.match(text, re.compile(r"\s*").match(text, end).end())
        if head and not separator:
            end = head.end()
            break  # a list of names comes before its head noun: "the redis and memcached pods"
        if not separator:
            break
        position = separator.end()
    return names, end


def find_relations(text: str, start: int = 0, end: int | None = None) -> list[Relation]:
    """Relations to other workloads in ``text[start:end]`` (lower-cased)."""
    end = len(text) if end is None else end
    found: list[Relation] = []
    used: list[tuple[int, int]] = []
    for pattern, level in _CUES:
        for cue in pattern.finditer(text, start, end):
            if any(cue.start() < e and s < cue.end() for s, e in used):
                continue
            names, names_end = _names_after(text, cue.end(), end)
            # "where the api-gateway lives": after a bare "where" the names must be followed by a verb of being there
            if pattern.pattern == r"\bwhere\b" and (not names or not re.match(
                    r"\s*(?:runs|lives|is|sits|run|live|resides|is running|are)\b", text[names_end:])):
                continue
            names = [n for n in names if not _HARDWARE.match(n)]
            if not names:
                continue
            used.append((cue.start(), names_end))
            found.append(Relation(level, tuple(names), cue.start(), names_end,
                                  bool(_NEGATIVE_CUE.search(cue.group(0)))))
    found.sort(key=lambda r: r.start)
    return found
