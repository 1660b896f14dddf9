"""Meaning-preserving perturbations of labelled hints: how people really type the same wish.

A hint typed on a phone gets curly quotes, one typed in a hurry loses its punctuation, accents,
capitals and apostrophes, gains a typo, a greeting or an emoji. None of that changes the wish, so
an analyser that reads the original row correctly should read every variant the same way. Each
perturbation is a pure, deterministic ``EvalRow -> EvalRow | None`` (None: it would not change the
row, or it could change what the row means); ``semaff robust`` scores them (``semaff/robust.py``).

The expected answers stay as they are. A perturbation never touches a word the expected metadata
holds (a workload, node or zone name), so a changed answer is the analyser's doing.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import replace

from webhook.analysers.embedded.punctuation import PUNCTUATION
from webhook.evaluation import EvalRow

Perturbation = Callable[[EvalRow], EvalRow | None]

# Chatter people put around a wish, per language: a greeting before, thanks after.
_WRAPS = {
    "en": ("hi team, ", " thanks!"),
    "es": ("hola equipo, ", " gracias!"),
    "de": ("hallo zusammen, ", " danke!"),
    "fr": ("salut l'équipe, ", " merci !"),
}
_LONG_WORD = re.compile(r"(?<![\w.-])[^\W\d_]{6,}(?![\w-])")


def _names_of(row: EvalRow) -> set[str]:
    """Every string the expected metadata holds, case-folded, and their words."""
    names: set[str] = set()
    for expected in row.expected:
        for value in expected.metadata.values():
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str):
                    names.add(item.casefold())
                    names.update(re.findall(r"\w+", item.casefold()))
    return names


def _with_hint(row: EvalRow, hint: str, tag: str) -> EvalRow | None:
    if hint == row.hint:
        return None
    names = _names_of(row)
    # A perturbation that rewrote a name would change the expected answer: leave such rows out.
    if any(name not in hint.casefold() for name in names if name in row.hint.casefold()):
        return None
    return replace(row, id=f"{row.id}~{tag}", hint=hint)


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))


def _outside_names(row: EvalRow, change: Callable[[str], str]) -> str:
    """``change`` applied to the hint's words that are not expected names (names keep their spelling)."""
    names = _names_of(row)
    return re.sub(r"[\w'’-]+", lambda m: m.group(0) if m.group(0).casefold() in names else change(m.group(0)),
                  row.hint)


def curly_quotes(row: EvalRow) -> EvalRow | None:
    """Phone keyboards and word processors: ’ for ', “…” for "…"."""
    hint = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", row.hint).replace("'", "\u2019")
    return _with_hint(row, hint, "curly")


def no_accents(row: EvalRow) -> EvalRow | None:
    """A keyboard without the accents: é → e, ü → u, ñ → n, ß → ss (names untouched)."""
    return _with_hint(row, _outside_names(row, lambda w: _strip_accents(w).replace("ß", "ss")), "noaccent")


def lower_case(row: EvalRow) -> EvalRow | None:
    """Everything in lower case (German nouns too)."""
    return _with_hint(row, row.hint.lower(), "lower")


def no_punctuation(row: EvalRow) -> EvalRow | None:
    """Sentence punctuation dropped (inside numbers and names it stays: 1.5 TB, eu-west-1)."""
    return _with_hint(row, " ".join(PUNCTUATION.sub("", row.hint).split()), "nopunct")


def chat(row: EvalRow) -> EvalRow | None:
    """Lower case and no sentence punctuation: how a hint is typed in a hurry."""
    return _with_hint(row, " ".join(PUNCTUATION.sub("", row.hint.lower()).split()), "chat")


def no_apostrophes(row: EvalRow) -> EvalRow | None:
    """Apostrophes left out: dont, doesnt, dun, lapi."""
    return _with_hint(row, row.hint.replace("'", "").replace("\u2019", ""), "noapos")


def wrapped(row: EvalRow) -> EvalRow | None:
    """A greeting before and thanks after, in the row's language."""
    before, after = _WRAPS.get(row.lang, _WRAPS["en"])
    return _with_hint(row, before + row.hint + after, "wrapped") if row.hint.strip() else None


def emoji(row: EvalRow) -> EvalRow | None:
    """An emoji at the end."""
    return _with_hint(row, row.hint + " \U0001f64f", "emoji") if row.hint.strip() else None


def typo(row: EvalRow) -> EvalRow | None:
    """One slip (two letters swapped, one dropped or doubled) in one long word that is not a name.

    Deterministic per row (seeded by its id), so two runs score the same variants.
    """
    names = _names_of(row)
    words = [m for m in _LONG_WORD.finditer(row.hint) if m.group(0).casefold() not in names]
    if not words:
        return None
    rng = random.Random(row.id)
    match = rng.choice(words)
    word = match.group(0)
    i = rng.randrange(1, len(word) - 2)
    slip = rng.choice(("swap", "drop", "double"))
    new = {"swap": word[:i] + word[i + 1] + word[i] + word[i + 2:], "drop": word[:i] + word[i + 1:],
           "double": word[:i] + word[i] + word[i:]}[slip]
    return _with_hint(row, row.hint[:match.start()] + new + row.hint[match.end():], "typo")


PERTURBATIONS: dict[str, Perturbation] = {
    "curly": curly_quotes,
    "noaccent": no_accents,
    "lower": lower_case,
    "nopunct": no_punctuation,
    "chat": chat,
    "noapos": no_apostrophes,
    "wrapped": wrapped,
    "emoji": emoji,
    "typo": typo,
}


def perturbed(rows: Iterable[EvalRow], name: str) -> list[tuple[EvalRow, EvalRow]]:
    """(original, variant) for every row the perturbation ``name`` changes."""
    change = PERTURBATIONS[name]
    pairs = []
    for row in rows:
        variant = change(row)
        if variant is not None:
            pairs.append((row, variant))
    return pairs
