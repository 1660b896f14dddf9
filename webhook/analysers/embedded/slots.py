"""Exact slot extraction: names and numbers with units, found by rule in the lower-cased hint.

Each extractor returns ``Slot`` records with character spans. Extraction runs in a fixed order
(quantities before node names, zones before regions, ...) and a later extractor never claims
characters an earlier one took, so ``200Gi`` is a size and never a node, and ``gpu-node-7`` is a
node and never a GPU wish.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from webhook.analysers.embedded.langdata import alternatives, expand, group, table
from webhook.analysers.embedded.lexicon import NUMBER_WORDS, TROUBLE, words


@dataclass(frozen=True, slots=True)
class Slot:
    """One extracted value. ``kind``: zone, region, rack, node, gpu_model, cores, gpus, size, rate."""

    kind: str
    value: str | float
    start: int
    end: int
    # a zone known only by the level word before it ("az checkout-v2"), not by its shape: a workload's name
    # there when a relation names it ("same az as checkout-v2")
    by_level_word: bool = False


RACK = "rack"  # the canonical rack name: "rack 3", "rack_3", "bastidor 3" are all rack-3

# --- numbers with units --------------------------------------------------------------------------------

_NUM = r"(\d+(?:[.,]\d{1,2}(?!\d))?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
# unit pattern -> GB / Gbps ("to(?=\s+de)": French terabytes, never English "2 to 4")
_SIZE_UNITS = table("unit_size")
_RATE_UNITS = table("unit_rate")
_CORE_UNITS = alternatives("unit_cores")
_GPU_UNITS = alternatives("unit_gpus")

# "24 or more cores", "16+ cores", "16 ou plus de cœurs": words between the number and its unit (lang/*/or_more.txt)
_OR_MORE = expand(r"(?:\+\s?|{or_more}\s+(?:{of_word}\s+)?)?")
_QUANTITY = re.compile(
    r"(?<![\w.-])" + _NUM + r"\s?(?:-\s?)?" + _OR_MORE + r"("
    + "|".join(sorted(_RATE_UNITS, key=len, reverse=True)) + r"|"
    + "|".join(sorted(_SIZE_UNITS, key=len, reverse=True)) + r"|"
    + "|".join(sorted(_CORE_UNITS, key=len, reverse=True)) + r"|"
    + "|".join(sorted(_GPU_UNITS, key=len, reverse=True)) + r"|[x×](?=\s?[a-z]))(?![\w]|-\d|-[a-z]+-\d)"
)  # a unit that opens a node's name counts nothing: "a gpu-node-3", "a gpu-7"


# Each number word and unit is tried on its own against what the pattern above found: compiled once here
# rather than looked up at each try in the re module's bounded cache (which compiles them again once the
# hint's names have pushed them out).
_NUMBER_WORDS = [(re.compile(pattern), value) for pattern, value in NUMBER_WORDS.items()]
_UNIT_FACTORS = [(kind, [(re.compile(pattern), factor) for pattern, factor in units.items()])
                 for kind, units in (("rate", _RATE_UNITS), ("size", _SIZE_UNITS))]
_CORE_UNIT_PATTERNS = [re.compile(unit) for unit in _CORE_UNITS]


def parse_number(text: str) -> float | None:
    """``"16"`` -> 16.0, ``"1,5"`` -> 1.5, ``"two"``/``"zwei"`` -> 2.0; None if not a number."""
    text = text.strip()
    if text and text[0].isdigit():
        return float(text.replace(",", "."))
    for pattern, value in _NUMBER_WORDS:
        if pattern.fullmatch(text):
            return float(value)
    return None


def _unit_kind(unit: str) -> tuple[str, float]:
    for kind, units in _UNIT_FACTORS:
        factor = next((f for pattern, f in units if pattern.fullmatch(unit)), None)
        if factor is not None:
            return kind, factor
    if any(pattern.fullmatch(unit) for pattern in _CORE_UNIT_PATTERNS):
        return "cores", 1.0
    return "gpus", 1.0  # GPU units and "Nx <model>"


# --- GPU models ---------------------------------------------------------------------------------------

_ARTICLES = frozenset(alternatives("one_article"))  # "a", "un", "eine": a count of one
# "2 A100s", "four H100", "a pair of L4": a number (never a bare article) right before a model
_COUNT_BEFORE_MODEL = re.compile(r"(?<![\w.,-])(\d{1,2}|" + "|".join(
    sorted((w for w in NUMBER_WORDS if w not in _ARTICLES), key=len, reverse=True)) + r")\s*(?:[x×]\s*)?$")
# "4 80GB A100s", "two 40 GB A100": a count before the size of each model
_COUNT_BEFORE_SIZED_MODEL = re.compile(r"(?<![\w.,-])(\d{1,2}|" + "|".join(
    sorted((w for w in NUMBER_WORDS if w not in _ARTICLES), key=len, reverse=True)) + r")\s+\d{2,3}\s?(?:"
    + "|".join(sorted(_SIZE_UNITS, key=len, reverse=True)) + r")\s*$")
# "ein Paar H200", "an H100 pair": a pair of GPUs said only of a model or of GPUs (lang/*/gpu_pair_before.txt,
# gpu_pair_after.txt; "ein paar" is also "a few", so it counts two only before a model)
_PAIR_BEFORE_MODEL = re.compile(expand(r"(?<![\w-]){gpu_pair_before}\s+$"))
_PAIR_AFTER_MODEL = re.compile(expand(r"\s*{gpu_pair_after}(?![\w])"))
# "2x gpu", "4× GPUs": a multiplied count before a GPU unit
_GPU_UNIT_AFTER = re.compile(expand(r"\s?{unit_gpus}(?![\w-])"))
# "four NVLink-bridged GPUs", "2 dedicated GPUs": a count before words that qualify the GPUs (lang/*/gpu_qualifier.txt,
# lang/en/gpu_link.txt)
_COUNT_BEFORE_QUALIFIED = re.compile(expand(r"(?<![\w.-])" + _NUM + r"\s+(?:(?:{gpu_qualifier}|{gpu_link})\s+){1,2}"
                                            r"(?={unit_gpus}(?![\w]))"))
_MILLICORES = re.compile(expand(r"(?<![\w.-])(\d{2,6})m\s+(?:{of_word}\s+)?{unit_cores}(?![\w])"))
# ... and as a resource spec writes them, after their label: "cpu: 3500m", "cpu=500m"
_LABELLED_MILLICORES = re.compile(expand(r"{b}{unit_cores}\s*[:=]\s*(\d{2,6})m(?![\w.])"))

# ... never the start of a node's name ("a100-node-2": a node, no GPU wish)
_GPU_MODEL = re.compile(expand(r"(?<![\w-])(?:{gpu_vendor}\s+)?({gpu_model_names})(?:s|'s)?"
                               r"(?![\w]|-{node_name_prefix}-?\d)"))

# --- topology names -------------------------------------------------------------------------------------

_DIRECTION = group("cloud_direction")
_AWS_REGION = r"[a-z]{2}(?:-gov|-iso[a-z]?)?-" + _DIRECTION + r"-\d{1,2}"
_GCP_REGION = group("cloud_geography") + "-" + _DIRECTION + r"\d{1,2}"
_ZONE = re.compile(r"(?<![\w-])(?:(" + _AWS_REGION + r")([a-z])|(" + _GCP_REGION + r")-([a-z]))(?![\w-])")
# "us-east-1a or 1b", "us-east-1a/b", "eu-west-1a, 1b and 1c"
_JOIN = rf"\b{group('list_join')}\b"  # "and", "or", "y", "und", "et", ...
_ZONE_TAIL = re.compile(rf"\s*(?:/|,|{_JOIN})\s*"
                        r"(?:(\d{1,2})([a-z])|([a-z]))(?![\w-])")
_REGION = re.compile(r"(?<![\w-])(" + _AWS_REGION + r"|" + _GCP_REGION + r")(?![\w-])")
_AZURE_REGIONS = re.compile(words(*alternatives("cloud_azure_region")))
# "uksouth-3", "switzerlandnorth-2": an Azure availability zone, its region and zone number
_AZURE_ZONE = re.compile(r"(?<![\w-])" + group("cloud_azure_region") + r"-[1-3](?![\w-])")
# Geographic names count only after a locative word ("in Europe", "located in Asia", "en Europa").
_GEO = re.compile(rf"(?:(?<![\w-]){group('geo_locative')}\s+)({group('geo_names')[3:-1]})(?![\w-])")
_GEO_NAMES = rf"({group('geo_level_names')[3:-1]})"
# "US regions", "regiones de Europa", "Regionen in Europa": a geography named with the level word
_GEO_REGIONS = re.compile(expand(r"{b}" + _GEO_NAMES + r"(?=\s+{level_region}{e})|"
                                 r"{b}{level_region}\s+{place_preposition}\s+(?:{articles}\s+)?" + _GEO_NAMES + "{e}"))
_LEADING_ARTICLE = re.compile(rf"^{group('articles')}\s+")
# Names written after their level word ("rack r4-07", "rack rk-2", "zone westeurope-2"), kept as written.
# "rack labelled r-west-09", "nodo llamado db-3", "Knoten namens k-7": the name after a naming word
_CALLED = r"(?:" + group("called_word") + r"\s+)?"
_RACK_NAMED = re.compile(r"(?<![\w-])" + group("level_rack") + r"\s+" + _CALLED
                         + r"((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)*)"
                         r"(?![\w-])")
# "one per rack across r1/r2/r3", "una por rack en rk-1/rk-2", "un par rack sur rk-a/rk-b": a level word, a
# preposition and a list of names of one shape, slash-separated: the racks it names (a dash or a digit in each)
_RACK_ACROSS = re.compile(r"(?<![\w-])" + group("level_rack") + r"\s+(?:" + group("across_word") + r"|"
                          + group("place_preposition") + r")\s+"
                          r"((?=[a-z0-9]*[\d-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=/[a-z])")
_SLASH_TAIL = re.compile(r"/((?=[a-z0-9]*[\d-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
_NAMED_TAIL = re.compile(rf"\s*(?:,|/|&|({_JOIN}))\s*(?:{group('place_preposition')}\s+)?(?:{group('articles')}\s+)?"
                         rf"(?:{group('level_rack')}\s+)?"
                         r"((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
# "racks b12 or cab-07": the last item of a joined list, of another shape, is still a rack unless it names
# another level ("rack r-01 or us-east-1", "rack r-01 and node-7", "rack b2 and k-3 nodes")
_OTHER_LEVEL_AFTER = re.compile(r"\s+" + expand("(?:{level_node}|{level_zone}|{level_region}){e}"))
_ZONE_NAMED = re.compile(r"(?<![\w-])" + group("level_zone") + r"\s+"
                         r"((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)+)"
                         r"(?![\w-])")
_AZ_ID = re.compile(r"(?<![\w-])([a-z]{3}\d{1,2}-az\d{1,2})(?![\w-])")  # AWS zone ids: "use1-az4"
# Fully qualified node names ("ip-10-1-4-22.eu-west-1.compute.internal") hold region names: read them first.
# So do other hosts' full names, a first label with a digit and two or more labels of words after it
# ("infra-1.ocp.example.com", "esx12.dc2.corp"; never a version, "v1.29.3", nor a link's or image's host, "/" after)
_FQDN_NODE = re.compile(r"(?<![\w.-])(" + group("node_name_prefix") + r"-[a-z0-9-]*\d[a-z0-9-]*(?:\.[a-z0-9-]+){2,})"
                        r"(?![\w-])|"
                        r"(?<![\w.@/:-])((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z][a-z0-9-]*){2,})"
                        r"(?![\w-]|\.\w|:\d|/)")
# an IPv4 address is a node only after a node's level word ("node 10.0.3.17"), never by its shape alone
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_RACK = re.compile(r"(?<![\w-])" + group("level_rack")
                   + r"(?:[-_](\d{1,3}[a-z]?|[a-z]\d{0,2}|[a-z]{2,3}\d{1,3})|(\d{1,3}[a-z]?))(?![\w-])")


def _spaced(level: str) -> re.Pattern[str]:
    """A level word, then numbers and a list of them: "rack 3", "racks 3 and 4", "zona 2", "Zone 2 oder 3"."""
    return re.compile(r"(?<![\w-])" + group(level) + r"\s+(\d{1,3})((?:\s*(?:,|/|&|" + _JOIN
                      + r")\s*\d{1,3}(?![\w-]))*)")


_RACK_SPACED = _spaced("level_rack")
# A zone known by its level word and a number only ("zone 3", "la zona 2", "az 2") is zone-3, as "rack 3" is
# rack-3; a zone whose name spells its level word ("zone-3", "zone_b", "az1", "zone2") is that name as written,
# never a node. A lone letter after a spaced level word is no name: "zone a" may be the article or a verb ("la zone
# a des latences"), "zona y" a conjunction.
ZONE = "zone"
_ZONE_SPACED = _spaced("level_zone")
_ZONE_SPELLED = re.compile(r"(?<![\w.-])(" + group("level_zone") + r"(?:[-_]?\d{1,2}|[-_][a-z]))(?![\w-]|\.\w)")
# "spread across racks 4 HA": racks in general, not rack 4
_RACKS_IN_GENERAL = re.compile(expand(r"(?:{across_word}|{several_words})\s+$"))
_ZONE_TAIL_END = re.compile(expand(r"\s+(?:{list_join}|{level_zone})\b"))

# --- node names -----------------------------------------------------------------------------------------

# "node07", "k8s-worker-02", "w-4", "scw-fr-par-2-n5" (a site's parts, numbers among them, before the prefix),
# "gpu-a100-03" (a dashed tail after a model-like part: no GPU wish),
# a site code between the prefix and the number ("bm-lon-14", "n-ams-22", "w-fra-3"),
# and a managed pool's names ("gke-pool-a-1b2c", "aks-nodepool1-12345678-vmss000002")
_NODE_SHAPED = re.compile(expand(
    r"{b}((?:[a-z][a-z0-9]*-(?:[a-z0-9]+-)*)?{node_name_prefix}-?\d+(?:-\d+)*[a-z]?(?:\.[a-z0-9-]+)*|"
    r"(?:[a-z][a-z0-9]*-)*{node_name_prefix}-[a-z]{1,3}\d+[a-z0-9]*(?:-[a-z0-9]*\d[a-z0-9]*)*|"
    r"(?:[a-z][a-z0-9]*-)*{node_name_prefix}(?:-[a-z]{2,4}){1,2}-\d+[a-z]?|"
    r"{node_pool_prefix}-(?=[a-z0-9-]*\d)[a-z0-9]+(?:-[a-z0-9]+)*|{node_id_shape}){e}"
))
_NODE_CONTEXT = re.compile(
    r"(?<![\w-])" + group("level_node") + r"\s+" + _CALLED
    + r"((?:[a-z0-9]+[-_.])*[a-z]*\d[a-z0-9]*(?:[-_.][a-z0-9]+)*)(?![\w-])"
)
# "land on hx-03 or hx-04": a short dashed name of letters and a number after the node's preposition is a node
# ("sur db-new-08": a word may stand between the letters and the number)
_ON_NODE_NAME = r"([a-z]{1,4}\d?(?:-[a-z]{2,6})?-\d{1,3}[a-z]?)(?![\w-]|\.\w)"
_ON_NODE = re.compile(r"(?<![\w-])" + group("node_preposition") + r"\s+" + _ON_NODE_NAME)
# "avoid kn-ham-40", "evita el wk-mad-17", "kn-ham-40 meiden", "don't use kw-12": so is one a refusal names as its
# object
_REFUSED_NODE = re.compile(r"(?<![\w-])" + group("negation_before") + r"\s+(?:" + group("wish") + r"\s+)?(?:"
                           + group("articles") + r"\s+)?" + _ON_NODE_NAME)
# "nicht auf render-07", "pas sur gpuwrk-03", "no en nodo-x-07": after a refusal and a preposition a longer
# word may name the node ("render-07" is no node by its shape alone)
_REFUSED_ON_NODE = re.compile(r"(?<![\w-])" + group("negation_before") + r"\s+(?:" + group("node_preposition")
                              + "|" + group("place_preposition") + r")\s+(?:" + group("articles") + r"\s+)?"
                              + r"([a-z]{1,8}\d?(?:-[a-z]{2,6})?-\d{1,3}[a-z]?)(?![\w-]|\.\w)")
# "h-19 keeps crashing", "k-4 spinnt": a short dashed name of letters and a number that a complaint follows is a
# node (a workload is named by words, a host by a number)
_NODE_TROUBLED = re.compile(r"(?<![\w.-])([a-z]{1,4}-\d{1,3}[a-z]?)(?=" + TROUBLE.pattern + r"(?![\w-]))")
# ... or one a refusal follows, said with "to be" or not ("ws-40 meiden", "ws-40 is best avoided")
_NODE_REFUSED = re.compile(r"(?<![\w-])" + _ON_NODE_NAME + r"\s+(?:" + group("copula") + r"\s+)?(?="
                           + group("negation_after") + r"(?![\w-]))")
# a list item after a node's name, of any length: ``_node_list`` keeps it only when it has the first's shape
# (a refused list's "nor", lang/*/nor_word.txt: "pas sur calcul-12 ni calcul-13")
_ON_NODE_TAIL = re.compile(rf"(?:\s*(?:,|/|&|{_JOIN}|{group('nor_word')})\s*|\s+)([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"
                           r"(?![\w-]|\.\w)")
_NOT_NODES = re.compile(r"^(?:\d+|" + group("not_node_names") + ")$")
# "cpu: 32", "gpus: 2": a bare count after a resource label
# ... or typed without the colon, as an item of a list of labels ("cpu 16 ram 64g", "cpu 8, ssd"): the count ends
# the hint or its item, or another label and its amount follow
_LABELLED_COUNT = re.compile(expand(r"{b}(?:({gpu_label})|{unit_cores})(?:\s*[:=]\s*|\s+(?=\d{1,3}(?:\s*$|\s*[,;/|]"
                                    r"|\s+[a-z]+\s*[:=]?\s*\d)))(\d{1,3})"
                                    r"(?![\w/]|[.,]\d)(?!\s*(?:x|gb|gi|g|tb|m|mb)\b)"))
# "16c/64g", "4c 16g", "8c, 32gb": cores and memory in shorthand (a "c" count only before a size or "at least")
_SHORT_CORES = re.compile(expand(r"(?<![\w.-])(\d{1,3})c(?=\s*/\s*\d|\s+{at_least_words}{e}|\s*[,+]?\s*\d{1,4}\s*(?:")
                          + "|".join(sorted(_SIZE_UNITS, key=len, reverse=True)) + r")(?![\w]))")
# "half a terabyte", "medio terabyte", "ein halbes Terabyte"
_HALF = re.compile(r"(?<![\w-])" + group("half") + r"\s+(" + "|".join(sorted(_SIZE_UNITS, key=len, reverse=True))
                   + r")(?![\w-])")
_COUNT_AFTER_MODEL = re.compile(r"(?:\s*-?\s*\d+\s*(?:" + "|".join(sorted(_SIZE_UNITS, key=len, reverse=True))
                                + r"))?\s*[x×]\s?(\d{1,2})(?![\w])")


# a name of letters and digits in dashed or underscored parts ("x-4", "k-12", "db_3"); its shape ("x-9") is its
# digits' places
# ... or a short one of letters and digits ("r5", "b12")
_BARE_NAME = re.compile(r"(?<![\w.-])((?=[a-z0-9_-]*\d)[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)(?![\w-])")
_NAME_TOKEN = re.compile(r"(?<![\w.-])((?=[a-z0-9_-]*\d)[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?![\w-])")


# "keep off r2-07 and r2-08, those racks trip", "évitez b-7 et b-8 : ces baies ...": a demonstrative and a level word
# (and no name after it) right after bare names, a list of them, say which level they are
_POINTED_LEVEL = re.compile(expand(r"{b}{demonstrative}\s+") + "(?:" + "|".join(
    f"(?P<{kind}>" + expand("{level_" + kind + "}") + ")" for kind in ("rack", "node", "zone", "region"))
                            + r")(?![\w])(?!\s+(?=[a-z0-9-]*\d)[a-z][a-z0-9]*-)")
_NAME_BEFORE_POINTER = re.compile(r"(?<![\w.-])((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)+)"
                                  r"\s*[,.;:()\u2013\u2014-]*\s*$")
_NAME_BEFORE_GLUE = re.compile(rf"(?<![\w.-])((?=[a-z0-9-]*\d)[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*(?:,|/|&|{_JOIN})\s*$")


def complained_nodes(text: str) -> set[str]:
    """The short dashed names a complaint follows ("h-19 keeps crashing"): nodes, never workloads."""
    return {m.group(1) for m in _NODE_TROUBLED.finditer(text) if not _NOT_NODES.match(m.group(1))}


def _pointed_names(text: str, pointer: int) -> list[tuple[int, int]]:
    """The spans of the bare names listed right before ``pointer`` ("r2-07 and r2-08, | those racks")."""
    spans: list[tuple[int, int]] = []
    last = _NAME_BEFORE_POINTER.search(text, max(0, pointer - 80), pointer)
    while last is not None:
        spans.append(last.span(1))
        last = _NAME_BEFORE_GLUE.search(text, max(0, last.start() - 80), last.start())
    return spans


def _shape(name: str) -> str:
    """``"k-12"`` -> ``"k-9"``: a name with each run of digits as one 9."""
    return re.sub(r"\d+", "9", name)


def _scheme(name: str) -> str | None:
    """``"db-new-08"`` -> ``"db-*-9"``: the naming scheme of a name with a word between its letters and its
    number (None for a name without one)."""
    parts = _shape(name).split("-")
    return f"{parts[0]}-*-{parts[2]}" if len(parts) == 3 and parts[1].isalpha() else None


def _node_list(text: str, match: re.Match[str]) -> list[tuple[int, int]]:
    """The spans of the node ``match`` names (group 1) and of the list items of its shape right after it ("on
    hx-03 or hx-04", "stay off kw-12 and kw-13", typed "kw-12 kw-13"); none when the first is no node's name."""
    spans: list[tuple[int, int]] = []
    item: re.Match[str] | None = match
    while item is not None and not _NOT_NODES.match(item.group(1)) and _shape(item.group(1)) == _shape(
            match.group(1)):
        spans.append(item.span(1))
        item = _ON_NODE_TAIL.match(text, item.end())
    return spans


def _claim(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    """Reserve [start, end) unless it overlaps an earlier slot."""
    if any(start < e and s < end for s, e in taken):
        return False
    taken.append((start, end))
    return True


def extract(text: str) -> list[Slot]:
    """All slots in ``text`` (lower-cased hint), in order of position."""
    slots: list[Slot] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, value: str | float, start: int, end: int, by_level_word: bool = False) -> None:
        if _claim(taken, start, end):
            slots.append(Slot(kind, value, start, end, by_level_word))

    def add_siblings(key: Callable[[str], str | None], known: set[str | None]) -> None:
        # a bare name keyed like a node named before it (its shape, its scheme) is a node too
        for match in _NAME_TOKEN.finditer(text) if known else ():
            if key(match.group(1)) in known and not _NOT_NODES.match(match.group(1)):
                add("node", match.group(1), match.start(1), match.end(1))

    # GPU models first: "2x A100" needs the model to see the count; "A100-80GB" needs both.
    models = [(m.start(), m.end(), m.group(1).replace(" ", "").upper()) for m in _GPU_MODEL.finditer(text)]
    model_spans = [(s, e) for s, e, _ in models]
    for match in _QUANTITY.finditer(text):
        number = parse_number(match.group(1))
        unit = match.group(2)
        if number is None:
            continue
        kind, factor = _unit_kind(unit)
        if unit in ("x", "×"):  # "2x A100" / "4 x H100" / "2x gpu": a GPU count only when a model or GPUs follow
            following = next((s for s, _ in model_spans if 0 <= s - match.end() <= 2), None)
            if following is None and not _GPU_UNIT_AFTER.match(text, match.end()):
                continue
        elif match.group(1) in _ARTICLES and kind not in ("gpus", "cores"):
            continue  # "a gig" is not a size; a number word is ("sixteen GB", "nonante-six gigas")
        elif kind == "cores" and match.group(1) in _ARTICLES:
            continue  # "a CPU" is not a core count ("one core" is)
        # A size unit followed by "/s" or "ps" was already caught as a rate by the longer alternative.
        add(kind, round(number * factor, 4), match.start(), match.end())
    for match in _LABELLED_COUNT.finditer(text):
        kind = "gpus" if match.group(1) else "cores"
        add(kind, float(match.group(2)), match.start(2), match.end(2))
    for match in _SHORT_CORES.finditer(text):
        add("cores", float(match.group(1)), match.start(), match.end())
    for match in _HALF.finditer(text):
        add("size", _unit_kind(match.group(1))[1] / 2, match.start(), match.end())
    # Kubernetes millicores: "2500m of CPU", "500m CPU".
    for match in (*_MILLICORES.finditer(text), *_LABELLED_MILLICORES.finditer(text)):
        add("cores", round(int(match.group(1)) / 1000, 4), match.start(), match.end())
    # "2 A100s", "4 H100": a bare number right before a model is a GPU count.
    for start, _, _ in models:
        before = _COUNT_BEFORE_MODEL.search(text, max(0, start - 16), start)
        number = parse_number(before.group(1)) if before else None
        if before and number:
            add("gpus", number, before.start(1), start)
        sized = _COUNT_BEFORE_SIZED_MODEL.search(text, max(0, start - 24), start)
        number = parse_number(sized.group(1)) if sized else None
        if sized and number:
            add("gpus", number, sized.start(1), sized.end(1))
        pair = _PAIR_BEFORE_MODEL.search(text, max(0, start - 16), start)
        if pair:
            add("gpus", 2.0, pair.start(), start)
    for match in _COUNT_BEFORE_QUALIFIED.finditer(text):
        number = parse_number(match.group(1))
        if number and match.group(1) not in _ARTICLES:
            add("gpus", number, match.start(1), match.end(1))
    # "H100 80GB x8", "A100 x 4": a count written after the model.
    for _, end, _ in models:
        after = _COUNT_AFTER_MODEL.match(text[end:end + 16])
        if after:
            add("gpus", float(after.group(1)), end + after.start(1) - 1, end + after.end())
        pair = _PAIR_AFTER_MODEL.match(text, end)
        if pair:
            add("gpus", 2.0, pair.start(), pair.end())
    for start, end, name in models:
        add("gpu_model", name, start, end)

    for match in _FQDN_NODE.finditer(text):
        group_ = 1 if match.group(1) else 2
        if not _NOT_NODES.match(match.group(group_)):
            add("node", match.group(group_), match.start(group_), match.end(group_))
    # Before zones and regions: after "rack" a name shaped like a region ("rack rk-north-2") is a rack.
    for match in _RACK_NAMED.finditer(text):
        if re.fullmatch(r"\d+[a-z]?", match.group(1)):  # "rack 3" is rack-3 (below)
            continue
        add("rack", match.group(1), match.start(1), match.end(1))
        position = match.end()
        shape = re.sub(r"\d+", "9", match.group(1))
        while True:  # "Rack A7 oder A8", "racks r-01, r-02": list items of the same shape
            tail = _NAMED_TAIL.match(text, position)
            if not tail:
                break
            name = tail.group(2)
            if re.sub(r"\d+", "9", name) != shape and not (
                    tail.group(1) and not _OTHER_LEVEL_AFTER.match(text, tail.end())
                    and not any(r.fullmatch(name) for r in (_REGION, _ZONE, _AZ_ID, _AZURE_ZONE, _NOT_NODES))
                    and not _NODE_SHAPED.fullmatch(name)):
                break
            add("rack", name, tail.start(2), tail.end(2))
            position = tail.end()
    for match in _RACK_ACROSS.finditer(text):
        shape = re.sub(r"\d+", "9", match.group(1))
        items = [(match.group(1), match.start(1), match.end(1))]
        position = match.end()
        while tail := _SLASH_TAIL.match(text, position):
            if re.sub(r"\d+", "9", tail.group(1)) != shape and len(tail.group(1)) != len(match.group(1)):
                break
            items.append((tail.group(1), tail.start(1), tail.end(1)))
            position = tail.end()
        if len(items) >= 2 and not any(r.fullmatch(name) for name, _, _ in items
                                       for r in (_REGION, _ZONE, _AZ_ID, _AZURE_ZONE, _NOT_NODES)):
            for name, start, end in items:
                add("rack", name, start, end)
    for match in _AZ_ID.finditer(text):
        add("zone", match.group(1), match.start(1), match.end(1))
    for match in _ZONE.finditer(text):
        prefix = match.group(1) or match.group(3)
        letter = match.group(2) or match.group(4)
        sep = "" if match.group(1) else "-"
        add("zone", f"{prefix}{sep}{letter}", match.start(), match.end())
        position = match.end()
        digit = re.search(r"\d{1,2}$", prefix)
        while True:  # shorthand tails: "us-east-1a or 1b", "us-east-1a/b"
            tail = _ZONE_TAIL.match(text, position)
            if not tail:
                break
            if tail.group(3):
                # a lone letter is a zone only after "/" or before punctuation, never the article "a"
                after = text[tail.end():tail.end() + 1]
                if "/" not in tail.group(0) and (after not in ("", ",", ".", ";", ")", " ") or (
                        after == " " and not _ZONE_TAIL_END.match(text, tail.end()))):
                    break
                value = f"{prefix}{sep}{tail.group(3)}"
            else:
                if digit is None or sep:
                    break
                value = f"{prefix[: digit.start()]}{tail.group(1)}{tail.group(2)}"
            add("zone", value, tail.start() + len(tail.group(0)) - len(tail.group(0).lstrip(" /,")), tail.end())
            position = tail.end()
    for match in _AZURE_ZONE.finditer(text):
        add("zone", match.group(0), match.start(), match.end())
    for match in _REGION.finditer(text):
        add("region", match.group(1), match.start(), match.end())
    for match in _AZURE_REGIONS.finditer(text):
        add("region", match.group(0), match.start(), match.end())
    for match in _GEO.finditer(text):
        add("region", _LEADING_ARTICLE.sub("", match.group(1)), match.start(1), match.end(1))
    for match in _GEO_REGIONS.finditer(text):
        group = 1 if match.group(1) else 2
        add("region", match.group(group), match.start(group), match.end(group))

    for match in _ZONE_NAMED.finditer(text):
        if not re.fullmatch(r"\d+|[a-z]{1,2}\d?", match.group(1)):
            add("zone", match.group(1), match.start(1), match.end(1), True)
    for match in _RACK.finditer(text):
        add("rack", f"{RACK}-{match.group(1) or match.group(2)}", match.start(), match.end())
    for match in _ZONE_SPELLED.finditer(text):
        add("zone", match.group(1), match.start(1), match.end(1))
    for kind, canonical, spaced in (("rack", RACK, _RACK_SPACED), ("zone", ZONE, _ZONE_SPACED)):
        for match in spaced.finditer(text):
            if _RACKS_IN_GENERAL.search(text[max(0, match.start() - 15):match.start()]):
                continue
            numbers = [match.group(1), *re.findall(r"\d{1,3}", match.group(2) or "")]
            # "over the azs 3 replicas each", "3 zones 1 replica par node": after a plural zone word one number
            # counts something; a list names zones ("zones 2 and 3")
            if kind == "zone" and len(numbers) == 1 and text[match.start():match.start(1)].rstrip().endswith(
                    ("s", "en")):
                continue
            if _claim(taken, match.start(), match.end()):  # "racks 3 and 4": one span, several values
                slots.extend(Slot(kind, f"{canonical}-{n}", match.start(), match.end()) for n in numbers)

    # A place named once after its level word ("zona westeurope-2") is that place where it comes again bare
    # ("... y manténgalos fuera de westeurope-2").
    for slot in [s for s in slots if s.kind in ("zone", "region", "rack")]:
        for match in re.finditer(r"(?<![\w-])" + re.escape(str(slot.value)) + r"(?![\w-])", text):
            add(slot.kind, slot.value, match.start(), match.end(), slot.by_level_word)

    # A rack named after its level word ("rack r3 ou r4") shows the user's naming scheme: a bare name of the same
    # shape elsewhere ("..., mais pas r5", "r5 meiden") is a rack too.
    rack_shapes = {_shape(str(s.value)) for s in slots if s.kind == "rack" and re.match(r"[a-z]", str(s.value))}
    for match in _BARE_NAME.finditer(text) if rack_shapes else ():
        if _shape(match.group(1)) in rack_shapes and not _NOT_NODES.match(match.group(1)):
            add("rack", match.group(1), match.start(1), match.end(1))

    for match in _NODE_SHAPED.finditer(text):
        name = match.group(1)
        if _NOT_NODES.match(name):
            continue
        add("node", name, match.start(1), match.end(1))
    named_shapes: set[str | None] = set()
    for match in _NODE_CONTEXT.finditer(text):
        name = match.group(1).rstrip(".")
        if _NOT_NODES.match(name) or not (re.search(r"[a-z]", name) or _IPV4.fullmatch(name)):
            continue
        add("node", name, match.start(1), match.start(1) + len(name))
        named_shapes.add(_shape(name))
    # A node named after its level word ("Knoten k-12") shows the user's naming scheme: a bare name of the
    # same shape elsewhere ("... und k-13", "... nicht auf k-14") is a node too.
    add_siblings(_shape, named_shapes)
    schemes: set[str | None] = set()
    for match in _ON_NODE.finditer(text):
        for start, end in _node_list(text, match):
            add("node", text[start:end], start, end)
            schemes.add(_scheme(text[start:end]))
    # ... and so does a node named after its preposition with a word inside ("nie db-alt-02, lieber auf db-neu-07")
    schemes.discard(None)
    add_siblings(_scheme, schemes)
    for match in _POINTED_LEVEL.finditer(text):
        kind = next(k for k, g in match.groupdict().items() if g)
        for start, end in _pointed_names(text, match.start()):
            if not _NOT_NODES.match(text[start:end]):
                add(kind, text[start:end], start, end)
    # last, a node only a refusal points at: any other reading of the name comes first ("off r2-07, those racks")
    refused: set[str | None] = set()
    shapes: set[str | None] = set()
    for match in [*_REFUSED_NODE.finditer(text), *_REFUSED_ON_NODE.finditer(text), *_NODE_REFUSED.finditer(text),
                  *_NODE_TROUBLED.finditer(text)]:
        for start, end in _node_list(text, match):  # "stay off kw-12 and kw-13": the list it refuses
            add("node", text[start:end], start, end)
            refused.add(_scheme(text[start:end]))
            shapes.add(_shape(text[start:end]))
    refused.discard(None)
    add_siblings(_scheme, refused)
    # ... and a bare name of its very shape, its letters too ("avoid kw-12, prefer kw-13")
    add_siblings(_shape, shapes)
    slots.sort(key=lambda s: (s.start, s.end))
    return slots
