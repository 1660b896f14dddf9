"""Relations to other workloads: "same node as the redis deployment", "nodes running kafka".

A relation needs a cue that says *where* (same node / zone / region as, next to, nodes running,
the zone where X runs) followed by the workload names. Names are read only right after such a cue,
so a number ("the 3 pods") or a common word never becomes a workload name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from webhook.analysers.embedded.langdata import alternatives, expand, group, languages
from webhook.analysers.embedded.language import vocabulary
from webhook.analysers.embedded.lexicon import NUMBER_WORDS, compile_words
from webhook.analysers.embedded.prefilter import Prefiltered
from webhook.analysers.embedded.slots import extract
from webhook.analysers.embedded.typos import unaccented

NODE, ZONE, REGION = "node", "zone", "region"

_NAMED_NEXT = r"(?=\s+(?:['\"«„`]|[a-z][\w]*-[\w-]+))"  # a quoted or a dashed name comes next
# The one name a possessive cue names before its level word ("kafka-broker's zone").
_NAME_GROUP = "name"
_POSSESSOR = rf"(?<![\w'’-])(?P<{_NAME_GROUP}>[a-z][a-z0-9._-]{{0,60}}[a-z0-9])"
# ... typed without its apostrophe ("kafka-brokers zone"): only a dashed name, so a plain word ("the pods zone",
# "minios host") is never taken for a workload; the "s" is the possessive's, not the name's
_POSSESSOR_BARE = rf"(?<![\w'’-])(?P<{_NAME_GROUP}>[a-z][a-z0-9._]*-[a-z0-9._-]{{0,60}}[a-z])s"

# The relation cues (relations.json), in order: an earlier cue claims its words before a later one.
# Each names the levels it reads, its templates (``{level}`` is the level's words) and, optionally,
# a concept that must follow the names ("where the api-gateway lives"). The words are in lang/<code>/.
RELATIONS = Path(__file__).resolve().parent / "relations.json"


@dataclass(frozen=True, slots=True)
class _Cue:
    pattern: Prefiltered  # run only over text where a match can start
    level: str
    followed_by: re.Pattern[str] | None = None
    # a plain word is a name only when marked as one (a dash, quotes, a head noun) or named by
    # another relation of the hint ("the zone of billing" after "the same zone as billing"); "zone of
    # failure", "nœud de calcul" name no workload.
    marked_only: bool = False
    name_group: bool = False  # the one name is the pattern's group ``name``, before the level (a possessive)
    negative: bool = False  # the cue refuses by itself ("no kafka pods on my node")
    back: bool = False  # names no workload itself: the one of the relation before ("pero no en su nodo")
    pronoun: bool = False  # holds its pronoun: names the one dashed or quoted name before it ("a su lado")


def load_relation_cues(path: Path = RELATIONS) -> tuple[_Cue, ...]:
    """Every relation cue of the spec file, compiled once per level it reads."""
    cues = []
    for spec in json.loads(path.read_text(encoding="utf-8")):
        followed = spec.get("followed_by")
        after = re.compile(r"\s*" + expand("{" + followed + "}") + r"\b") if followed else None
        for level in spec["levels"]:
            fragments = {"level": expand("{level_" + level + "}"), "quoted_or_dashed": _NAMED_NEXT,
                         "possessor": _POSSESSOR, "possessor_bare": _POSSESSOR_BARE}
            pattern = "|".join(expand(template, fragments) for template in spec["patterns"])
            cues.append(_Cue(Prefiltered(re.compile(pattern)), level, after, spec.get("marked", False),
                             spec.get("name_group", False), spec.get("negative", False),
                             spec.get("anaphora", False), spec.get("pronoun", False)))
    return tuple(cues)


_CUES = load_relation_cues()
# Cue words that make a relation negative by themselves: anti-affinity words ("far from", "getrennt von";
# lang/*/anti_affinity.txt), and "other", "different" said of a relation (lang/*/relation_negative.txt).
_NEGATIVE_CUE = re.compile(group("anti_affinity") + "|" + group("relation_negative") + "|" + group("relation_away")
                           + "|" + group("relation_other_zone"))

# Words around workload names (lang/*/): articles ("the", "l'"), head nouns ("deployment", "pods"),
# a leading verb of being there ("donde corre spark") and words that are never names.
_ARTICLES = re.compile(rf"(?:{group('articles')[3:-1]})\s+|{group('elided_articles')}")
_HEAD_NOUNS = group("head_nouns")[3:-1]
_HEAD = re.compile(rf"(?:{_HEAD_NOUNS})(?![\w-])")
_LEADING_VERB = re.compile(rf"(?:{group('leading_verb')}|{group('already')}|{group('also')})\s+")
# "deployment/redis", "sts/postgres": a workload's kind before a slash (lang/en/workload_kind.txt) marks the name
# after it
_KIND_SLASH = re.compile(group("workload_kind") + r"/(?=[a-z])|"
                         # ... and so does a selector's key ("app=redis", lang/en/workload_label_key.txt)
                         + group("workload_label_key") + r"\s*[=:]\s*(?=[a-z])")
# "the service called billing-api", "el servicio llamado billing-api": a naming word before the name is no name
_CALLED = re.compile(group("called_word") + r"\s+")
_MARKED = re.compile(r"[-_.\d]")  # a name's shape that no plain word has ("mysql-primary", "app_v2")
_NAME = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"|`([^`]{1,60})`|«([^»]{1,60})»|„([^“”]{1,60})[“”]|"
                   r"([a-z][a-z0-9._-]{0,60}[a-z0-9]|[a-z])(?![\w-])")
_DESCRIBED = re.compile(r"\s+(?=[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-]))")  # a dashed name comes next
_JOIN = group("list_join")[3:-1]
# a joining word is a whole word: the "o" of ", obligatorisch" joins nothing
_SEPARATOR = re.compile(rf"\s*(?:,\s*(?:(?:{_JOIN})(?![\w-]))?|(?:{_JOIN})(?![\w-])|&|/)\s*")
# a pronoun pointing back is never a name ("à côté de lui", "neben ihm")
_STOP = frozenset(alternatives("not_names")) | frozenset(alternatives("back_pronoun"))
# A level's own word is never a workload's name: "loin de la baie b07" names a rack, not a workload "baie".
_LEVEL_WORD = re.compile(expand("(?:{level_node}|{level_rack}|{level_zone}|{level_region})"))
# An accented word is never a name (names are DNS labels), and neither is its spelling without the
# accents: "colle-le a cote de redis" is "à côté de", with no workload called "cote". English words
# stay possible names ("cluster" is also Spanish "clúster").
_UNACCENTED_WORDS = frozenset(unaccented(w) for code in languages() for w in vocabulary(code).words
                              if unaccented(w) != w) - vocabulary("en").words
# a later bare name that is a wish, a refusal or a strength word opens a new clause ("same region as
# orders-api, unverzichtbar": the strength of the wish, no second workload)
_NEW_WISH = compile_words(*alternatives("wish"), *alternatives("negation_before"), *alternatives("strong"),
                          *alternatives("weak"))
# A head noun joined to the name by a dash: cut when plural ("redis-pods": the pods of redis) or written
# as a noun of its own (German capitals: "checkout-Dienst"); else it is part of the name ("mongo-replica").
_HEAD_PLURAL = re.compile(rf"-{group('name_head_plural')}$")
_HEAD_SINGULAR = re.compile(rf"-{group('name_head')}$")
# What may follow a name at the end of a list item: punctuation, a head noun, a verb of being there,
# a preposition or a conjunction (lang/*/after_name.txt).
_AFTER_NAME = re.compile(r"\s*(?:$|[,.;:)&/]|(?:" + _HEAD_NOUNS + r")(?![\w-])|" + group("after_name") + r"(?![\w-]))")


# Names that are hardware, not workloads ("nodes with A100s", "nodes with NVMe").
_HARDWARE = re.compile(expand(r"^(?:[a-z]{1,3}\d{1,4}[a-z]?s?|{hardware_words}|\d[\w.-]*)$|"
                              # compounds of disk words: "NVMe-SSDs", "ssd-disks" ("gpu-operator" is a name)
                              r"^{disk_kind}-(?:{disk_kind}|{disk_nouns})$|^[a-z]+-{disk_kind}$"))


@dataclass(frozen=True, slots=True)
class Relation:
    """A wish about other workloads: ``level`` node/zone/region, names, cue span, negative by cue."""

    level: str
    names: tuple[str, ...]
    start: int  # start of the cue
    end: int  # end of the last name
    negative: bool


def _without_head(name: str, original: str) -> str:
    """``name`` (lower case) without a head noun joined to it that is not part of the name; ``original``
    is the hint as written (a dashed name is never corrected for typos, so it is there as it stands)."""
    plural = _HEAD_PLURAL.search(name)
    if plural:
        return name[:plural.start()]
    singular = _HEAD_SINGULAR.search(name)
    if singular and any(m.group(0)[singular.start() + 1].isupper()
                        for m in re.finditer(re.escape(name), original, re.IGNORECASE)):
        return name[:singular.start()]
    return name


def _names_after(text: str, position: int, limit: int, original: str) -> tuple[list[str], int, bool]:
    """Workload names starting at ``position`` (after articles and head nouns), where they end, and whether
    they are marked as names (quoted, dashed, or with a head noun: "the deployment x", "the x service");
    ``original``: the hint as written, where the case of a head noun tells it from a name's part."""
    names: list[str] = []
    end = position
    first = True
    marked = True
    while position < limit:
        match = re.compile(r"\s*").match(text, position)
        position = match.end() if match else position
        # skip articles, a leading head noun ("the deployment 'x'", "el despliegue redis") and a verb of
        # being there that comes first in Spanish ("donde corre spark")
        headed = False
        for _ in range(4):
            kind = _KIND_SLASH.match(text, position, limit)
            if kind:  # "deployment/redis": the kind marks the name after it
                position, headed = kind.end(), True
                break
            head = _HEAD.match(text, position) if first else None
            skip = _ARTICLES.match(text, position) or head or (
                (_LEADING_VERB.match(text, position) or _CALLED.match(text, position)) if first else None)
            if not skip:
                break
            headed = headed or head is not None
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
            name = _without_head(name, original)
        if not name:
            break
        if quoted is None:
            if (name in _STOP or name in _UNACCENTED_WORDS or name.isdigit() or _HEAD.fullmatch(name)
                    or _LEVEL_WORD.fullmatch(name)):
                break
            # "le cache redis-lru", "the db pg-main": a plain word right before a dashed name describes it
            # (a place or a node there is said beside the workload: "same zone as redis us-east-1a")
            described = _DESCRIBED.match(text, name_match.end()) if first and not _MARKED.search(name) else None
            if described and not extract(_NAME.match(text, described.end()).group(0)):
                position = name_match.end()
                continue
            # a later bare name must look like the end of a list item, never the start of a new clause
            if not first and (not _AFTER_NAME.match(text, name_match.end()) or _NEW_WISH.fullmatch(name)):
                break  # "..., stay in us-east-2": a wish word opens a new clause, it is no name
        names.append(name)
        end = name_match.end()
        first = False
        marked = marked and (quoted is not None or headed or _MARKED.search(name) is not None)
        separator = _SEPARATOR.match(text, end)
        head = _HEAD.match(text, re.compile(r"\s*").match(text, end).end())
        if head and not separator:
            end = head.end()
            return names, end, True  # a list of names comes before its head noun: "the redis and memcached pods"
        if not separator:
            break
        position = separator.end()
    return names, end, marked and bool(names)


# "kafka-broker is noisy, don't land next to it": a pronoun right after a cue (lang/*/back_pronoun.txt) points
# back at the one workload named before it, a dashed or quoted name (places and nodes among them are dropped by
# the rules, which know the hint's places)
_POINTER = re.compile(r"\s*" + group("back_pronoun") + r"(?![\w'-])")
# a demonstrative that stands for the workload only at its clause's end or before the verb that places the pod
# ("bitte nicht neben den setzen"): read before any name, or the verb would be taken for one
_POINTER_FIRST = re.compile(r"\s*" + group("back_demonstrative") + r"(?![\w'-])")
_ANTECEDENT = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"|`([^`]{1,60})`|"
                         r"(?<![\w'-])([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+)(?![\w-])")


def _antecedent(text: str, start: int, end: int) -> list[str]:
    """The one workload name a pronoun at ``end`` points back at: the only dashed or quoted name in
    [start, end) (none when there are several: which one is meant is not certain)."""
    found = {next(g for g in m.groups() if g) for m in _ANTECEDENT.finditer(text, start, end)}
    found = {n for n in found if n not in _STOP and not _HARDWARE.match(n)}
    return sorted(found) if len(found) == 1 else []


_EACH_BEFORE = re.compile(expand(r"{b}{each_words}{e}[^,;.]*$"))
# A pronoun for a workload named before, standing alone after a relation's cue ("sin compartir máquina con él").
_BACK_PRONOUN = re.compile(expand(r"\s*{back_pronoun}(?:\s+{share_verb})?"
                                  r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:{and_word}|{or_word})(?![\w-]))"))


# A level said right after the workload's name sets the relation's level ("close to auth-svc region-wise",
# "proche de sso-gateway côté région"): a near-by relation reads the node by default.
_LEVEL_AFTER = {level: re.compile(r"\s*,?\s*(?:" + expand(r"{level_wise_before}\s*(?:{articles}\s+)?") + said + "|"
                                  + said + expand("{level_wise_after}") + r")(?![\w-])")
                for level, said in ((lv, expand("{level_" + lv + "}")) for lv in (NODE, ZONE, REGION))}


def _level_after(text: str, end: int) -> tuple[str, int] | None:
    """The level said right after the names that end at ``end``, and where it ends; or None."""
    for level, pattern in _LEVEL_AFTER.items():
        found = pattern.match(text, end)
        if found:
            return level, found.end()
    return None


def find_relations(text: str, start: int = 0, end: int | None = None, original: str = "") -> list[Relation]:
    """Relations to other workloads in ``text[start:end]`` (lower-cased); ``original``: the hint as written."""
    end = len(text) if end is None else end
    found: list[Relation] = []
    used: list[tuple[int, int]] = []
    unmarked: list[Relation] = []  # relations of "marked" cues whose names are plain words
    pointing_back: list[Relation] = []  # cues whose names are a pronoun: the workload of the relation before
    for spec in _CUES:
        for cue in spec.pattern.finditer(text, start, end):
            if any(cue.start() < e and s < cue.end() for s, e in used):
                continue
            if spec.back:
                # "cada réplica en su nodo" is each replica's own node, no workload's
                if not _EACH_BEFORE.search(text, 0, cue.start()):
                    pointing_back.append(Relation(spec.level, (), cue.start(), cue.end(), False))
                    used.append((cue.start(), cue.end()))
                continue
            pointer = None
            if spec.name_group:
                name = cue.group(_NAME_GROUP)
                # "no two replicas in the same zone": a number is never a workload's name
                names, names_end, marked = ([] if name in _STOP or name in NUMBER_WORDS or _HEAD.fullmatch(name)
                                            else [name]), cue.end(), True
            elif spec.pronoun:
                names, names_end, marked = _antecedent(text, start, cue.start()), cue.end(), True
            else:
                first = _POINTER_FIRST.match(text, cue.end(), end)
                names, names_end, marked = ([], cue.end(), False) if first else _names_after(
                    text, cue.end(), end, original)
                pointer = (first or _POINTER.match(text, cue.end(), end)) if not names else None
                if pointer:
                    names, names_end, marked = _antecedent(text, start, cue.start()), pointer.end(), True
            # "where the api-gateway lives": after a bare "where" the names must be followed by a verb of being there
            if spec.followed_by and (not names or not spec.followed_by.match(text, names_end)):
                continue
            names = [n for n in names if not _HARDWARE.match(n)]
            # a pronoun standing alone ("ne partage pas le nœud avec lui") that named no antecedent above: the
            # workload of the relation before it
            back = (_BACK_PRONOUN.match(text, cue.end())
                    if not (pointer and names) and not spec.name_group and not spec.followed_by else None)
            if back and not any(cue.start() < e and s < back.end() for s, e in used):
                pointing_back.append(Relation(spec.level, (), cue.start(), back.end(),
                                              bool(_NEGATIVE_CUE.search(cue.group(0)))))
                used.append((cue.start(), back.end()))
                continue
            if not names:
                continue
            level = spec.level
            said = None if spec.name_group else _level_after(text, names_end)
            if said is not None:
                level, names_end = said
            relation = Relation(level, tuple(names), cue.start(), names_end,
                                spec.negative or bool(_NEGATIVE_CUE.search(cue.group(0))))
            if spec.marked_only and not marked:
                unmarked.append(relation)
                continue
            used.append((cue.start(), names_end))
            found.append(relation)
    known = {n for r in found for n in r.names}
    found += [r for r in unmarked if set(r.names) <= known and not any(r.start < e and s < r.end for s, e in used)]
    found.sort(key=lambda r: r.start)
    for relation in pointing_back:
        before = [r for r in found if r.end <= relation.start]
        if before:
            found.append(Relation(relation.level, before[-1].names, relation.start, relation.end, relation.negative))
    found.sort(key=lambda r: r.start)
    return found
