"""Intents without names or numbers, found by cue patterns (en/es/de).

Each ``Cue`` says which intent a phrase supports and what it means when negated: "not on the same
node" asks for ``spread_nodes``, "isn't overloaded" for ``prefer_least_loaded_nodes``, and a negated
cue without such a meaning ("no SSD needed") yields nothing. The semantic matcher catches the
paraphrases these patterns miss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webhook.analysers.embedded.langdata import group


@dataclass(frozen=True, slots=True)
class Cue:
    intent: str | None  # when not negated
    pattern: re.Pattern[str]
    when_negated: str | None = None


def _c(intent: str | None, pattern: str, when_negated: str | None = None) -> Cue:
    return Cue(intent, re.compile(pattern), when_negated)


_B = r"(?<![\w-])"  # word start (dash counts as part of a word)
_E = r"(?![\w-])"
_GAP = r"(?:\s+[\w'-]+){0,4}?\s+"  # up to four words in between
_SPREAD = group("spread_across")
# "one replica per rack", "una réplica por zona", "ein Pod pro Region"
# ... and any small count of replicas per level: "2 réplicas por zona", "zwei Replikas pro Zone"
_ONE_PER = (r"(?:one|1|una|uno|un|eine?|ein|a single|[2-9]|two|three|dos|tres|zwei|drei)\s+(?:[\w-]+\s+)?"
            r"(?:per|por|pro|je|in each|en cada|in jede[mr]?)\s+"
            r"(?:(?:availability|de)\s+)?")
_ZONES = group("level_zone")
_RACKS = group("level_rack")
_REGIONS = group("level_region")
_NODES = group("level_node")
_SINGLE = group("single")
_ONE_PLACE = group("one_place")
_LOSE = group("survive")
_DOWN = group("outage")


def _resilience(level: str) -> str:
    """ "survive losing a zone", "if one AZ goes down": spreading over that level, even when negated."""
    return (rf"{_B}{_LOSE}\b.{{0,40}}?{_B}{level}{_E}|{_B}{level}{_E}.{{0,12}}?{_B}{_DOWN}{_E}|"
            # "the failure of a zone", "der Ausfall einer Zone", "la caída de un rack"
            rf"{_B}{_DOWN}\s+(?:of\s+)?(?:a|an|one|einer|eines|de una|de un)\s+{level}{_E}|"
            rf"{_B}{level}(?:-wide)?\s+(?:losing|loses|lost|failing|fails|dying|dies|going dark|goes dark|"
            rf"disappearing|disappears|vanishing|wegf(?:[aä]|ae)llt|se cae|cae|falla)\b")


# One definition of each level's words (lang/*/level_*.txt), used by every cue.
_ZONE_LEVEL, _RACK_LEVEL, _REGION_LEVEL, _NODE_LEVEL = _ZONES, _RACKS, _REGIONS, _NODES

# Resource words and how people say "a lot of it", for qualitative wishes without a number.
_MUCH = group("much")
_EAT = group("consume")
_MEMORY_WORDS = group("memory_words")
_DATA_WORDS = group("data_words")
_NET_WORDS = group("network_words")

CUES: tuple[Cue, ...] = (
    _c("spread_zones", _resilience(_ZONE_LEVEL), when_negated="spread_zones"),
    _c("spread_racks", _resilience(_RACK_LEVEL), when_negated="spread_racks"),
    _c("spread_regions", _resilience(_REGION_LEVEL), when_negated="spread_regions"),
    _c("spread_nodes", _resilience(_NODE_LEVEL), when_negated="spread_nodes"),
    # --- spreading the workload ---
    _c("spread_zones", rf"{_B}{_ONE_PER}{_ZONES}{_E}|{_B}{_SPREAD}{_GAP}{_ZONES}{_E}|{_B}multi-?(?:az|zone)s?{_E}|"
                       rf"{_B}zone[- ]?(?:outage|failure|"
                       r"redundan\w*|resilien\w*|ausfall\w*)|zonal\s+(?:outage|failure|redundan\w*)|"
                       rf"{_B}(?:ca[ií]da|fallo) de (?:una )?zona|{_B}zonenausfall"),
    # "in at least three zones", "en al menos tres zonas", "in mindestens drei Zonen"
    *(_c(intent, rf"{_B}(?:in|into|across|over|en|entre|auf|(?:[uü]|ue)ber)\s+(?:at least\s+|al menos\s+|mindestens\s+|"
                 rf"min\.?\s+)?(?:2|3|4|5|6|two|three|four|five|six|dos|tres|cuatro|cinco|seis|zwei|drei|vier|f(?:[uü]|ue)nf|"
                 rf"sechs)\s+{level}{_E}")
      for intent, level in (("spread_zones", _ZONES), ("spread_racks", _RACKS), ("spread_regions", _REGIONS))),
    # German compounds "zonenübergreifend", "rackübergreifend"; Spanish "multizona", "multirregión"
    _c("spread_zones", rf"{_B}(?:zonen|zone|az|verf(?:[uü]|ue)gbarkeitszonen)[- ]?(?:[uü]|ue)bergreifend\w*|"
                       rf"{_B}multi-?zonas?{_E}"),
    _c("spread_racks", rf"{_B}racks?[- ]?(?:[uü]|ue)bergreifend\w*|{_B}multi-?racks?{_E}"),
    _c("spread_regions", rf"{_B}regions?[- ]?(?:[uü]|ue)bergreifend\w*|{_B}multi-?rr?egi[oó]n(?:es|al)?{_E}"),
    _c("spread_nodes", rf"{_B}knoten[- ]?(?:[uü]|ue)bergreifend\w*|{_B}multi-?nodos?{_E}"),
    # "zone spreading", "zonas distintas", "Zonen verschieden": the level named first
    _c("spread_zones", rf"{_B}(?:zone|az|zonal)[- ]?(?:spreading|spread|distribution|anti-?affinity){_E}|"
                       rf"{_B}(?:zonas|zonen)\s+(?:distintas|diferentes|separadas|verschiedene|unterschiedliche)\b"),
    _c("spread_racks", rf"{_B}rack[- ]?(?:spreading|spread|distribution|anti-?affinity){_E}|"
                       rf"{_B}racks\s+(?:distintos|diferentes|separados|verschiedene|unterschiedliche)\b"),
    _c("spread_regions", rf"{_B}region(?:al)?[- ]?(?:spreading|spread|distribution){_E}|"
                         rf"{_B}(?:regiones|regionen)\s+(?:distintas|diferentes|separadas|verschiedene)\b"),
    _c("spread_racks", rf"{_B}{_ONE_PER}{_RACKS}{_E}|{_B}{_SPREAD}{_GAP}{_RACKS}{_E}|"
                       rf"{_B}rack[- ]?(?:outage|failure|level redundan\w*|ausfall)"),
    _c("spread_regions", rf"{_B}{_ONE_PER}{_REGIONS}{_E}|{_B}{_SPREAD}{_GAP}{_REGIONS}{_E}|{_B}multi-?regi\w*|"
                         rf"{_B}geo-?redundan\w*|"
                         rf"{_B}regional\s+(?:outage|failure)|{_B}(?:ca[ií]da|fallo) de (?:una )?regi[oó]n|"
                         rf"{_B}regionsausfall|{_B}geo-?(?:distributed|verteilt)"),
    _c("spread_nodes", rf"{_B}(?:different|separate|distinct|another|other|diferentes?|distint[oa]s?|separad[oa]s?|"
                       rf"otro|anderen|verschiedenen?|unterschiedlichen?|getrennten?)\s+{_NODES}{_E}(?!\s*(?:racks?|zones?))|"
                       rf"{_B}{_NODES}\s+(?:distint[oa]s?|diferentes?|separad[oa]s?|verschiedenen?){_E}|"
                       rf"{_B}(?:one|1|una|uno|un|eine?|ein)\s+(?:replica|pod|instance|r[eé]plica|replik\w*|"
                       rf"instancia)?\s*(?:per|por|pro|je)\s+{_NODES}{_E}|"
                       rf"{_B}(?:spread\w*|spreed\w*|distribut\w*|across|acros|accross|over|between|among|"
                       rf"reparti\w*|rep[aá]rt\w*|distribu\w*|entre|verteil\w*|(?:[uü]|ue)ber){_GAP}{_NODES}{_E}(?!\s*(?:racks?|zones?))|"
                       rf"{_B}anti-?affinity{_E}|{_B}(?:keep|stay|kept)\s+(?:the\s+)?(?:replicas|pods|them|copies)\s+"
                       rf"apart{_E}|{_B}apart{_E}|{_B}no two\s+(?:replicas|pods|copies)|{_B}antiafinidad|"
                       rf"{_B}anti-?affinit(?:[aä]|ae)t"),
    # --- keeping the workload together ---
    _c("prefer_colocate_same_deployment",
       rf"{_B}{_SINGLE}\s+{_NODES}{_E}(?!\s+(?:as|que|wie|like|with)\b)|{_B}co-?locat\w*(?!\s+(?:w/|with|con|mit))|"
       rf"{_B}collocat\w*(?!\s+(?:with|con|mit))|{_B}bin-?pack\w*|{_B}pack\w*\s+(?:em|them|it|all|everything|the|"
       rf"replicas|pods|tight\w*)|{_B}pack\w*\s+(?:onto|on|into)|{_B}packen{_E}|{_B}zusammenfassen{_E}|"
       rf"{_B}agrupa\w*|{_B}(?:junt[oa]s|zusammen|together)\b.{{0,20}}?\b(?:en un|auf einem|auf einen|on a|on one|"
       rf"in one)\s+(?:nodo|knoten|node|host|machine){_E}|"
       rf"{_B}(?:alle|alles|s(?:[aä]|ae)mtliche)\b.{{0,40}}\b(?:einen|einem)\s+knoten{_E}|"
       rf"{_B}(?:einen|einem)\s+knoten\b.{{0,30}}\b(?:zusammen\w*|packen|b(?:[uü]|ue)ndeln)|"
       # "all in one spot", "todo en un solo sitio", "alles an einen Ort"
       rf"{_B}(?:in|on|at)\s+(?:one|a single|the same)\s+(?:spot|place|location){_E}|"
       rf"{_B}en\s+un\s+(?:solo|mismo|[uú]nico)\s+(?:sitio|lugar){_E}|"
       rf"{_B}(?:an|auf)\s+(?:einen|einem|denselben|demselben)\s+(?:ort|fleck){_E}|"
       # "all pods on one node", "todos los pods en un nodo", "alle Pods auf eine Kiste"
       rf"{_B}(?:all|every|todos|todas|alle|s(?:[aä]|ae)mtliche)\s+(?:the\s+|of\s+the\s+|los\s+|las\s+|die\s+|unsere\s+)?"
       rf"(?:pods|replicas|r[eé]plicas|replik(?:ate|as|a|en)|instances|instancias|instanzen|copies|copias|containers?)\s+"
       rf"(?:together\s+|juntas?\s+|juntos\s+|zusammen\s+)?"
       rf"(?:on|onto|in|into|en|auf|in)\s+(?:one|a|a single|the same|un|una|un solo|una sola|el mismo|la misma|"
       rf"una misma|eine?n?|einem|dieselbe|"
       rf"demselben|denselben)\s+(?:{_NODES}|kiste|box){_E}",
       when_negated="spread_nodes"),
    _c("prefer_nearby_nodes_same_deployment",
       rf"{_B}close\s+(?:(?:to|2)\s+(?:each other|one another)|together|by){_E}|{_B}near\s+(?:each other|one another)|"
       rf"{_B}nearby{_E}|{_B}physically close|{_B}low[- ](?:inter-?pod\s+|network\s+)?latency\s+between|"
       rf"{_B}latency\s+between\s+(?:the\s+)?(?:replicas|pods)|{_B}same rack{_E}(?!\s+(?:as|que|wie))|"
       rf"{_B}in proximity|{_B}proximity|{_B}cerca\s+(?:unas?\s+de\s+otras?|unos\s+de\s+otros|entre\s+s[ií]|"
       rf"de\s+las\s+(?:otras|dem[aá]s)\s+r[eé]plicas|de\s+los\s+otros\s+pods)|{_B}juntas?\s+pero|"
       rf"{_B}(?:nah|nahe|dicht|eng)\s+(?:beieinander|zusammen)|{_B}in\s+der\s+n(?:[aä]|ae)he\s+(?:zueinander|voneinander)|"
       rf"{_B}mismo rack{_E}(?!\s+que)|{_B}gleichen rack{_E}(?!\s+wie)|{_B}close to the other (?:replicas|pods)|"
       # neighbouring / adjacent nodes, few network hops, "cerca entre sí", "benachbarte Knoten"
       rf"{_B}(?:neighbou?ring|adjacent|nearby|close|neighbou?r)\s+{_NODES}{_E}|"
       rf"{_B}(?:hug|hugging|huddle|huddled|cluster(?:ed)?|bunch(?:ed)?)\s+(?:up\s+)?(?:with\s+)?"
       rf"(?:each other|one another|"
       rf"together){_E}|{_B}(?:cerca|cercana|cerquita)\s+(?:posible\s+)?de\s+(?:las|los)\s+(?:otras|otros|dem[aá]s)\s+(?:r[eé]plicas|pods|instancias)|{_B}same\s+neighbou?rhood|"
       rf"{_B}(?:few|fewer|fewest|minimi[sz]e|minimal|minimum|low|least)\s+(?:network\s+)?hops?{_E}|"
       rf"{_B}hop[- ]?count|{_B}(?:keep|make)\s+(?:the\s+)?hops\s+(?:short|few|low)|{_B}short\s+hops|"
       rf"{_B}(?:cerca|cerquita|cercanas?|cercanos)\s+(?:entre\s+(?:s[ií]|ellas|ellos)|unas? de otras?)|"
       rf"{_B}{_NODES}\s+(?:cercan[oa]s|pr[oó]xim[oa]s|vecin[oa]s|contigu[oa]s|adyacentes){_E}|"
       rf"{_B}(?:cercan[oa]s|pr[oó]xim[oa]s)\s+entre\s+s[ií]|{_B}poca\s+latencia\s+entre|"
       rf"{_B}benachbarte[nrms]?\s+(?:knoten|rechner|maschinen|hosts?){_E}|{_B}nahe\s+gelegene[nrms]?\s+knoten|"
       rf"{_B}(?:same|mismo|gleichen|selben)\s+rack\s+(?:as|que|wie)\s+(?:the\s+|las\s+|los\s+|die\s+)?(?:other|otras|otros|"
       rf"anderen)\s+(?:replicas|r[eé]plicas|pods|replik(?:ate|as|a|en)|instances|instancias)|"
       rf"{_B}(?:near|close to|next to|(?:as )?close as possible to|cerca de|nahe|nah bei|nahe bei|"
       rf"in der n(?:[aä]|ae)he der|"
       rf"neben|m(?:[oö]|oe)glichst nah (?:an|bei))\s+"
       rf"(?:the\s+|my\s+|las\s+|los\s+|den\s+|die\s+)?"
       rf"(?:other|otras|otros|anderen)\s+(?:replicas|pods|instances|copies|r[eé]plicas|replikat\w*|instancias)|"
       rf"{_B}r(?:[aä]|ae)umlich\s+nah|"
       # "cerca de sus compañeras", "near its siblings", "bei ihren Geschwistern": the workload's own peers
       rf"{_B}(?:cerca|cerquita|pegad[oa]s?|junt[oa]s?)\s+(?:de|a)\s+(?:sus|las|los)\s+(?:compañer[oa]s|herman[oa]s|pares){_E}|"
       rf"{_B}(?:near|close to|next to)\s+(?:its|their|the)\s+(?:siblings|peers|sibling pods|peer pods){_E}|"
       rf"{_B}(?:nah|nahe|dicht)\s+(?:bei|an)\s+(?:ihren|seinen|den)\s+(?:geschwistern|geschwister-pods|kollegen){_E}|{_B}nah\s+aneinander|{_B}geringe[rn]?\s+latenz\s+zwischen"),
    # --- load ---
    _c("prefer_least_loaded_nodes",
       rf"{_B}least[- ](?:loaded|busy|utili[sz]ed|used|occupied|crowded|congested|slammed|swamped|stressed|hammered|"
       rf"taxed|contended){_E}|{_B}lowest\s+(?:load|"
       rf"utili[sz]ation|usage|cpu)|"
       rf"{_B}(?:ocios[oa]s?|inactiv[oa]s|leerlauf|im leerlauf|unt(?:[aä]|ae)tig\w*)(?![\w-])|"
       rf"{_B}(?:idle|idlest|quietest|emptiest|underutili[sz]ed|under-utili[sz]ed|"
       rf"lightly[- ]loaded|less[- ]loaded|less[- ]busy|freeest|most headroom|least load){_E}|"
       rf"{_B}(?:lowest|low)[- ](?:load|usage|utili[sz]ation|cpu[- ]usage){_E}|"
       rf"{_B}least\s+(?:cpu\s+)?(?:usage|utili[sz]ation|load){_E}|"
       rf"{_B}menos\s+(?:uso|carga|utilizaci[oó]n|ocupaci[oó]n)\b|{_B}geringste[rn]?\s+(?:cpu-)?(?:last|auslastung|"
       rf"nutzung)|"
       rf"{_B}most\s+(?:spare|free|available|unused|idle)\s+(?:capacity|resources|headroom|cpu|room){_E}|"
       rf"{_B}most\s+(?:breathing room|headroom|room to breathe|slack){_E}|"
       rf"{_B}m[aá]s\s+(?:recursos|capacidad)\s+(?:libres?|disponibles?){_E}|"
       rf"{_B}(?:meisten|viel)\s+freie[rn]?\s+(?:ressourcen|kapazit(?:[aä]|ae)t){_E}|"
       rf"{_B}(?:m[aá]s)\s+(?:libre|desocupad[oa]|vac[ií][oa]|tranquil[oa]|desahogad[oa]|holgad[oa])s?{_E}|{_B}(?:freiesten|leersten|ruhigsten)\w*|"
       rf"{_B}(?:meisten|viel)\s+(?:freie[rn]?\s+)?(?:kapazit(?:[aä]|ae)t|ressourcen|luft){_E}|"
       rf"{_B}menos\s+(?:cargad[oa]s?|ocupad[oa]s?|utilizad[oa]s?|usad[oa]s?|carga){_E}|"
       rf"{_B}(?:am\s+)?wenigsten\s+(?:ausgelastet\w*|belastet\w*|besch(?:[aä]|ae)ftigt\w*|genutzt\w*)|"
       rf"{_B}geringste[rn]?\s+(?:last|auslastung)|{_B}wenig\s+ausgelastet\w*|"
       rf"{_B}(?:wenig|weniger|geringe[rn]?|niedrige[rn]?)\s+(?:last|auslastung){_E}|"
       rf"{_B}(?:poca|baja|menor)\s+(?:carga|ocupaci[oó]n|utilizaci[oó]n){_E}|"
       rf"{_B}(?:poco|bajo|menor)\s+(?:uso|consumo|tr[aá]fico){_E}|"
       rf"{_B}poc[oa]s?\s+(?:cargad|ocupad|usad|utilizad)[oa]s?{_E}|"
       rf"{_B}(?:wenig|kaum|nichts)\s+zu\s+tun{_E}|{_B}kaum\s+(?:ausgelastet|belastet|genutzt)\w*|"
       rf"{_B}(?:low|little|light|lighter|lightest|lower|smallest)\s+(?:load|utili[sz]ation|usage|workload){_E}|{_B}niedrigste[rn]?\s+auslastung|"
       rf"{_B}(?:fewest|least)\s+(?:pods|workloads|work|jobs|containers|traffic|pressure){_E}|"
       rf"{_B}(?:least|less|lowest)\s+(?:resource\s+)?(?:pressure|contention){_E}|"
       rf"{_B}menos\s+(?:trabajo|pods|tr[aá]fico|presi[oó]n|saturad[oa]s?){_E}|"
       rf"{_B}(?:wenigsten|wenigste|geringsten)\s+(?:pods|arbeit|workloads|last|druck){_E}|"
       rf"{_B}(?:not|no|nicht|no\s+est[eé]n?)\s+(?:too\s+|so\s+|muy\s+|zu\s+)?(?:busy|swamped|slammed|packed|"
       rf"ocupad[oa]s?|voll|stark\s+ausgelastet\w*){_E}",
       ),
    # "replicas shouldn't share a host": sharing a place, negated, is spreading at that level
    _c(None, rf"{_B}(?:share|sharing|shares|comparta\w*|compartir|teilen|teilt)\s+"
             rf"(?:a|the same|the|one|un|una|el mismo|"
             rf"la misma|einen|eine|denselben|dieselbe)?\s*{_NODES}{_E}", when_negated="spread_nodes"),
    _c(None, rf"{_B}(?:share|sharing|shares|comparta\w*|compartir|teilen|teilt)\s+"
             rf"(?:a|the same|the|one|un|una|la misma|"
             rf"eine|dieselbe)?\s*{_ZONES}{_E}", when_negated="spread_zones"),
    _c(None, rf"{_B}(?:share|sharing|shares|comparta\w*|compartir|teilen|teilt)\s+(?:a|the same|the|one|un|el mismo|"
             rf"einen|dasselbe|denselben)?\s*{_RACKS}{_E}", when_negated="spread_racks"),
    # "don't put all replicas in one zone": a negated single place is a wish to spread at that level
    _c(None, rf"{_B}{_ONE_PLACE}\s+{_ZONES}{_E}(?!\s+(?:as|que|wie|like|with|con|mit)\b)", when_negated="spread_zones"),
    _c(None, rf"{_B}{_ONE_PLACE}\s+{_RACKS}{_E}(?!\s+(?:as|que|wie|like|with|con|mit)\b)", when_negated="spread_racks"),
    _c(None, rf"{_B}{_ONE_PLACE}\s+{_REGIONS}{_E}(?!\s+(?:as|que|wie|like|with|con|mit)\b)",
       when_negated="spread_regions"),
    Cue(None, re.compile(rf"{_B}(?:overloaded|over-loaded|busy|loaded|hot|saturated|congested|crowded|"
                         rf"sobrecargad[oa]s?|cargad[oa]s?|ocupad[oa]s?|(?:[uü]|ue)berlastet\w*|ausgelastet\w*){_E}"),
        when_negated="prefer_least_loaded_nodes"),
    # --- hardware without numbers ---
    _c("prefer_nvlink", rf"{_B}nv-?link\w*|{_B}nv-?switch\w*|{_B}gpu[- ]to[- ]gpu{_E}|"
                        rf"{_B}gpus\b.{{0,50}}?\b(?:fast|high[- ]speed|direct)\s+interconnect{_E}|"
                        rf"{_B}(?:fast|high[- ]speed|direct|low[- ]latency)\s+interconnect\s+(?:between|among|for)\s+"
                        rf"(?:the\s+)?gpus{_E}"),
    _c("prefer_numa_aligned", rf"{_B}numa\w*|{_B}(?:same|one|single|un|el mismo|un mismo|einem|demselben|selben)\s+"
                              rf"(?:cpu\s+)?(?:socket|sockel){_E}|{_B}topology[- ]aligned"),
    _c("prefer_ssd_storage", rf"{_B}ssds?(?:-\w+)?{_E}|{_B}nvmes?(?:-\w+)?{_E}|{_B}solid[- ]state|"
                             rf"{_B}(?:de\s+)?estado\s+s[oó]lido|{_B}festk(?:[oö]|oe)rper\w*|"
                             rf"{_B}flash[- ](?:storage|disks?|drives?|speicher)|"
                             rf"{_B}(?:flash|ssd)\s+only{_E}|{_B}(?:only|solo|nur)\s+(?:flash|ssd){_E}|{_B}all-flash"),
    _c("prefer_network_speed", rf"{_B}(?:moves?|moving|streams?|streaming|ships?|pushes|pushing|transfers?|sends?|"
                               rf"mueve\w*|env[ií]a\w*|transfiere\w*|schiebt|schieben|(?:[uü]|ue)bertr(?:[aä]|ae)gt|sendet)\s+"
                               rf"(?:\w+\s+){{0,3}}?{_DATA_WORDS}\b.{{0,30}}?(?:over|through|across|por|(?:[uü]|ue)ber|"
                               rf"(?:[uü]|ue)bers|durch)\s+(?:the\s+|la\s+|das\s+)?{_NET_WORDS}{_E}|"
                               rf"{_B}(?:bandwidth|ancho de banda|bandbreite)\s+(?:is king|matters|is key|"
                               rf"is everything|"
                               rf"es clave|importa|ist alles|ist wichtig|z(?:[aä]|ae)hlt)|"
                               rf"{_B}(?:fast|faster|high[- ]speed|high[- ]bandwidth|quick|speedy)\s+(?:network\w*|"
                               rf"netwrk|nic|nics|networking|bandwidth|uplink){_E}|{_B}red\s+r[aá]pida|"
                               rf"{_B}(?:schnell|flott|z(?:[uü]|ue)gig)e[snr]?\s+(?:netzwerk\w*|anbindung|netz\w*)|{_B}hohe[rn]?\s+bandbreite|"
                               rf"{_B}gran\s+ancho\s+de\s+banda|{_B}alto\s+ancho\s+de\s+banda|"
                               # "red de alta velocidad", "conexión rápida", "Hochgeschwindigkeitsnetz"
                               rf"{_B}(?:red|conexi[oó]n|conectividad)\s+(?:de\s+)?(?:alta\s+velocidad|r[aá]pida|veloz)|"
                               rf"{_B}hochgeschwindigkeits-?(?:netz\w*|anbindung)"),
    _c("prefer_memory_gb", rf"{_B}{_EAT}\s+(?:\w+\s+)?{_MUCH}?\s*{_MEMORY_WORDS}{_E}(?!\s*(?:leak|usage|use))|"
                           rf"{_B}{_MEMORY_WORDS}[- ]?(?:hog|hungry|glutton|fresser){_E}|"
                           rf"{_B}(?:high|large|big|lots of|plenty of|more)[- ](?:memory|mem|ram){_E}|"
                           rf"{_B}(?:memory|ram|mem)[- ](?:heavy|intensive|hungry|optimi[sz]ed){_E}|"
                           rf"{_B}(?:mucha|m[aá]s|harta|bastante|abundante)\s+(?:memoria|ram){_E}|"
                           rf"{_B}(?:un mont[oó]n|montones|una tonelada)\s+de\s+(?:memoria|ram){_E}|"
                           rf"{_B}viel\s+(?:arbeitsspeicher|ram|speicher){_E}|"
                           rf"{_B}speicherintensiv\w*|{_B}(?:memoria|ram)\s+de\s+sobra{_E}|"
                           rf"{_B}(?:reichlich|jede\s+menge)\s+(?:ram|arbeitsspeicher|hauptspeicher){_E}"),
    _c("prefer_cpu_cores", rf"{_B}(?:every|all the|each)\s+(?:cpu\s+)?(?:core|cores|cpu)\s+(?:it|we|you)\s+can\s+get|"
                           rf"{_B}number[- ]crunch\w*|{_B}todos\s+los\s+n[uú]cleos|{_B}alle\s+(?:cpu-)?kerne\b|"
                           rf"{_B}(?:many|lots of|plenty of|more|high)[- ](?:cpu|cpus|cores|vcpus){_E}|"
                           rf"{_B}(?:cpu|compute)[- ](?:heavy|intensive|hungry|bound|optimi[sz]ed){_E}|"
                           rf"{_B}muchos\s+n[uú]cleos|{_B}viele\s+(?:kerne|cpus)|{_B}rechenintensiv\w*|"
                           rf"{_B}(?:mucha|harta|bastante)\s+(?:cpu|potencia\s+de\s+c[oó]mputo){_E}|"
                           rf"{_B}viel\s+(?:cpu|rechenleistung|rechenpower){_E}"),
    _c("prefer_ephemeral_storage", rf"{_B}(?:files|archivos|ficheros|dateien)\s+(?:onto|to|on|into|en|a|auf|in)\s+"
                                   rf"(?:the\s+|el\s+|la\s+|die\s+)?(?:node'?s\s+|local\s+|lokale\s+)?(?:disk|disco|"
                                   rf"platte|festplatte){_E}|"
                                   rf"{_B}(?:lots of|plenty of|large|big|more)\s+(?:local\s+)?(?:scratch|ephemeral|"
                                   rf"disk|temp)\s*(?:space|storage|disk)?{_E}|{_B}viel\s+(?:scratch|plattenplatz|"
                                   rf"speicherplatz)|{_B}mucho\s+(?:espacio|almacenamiento)\s+(?:temporal|local|ef[ií]mero)|"
                                   rf"{_B}mucho\s+espacio\s+(?:en\s+)?disco|"
                                   rf"{_B}(?:viel|reichlich)\s+lokale[rnms]?\s+(?:speicherplatz|plattenplatz|speicher)"),
    _c("avoid_gpu_nodes", rf"{_B}cpu[- ]only{_E}|{_B}cpu[- ]bound only|{_B}s[oó]lo\s+cpu{_E}|{_B}reine[rsn]?\s+cpu|"
                          rf"{_B}nur\s+cpu|{_B}(?:leave|keep|save)\s+(?:the\s+)?(?:gpus?|accelerators?)\s+(?:free|for|alone)|"
                          rf"{_B}solo\s+cpu|{_B}(?:pure|purely|plain|plain old)\s+cpu{_E}(?![- ](?:cores?|count))|"
                          rf"{_B}cpu\s+puro{_E}"),
)

# A GPU is requested when a GPU word is introduced as something to have, not as the subject of a
# property ("GPUs with 24GB", "NVLink-connected GPUs", "each GPU should have ...").
GPU_WORD = re.compile(rf"{_B}(?:nvidia\s+)?(gpus?|gpu's|cuda|nvidia|graphics\s+cards?|grafikkarten?|"
                      r"tarjetas?\s+gr[aá]ficas?|"
                      r"gr[aá]ficas?|placas?\s+(?:de\s+)?(?:video|v[ií]deo|gr[aá]ficas?)|tarjetas?\s+de\s+v[ií]deo|"
                      r"graphics hardware|gpu hardware|accelerators?|aceleradores?|"
                      r"beschleuniger(?:karten)?)(?![\w])")
GPU_REQUEST_BEFORE = re.compile(
    r"(?:^|[\s(])(?:needs?|needed|require[sd]?|want|wants|gimme|give|get|with|on|use|using|a|an|one|any|ne|'ne|"
    r"usa|usar|utiliza|utilizar|nutze|nutzen|verwende|verwenden|nimm|"
    r"necesita|necesito|necesitan|con|una|un|alguna|braucht|brauche|ben(?:[oö]|oe)tigt|ben(?:[oö]|oe)tige|mit|eine|einer|einem|"
    r"auf|einen|ein|requests?|requesting|has|have|having|run on|needing|con\s+una|mit\s+einer|en|on)\s*$")
# A request verb right before the GPU word asks for GPUs even when a property follows
# ("needs GPUs with 48 GB" -> prefer_gpu 1.0 and the memory).
GPU_REQUEST_VERB = re.compile(
    r"(?:^|\s)(?:needs?|needed|needing|require[sd]?|requiring|wants?|gimme|give|get|requests?|requesting|"
    r"necesita|necesitan|necesito|requiere|quiero|braucht|brauche|ben(?:[oö]|oe)tigt|ben(?:[oö]|oe)tige|m(?:[oö]|oe)chte)\s*$")
GPU_REQUEST_AFTER = re.compile(
    r"^(?:-|\s)*(?:nodes?|box(?:es)?|machines?|servers?|hosts?|instances?|workload|job|acceleration|accelerated|"
    r"-accelerated|compute|knoten|nodos?|m[aá]quinas?|job|card|karte|beschleunigung|aceleraci[oó]n)(?![\w])")
GPU_PROPERTY_AFTER = re.compile(r"^\s*(?:[abhlptvkm]i?\d{1,4}[a-z]?s?(?![\w])|with|con|mit|should|must|need to|"
                                r"have|has|"
                                r"tengan|tenga|haben|sollten|are|is|"
                                r"memory|mem|vram|speicher|memoria|team|owner|driver|-speicher|-memory|-ram)(?![\w])")
COUNT_OF_THEM = re.compile(rf"{_B}(\d{{1,2}}|two|four|eight|dos|cuatro|ocho|zwei|vier|acht)\s+(?:of them|de ellas|"
                           rf"davon|of those){_E}")
