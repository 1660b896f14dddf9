"""Words the embedded analyser reads by rule, in English, Spanish and German.

Everything here is a regular-expression fragment matched against the *lower-cased* hint. Word
boundaries are explicit lookarounds (``(?<![\\w-])``) rather than ``\\b`` so that names with dashes
(``gpu-node-7``) are one word: a cue never fires inside a name.
"""

from __future__ import annotations

import re


def words(*alternatives: str) -> str:
    """One regex alternative group that matches any of ``alternatives`` as whole words."""
    return r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])"


def compile_words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(words(*alternatives))


# --- strength (ARCHITECTURE 2.2: weak 0.5 / strong 1.5 / else 1.0) ------------------------------------

WEAK = compile_words(
    # en
    r"prefer", r"prefers", r"preferred", r"preferably", r"preferable", r"ideally", r"ideal", r"maybe", r"perhaps",
    r"pre?f+e?r+e?a?bl[ye]", r"ideal+y", r"prefered", r"mayb", r"if posible", r"if u can",
    r"if possible", r"if you can", r"if it can", r"if feasible", r"if available", r"when possible",
    r"where possible", r"wherever possible", r"whenever possible", r"nice to have", r"nice-to-have",
    r"would be nice", r"would be great", r"if (?:you|u) (?:have|got|'ve got)(?: (?:them|it|any|one|some))?", r"if any",
    r"would be (?:best|ideal|preferable|better)", r"if poss", r"if poss\.",
    r"if there are any", r"if there's one", r"si hay", r"si las hay", r"si tienes", r"falls vorhanden",
    r"wenn vorhanden",
    r"sofern vorhanden", r"would be good", r"be nice", r"optionally", r"optional",
    r"best effort", r"best-effort", r"i'd prefer", r"i'd like", r"if at all possible", r"bonus", r"a plus",
    r"if it's possible", r"where feasible", r"if feasible", r"would prefer", r"preference", r"ideally speaking",
    # es
    r"preferiblemente", r"preferentemente", r"idealmente", r"si es posible", r"a ser posible",
    r"de ser posible", r"si se puede", r"si puedes", r"en lo posible", r"prefiero", r"preferimos",
    r"prefiere", r"preferible", r"preferida", r"preferido", r"mejor si", r"ser[ií]a bueno", r"ser[ií]a ideal",
    r"estar[ií]a bien", r"quiz[aá]s?", r"tal vez", r"opcionalmente", r"opcional", r"si puede ser",
    r"de preferencia", r"en la medida de lo posible", r"de ser factible", r"mejor no", r"better not", r"best not",
    # "mejor en el rack C3", "mejor con SSD": "better" before a place or a thing hedges ("la mejor red" does not)
    # colloquial hedges: "wenn's geht", "wär super", "schön wäre", "ojalá", "estaría bueno", "sería genial"
    r"wenn'?s geht", r"(?:wenn|falls) es sich machen l(?:[aä]|ae)sst", r"(?:wenn|falls) machbar", r"sofern machbar",
    r"w(?:[aä]|ae)r(?:en|e|')? (?:toll|super|klasse|prima|sch(?:[oö]|oe)n|nett|ideal|cool|top|gut)",
    r"sch(?:[oö]|oe)n w(?:[aä]|ae)re",
    r"ojal[aá]", r"estar[ií]a (?:bueno|genial|bien|ideal|padre|chido|b[aá]rbaro)",
    r"ser[ií]a (?:genial|estupendo|perfecto|preferible|lo ideal)", r"si no es (?:mucha )?molestia", r"si es factible",
    r"mejor(?=\s+(?:en|con|sobre|cerca|lejos|junto|fuera|dentro|sin|entre|usar|poner\w*|ir|correr|que\s+(?:est[eé]|vaya|corra|use)))",
    # de
    r"vorzugsweise", r"idealerweise", r"wenn m(?:[oö]|oe)glich", r"falls m(?:[oö]|oe)glich",
    # "möglichst in rack-3" hedges; "möglichst wenig ausgelastet" (as little as possible) is a superlative
    r"m(?:[oö]|oe)glichst(?!\s+(?:wenig|viel|nah|schnell|gro(?:[sß]|ss)|hoch|niedrig|gering|kurz|eng|dicht|leer|frei|weit|"
    r"stark|gut|flott|zusammen)\w*)",
    r"am liebsten", r"bevorzugt", r"bevorzuge", r"bevorzugen", r"lieber", r"gerne?", r"nach m(?:[oö]|oe)glichkeit",
    r"w(?:[aä]|ae)re sch(?:[oö]|oe)n", r"w(?:[aä]|ae)re nett", r"w(?:[aä]|ae)re gut", r"vielleicht", r"eventuell",
    r"optional",
    r"wenn es geht", r"am besten", r"sofern m(?:[oö]|oe)glich", r"im idealfall", r"w(?:[uü]|ue)nschenswert",
    r"nach m(?:[oö]|oe)glichkeit",
)

STRONG = compile_words(
    # en
    r"must", r"mustn't", r"a must", r"mandatory", r"required", r"requirement", r"critical", r"crucial",
    r"absolutely", r"essential", r"non-negotiable", r"nonnegotiable", r"non negotiable", r"have to",
    r"has to", r"strictly", r"imperative", r"vital", r"under no circumstances", r"at all costs",
    # es
    r"debe", r"deben", r"debes", r"obligatori[oa]s?", r"imprescindibles?", r"cr[ií]tic[oa]s?", r"esencial(?:es)?",
    r"requerid[oa]", r"requisito", r"absolutamente", r"s[ií] o s[ií]",
    # "ni de broma en el nodo X": the refusal is emphatic ("tiene que" stays neutral, like "needs")
    r"ni de broma", r"ni loc[oa]", r"ni hablar", r"ni en sueños",
    r"sin excepci[oó]n", r"a toda costa", r"cueste lo que cueste", r"es fundamental", r"fundamental",
    r"ohne ausnahme", r"um jeden preis", r"koste es,? was es wolle",
    r"innegociable", r"indispensable", r"necesariamente", r"estrictamente", r"requerimiento", r"s[ií] o s[ií]",
    # de
    r"muss", r"m(?:[uü]|ue)ssen", r"musst", r"zwingend\w*",
    r"verpflichtend\w*", r"unbedingt", r"kritisch(?:e[rnms]?)?", r"erforderlich",
    r"unverzichtbar", r"absolut", r"essenziell", r"essentiell", r"pflicht", r"auf jeden fall",
    r"obligatorisch", r"strikt", r"voraussetzung", r"ein muss", r"auf keinen fall", r"keinesfalls",
    r"unter keinen umst(?:[aä]|ae)nden", r"bajo ning[uú]n concepto", r"en ning[uú]n caso", r"de ninguna manera",
)

# --- negation ----------------------------------------------------------------------------------------
# Cues that negate what follows them inside the same clause.
NEGATION_BEFORE = compile_words(
    # en
    r"(?<!why )not(?! more than)", r"\w+n't",
    r"dont", r"doesnt", r"isnt", r"shouldnt", r"cant", r"wont", r"mustnt", r"arent", r"didnt",
    r"never", r"no(?! more than)(?! m[aá]s de)",
    r"avoid", r"avoids", r"avoiding", r"avoidance", r"off", r"away from", r"away frm", r"out of",
    r"far from", r"steer clear of", r"clear of", r"exclude", r"excluding", r"except", r"other than",
    r"anything but", r"rather than", r"instead of", r"without", r"nowhere near", r"ban", r"banned",
    r"forbid", r"forbidden", r"outside", r"outta", r"unless", r"not even", r"nowhere",
    r"leave(?=.{0,60}(?<![\w-])alone(?![\w-]))", r"d[eé]ja(?=.{0,60}en paz)", r"lass(?=.{0,60}in ruhe)",
    r"nothing(?: in| on| at)?", r"hate", r"hates", r"dislike", r"no me gusta", r"ni se te ocurra", r"skip", r"skipping",
    r"blacklist", r"blacklisted", r"blocklist", r"blocklisted", r"denylist", r"deny",
    r"exclude[sd]?", r"shun", r"dodge", r"keep away from", r"stay away from", r"rather not", r"prefer not",
    r"would rather not", r"on no account", r"all but", r"everything but", r"none of", r"anywhere but",
    r"any (?:node|zone|rack|region|host|machine|box) but", r"cualquier (?:nodo|zona|rack|regi[oó]n|m[aá]quina) menos",
    r"tod[oa]s? menos", r"todo menos",
    r"everywhere but",
    # es
    r"nunca", r"jam[aá]s", r"evita", r"evitar", r"evite", r"evitad", r"evitando", r"evitarlo", r"ev[ií]talo",
    # subjunctive and usted/ustedes forms ("quiero que evites X", "eviten X"); "sácalo de X" (take it off X)
    r"evites", r"eviten", r"evitemos", r"ev[ií]tenlo", r"ev[ií]tela", r"s[aá]ca(?:lo|la|los|las)?(?: del?)?",
    r"s[aá]quen(?:lo|la)?(?: del?)?",
    r"lejos del?", r"fuera del?", r"a menos que", r"salvo que", r"excepto", r"salvo", r"sin(?! excepci[oó]n)",
    r"nada de", r"nada",
    r"ni",
    r"ning[uú]n", r"ninguna",
    r"ninguno", r"excluye", r"excluir", r"excluya", r"excluyendo", r"excepto en", r"menos en", r"quita",
    r"qu[ií]talo", r"descarta", r"descartar", r"descartando", r"prohibid[oa]s?", r"lejos de",
    # de
    r"(?<!warum )(?<!wieso )nicht", r"nich",
    r"es sei denn", r"kein", r"keine", r"keinen", r"keinem", r"keiner", r"keines", r"nie",
    r"niemals",
    r"vermeiden", r"vermeide", r"vermeidet", r"meiden", r"meide", r"meidet", r"weg von", r"fern von",
    r"fernhalten", r"weg vom", r"fern vom", r"au(?:[sß]|ss)er", r"ohne(?! ausnahme)", r"nirgends",
    r"ausschlie(?:[sß]|ss)en", r"ausgenommen",
    r"raus aus", r"keinesfalls", r"weder", r"vermieden",
    r"gemieden", r"evitad[oa]s?", r"nirgendwo", r"bloß nicht", r"blo(?:[sß]|ss) nicht", r"verboten",
    r"ausschlie(?:[sß]|ss)lich nicht", r"lass\w* die finger von",
    r"au(?:[sß]|ss)erhalb",
    # es diminutives: "lejitos de la zona X"
    r"lejit[oa]s?(?: del?)?",
)
# Cues that negate what comes before them in the same clause (German verb-final, "X is off limits").
NEGATION_AFTER = compile_words(
    r"avoided", r"off limits", r"off-limits", r"is banned", r"is forbidden", r"is excluded",
    r"skip it", r"avoid it", r"exclude it", r"(?:is )?a no go", r"no go", r"ni de broma",
    r"ni loco",
    r"geht gar nicht", r"geht nicht", r"auf gar keinen fall", r"out of the question", r"nicht in frage",
    r"kommt nicht in frage",
    r"ni hablar", r"descartad[oa]", r"queda descartad[oa]", r"no way",
    r"vermeiden", r"meiden", r"ausschlie(?:[sß]|ss)en", r"ausschlie(?:[sß]|ss)en", r"fernhalten", r"evitar",
    r"vermieden", r"gemieden", r"evitad[oa]s?",
    r"verboten", r"tabu", r"is a no-go", r"no-go", r"is out", r"are out", r"excluded", r"blacklisted",
    r"not needed", r"not required", r"not necessary", r"unnecessary", r"not wanted", r"not welcome",
    r"no hace falta", r"no necesari[oa]", r"innecesari[oa]", r"no requerid[oa]", r"nicht n(?:[oö]|oe)tig",
    r"nicht notwendig", r"nicht erforderlich", r"unn(?:[oö]|oe)tig", r"nicht gewünscht",
    r"evitarse", r"excluido", r"excluida", r"prohibido", r"prohibida", r"ausgeschlossen",
    # German separable verbs: "lass rack-6 aus", "halte dich von X fern", "nimm X aus"
    r"aus(?=\s*(?:bitte\s*)?$)", r"fern(?=\s*(?:bitte\s*)?$)", r"weg(?=\s*(?:bitte\s*)?$)",
    r"auslassen", r"weglassen", r"aussparen", r"ausklammern", r"au(?:[sß]|ss)en vor lassen", r"links liegen lassen",
    r"(?:nix|nichts) (?:zu suchen|verloren)",
    # Spanish postposed: "en el rack-3 no, por favor", "el nodo w-2 tampoco"
    r"(?:no|tampoco)(?=\s*(?:por favor|porfa|gracias)?\s*$)",
    # verb-final: "die Zone eu-west-2c bitte nicht", "Knoten db-07 auf keinen Fall benutzen"
    r"nicht(?=\s*(?:bitte|danke|mehr)?\s*$)",
    r"(?:nicht|nie|niemals|keinesfalls|auf (?:gar )?keinen fall)\s+(?:[\w-]+\s+){0,2}?(?:benutzen|verwenden|nutzen|"
    r"nehmen|einplanen|belegen|w(?:[aä]|ae)hlen|anfassen|ansteuern|(?:laufen|landen) lassen|"
    r"deployen|schedulen)(?=\s*(?:bitte\s*)?$)",
)

# "not necessarily": a negation that only allows, never asks for the opposite.
HEDGE = compile_words(r"not necessarily", r"doesn't have to be", r"does not have to be", r"need not be",
                      r"no necesariamente",
                      r"no tiene que ser", r"nicht unbedingt", r"nicht zwingend", r"muss nicht")

# --- what a wish is not ----------------------------------------------------------------------------
# Instructions aimed at the model (prompt injection) or forged structure: the whole sentence is dropped.
INJECTION = re.compile(
    r"(?<![\w-])(?:ignore|ignora|ignoriere|ignorier|disregard|forget|olvida|vergiss)\b.{0,40}?"
    r"(?:instruction|instrucci|anweisung|prompt|rule|regla|regel|above|previous|anterior|vorherig)"
    r"|(?<![\w-])(?:system|assistant|asistente|user|usuario|developer|sistema)\s*:"
    r"|you are now|developer mode|modo desarrollador|entwicklermodus|jailbreak"
    r"|(?<![\w-])(?:print|output|return|respond|reply|emit|devuelve|imprime|responde|gib|ausgeben)\b"
    r".{0,40}?(?:intent|json|catalog|cat[aá]logo|katalog|prefer_|avoid_|spread_)"
    r"|the user wants|el usuario quiere|der benutzer will|der nutzer will|new instructions|nuevas instrucciones|"
    r"neue anweisungen|system prompt|prompt del sistema|systemprompt"
)
# Statements about the past or about people, not placement wishes.
DESCRIPTIVE = compile_words(
    r"was", r"were", r"has been", r"have been", r"had been", r"replaces", r"replaced", r"used to",
    r"previously", r"formerly", r"decommissioned", r"owns", r"owned", r"owner", r"fyi", r"ticket",
    r"fue", r"fueron", r"reemplaza", r"reemplaz[oó]", r"propietario", r"due[nñ]o", r"war", r"waren",
    r"wurde", r"wurden", r"ersetzt", r"besitzer", r"eigent(?:[uü]|ue)mer", r"migrated", r"moved", r"last week",
    r"last month", r"yesterday", r"ago", r"migrado", r"movido", r"ayer", r"migriert", r"umgezogen", r"gestern",
    r"lief", r"liefen", r"fr(?:[uü]|ue)her", r"sol[ií]a", r"sol[ií]an", r"anteriormente", r"ehemals", r"bisher",
    r"built", r"contact", r"on-?call", r"misbehaves", r"base image", r"construid[oa]s?", r"contacta\w*",
    r"last (?:night|week|month|year|time|release)", r"la [uú]ltima vez", r"beim letzten mal",
    r"letztes mal", r"earlier today", r"this morning", r"la semana pasada",
    r"el mes pasado", r"el a[nñ]o pasado", r"anoche", r"esta ma[nñ]ana", r"letzte (?:woche|nacht)",
    r"letzten (?:monat|freitag|montag)", r"letztes jahr", r"heute morgen", r"ausgefallen", r"abgest(?:[uü]|ue)rzt",
    r"neu gestartet", r"se cay[oó]", r"cayó", r"falló", r"se reinici[oó]", r"reinici[oó]", r"upgraded",
    r"restarted", r"rebooted", r"drained", r"failed over",
    # a state that has lasted: "NotReady seit 10 Minuten", "caído desde hace una hora", "down since 9:00"
    r"seit \d+", r"desde hace", r"since \d+",
    # plans are not wishes either: "next week we get H100 nodes", "el mes que viene migraremos a eu-west-1"
    r"next (?:week|month|year|quarter|sprint)", r"tomorrow",
    r"n(?:[aä]|ae)chste[nr]? (?:woche|monat|jahr|quartal|sprint)",
    r"la (?:pr[oó]xima semana|semana que viene)",
    r"el (?:pr[oó]ximo (?:mes|a[nñ]o|sprint)|mes que viene|a[nñ]o que viene)",
    r"we(?:'re| are)? plan(?:ning)?", r"wir planen", r"planeamos", r"migraremos",
    r"vamos a (?:agregar|a[nñ]adir|migrar|comprar)",
    # ("increased memory", "as described/defined" can open a wish: not listed)
    r"explained", r"documented", r"explicad[oa]s?", r"documentad[oa]s?",
    r"beschrieben", r"dokumentiert", r"erkl(?:[aä]|ae)rt", r"went", r"grew", r"spiked", r"jumped", r"investigating",
    r"happened", r"crashed", r"broke", r"subió", r"bajó", r"creció", r"stieg", r"sank",  # "bajó", not "bajo"
    r"gestiegen",
    r"gebaut", r"kontaktier\w*", r"geh(?:[oö]|oe)rt", r"pertenece", r"reminder", r"recordatorio", r"erinnerung",
)

# --- clause structure -----------------------------------------------------------------------------------
# Hard boundaries end a clause: strength and negation never cross them.
HARD_SPLIT = re.compile(
    r"[;!?¿¡]|\.(?=\s|$)|\s[-–—]\s|"
    + words(r"(?<!anything )(?<!everything )(?<!all )(?<!nothing )(?<!anywhere )(?<!everywhere )(?<!any node )"
            r"(?<!any zone )(?<!any rack )(?<!any region )(?<!any host )(?<!any machine )(?<!any box )but",
            r"however", r"although", r"though", r"whereas", r"while", r"pero", r"aunque",
            r"sin embargo", r"mientras",
            # "die Zone X aber nicht": "aber nicht" at the end negates its own clause, it opens none
            r"aber(?!\s+(?:bitte\s+)?nicht\s*(?:bitte\s*)?(?:[.;!,]|$))", r"jedoch", r"sondern", r"w(?:[aä]|ae)hrend",
            r"allerdings",
            r"dagegen", r"otherwise", r"sino")
)
# Soft boundaries separate list items and co-ordinated clauses; a continuation may inherit strength.
SOFT_SPLIT = re.compile(
    r"(?<!\d),|,(?!\d)|:(?=\s)|&|[()]|" + words(r"and", r"y", r"und", r"plus", r"as well as", r"sowie", r"adem[aá]s",
                                             r"au(?:[sß]|ss)erdem",
                             r"zudem")
)
# A co-ordinated clause that starts with one of these is a new wish with its own (neutral) strength.
OPENERS = compile_words(
    r"should", r"please", r"pls", r"plz", r"keep", r"put", r"run", r"use", r"spread", r"avoid", r"stay",
    r"place", r"schedule", r"pin", r"give", r"pick", r"deploy", r"make", r"let", r"distribute", r"colocate",
    r"co-locate", r"pack", r"we", r"i", r"it", r"they", r"land", r"choose", r"prefer", r"need", r"needs",
    r"porfa", r"por favor", r"pon", r"usa", r"evita", r"reparte", r"rep[aá]rtelo", r"mant[eé]n", r"coloca",
    r"col[oó]calo", r"distribuye", r"deber[ií]a", r"necesita", r"bitte", r"verteile", r"verteilen", r"halte",
    r"nutze", r"verwende", r"sollte", r"braucht", r"ben(?:[oö]|oe)tigt",
    # "..., y que no caiga en el rack R-02": a subjunctive "que" opens a wish of its own
    r"que",
)
FILLER = compile_words(
    r"the", r"a", r"an", r"or", r"and", r"also", r"too", r"either", r"nor", r"on", r"in", r"from", r"at", r"to",
    r"nodes?", r"zones?", r"racks?", r"regions?", r"hosts?", r"machines?", r"servers?", r"boxes", r"box",
    r"el", r"la", r"los", r"las", r"de", r"del", r"en", r"o", r"y", r"ni", r"nodos?", r"zonas?", r"regi[oó]n",
    r"regiones", r"der", r"die", r"das", r"den", r"dem", r"auf", r"im", r"und", r"oder", r"knoten", r"zonen?",
    r"regionen?", r"bitte", r"please", r"pls", r"plz", r"tho", r"though", r"either", r"as well", r"noch",
)

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "twelve": 12, "sixteen": 16,
    "a pair of": 2, "pair of": 2, "un par de": 2, "a": 1, "an": 1, "a single": 1, "single": 1, "a couple of": 2,
    "un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
    "ocho": 8, "diez": 10, "ein": 1, "eine": 1, "einer": 1, "einen": 1, "einem": 1, "zwei": 2, "drei": 3,
    "vier": 4, "f(?:[uü]|ue)nf": 5, "sechs": 6, "sieben": 7, "acht": 8, "zehn": 10,
}
