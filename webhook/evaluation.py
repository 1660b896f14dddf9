"""Evaluation metrics for analysers (ARCHITECTURE.md 2.8). Pure: rows and outcomes in, figures out.

- subset accuracy: the set of predicted intent names equals the expected set (the paper's measure;
  one spurious or missing intent fails the whole hint; a failed analysis predicts nothing);
- metadata accuracy: over matched intents (expected and predicted), every expected metadata value
  equal: lists as sets, case-insensitive; numbers within 1 %;
- strength accuracy: over matched intents, predicted strength equals the expected one;
- macro F1: mean per-intent F1 over every intent that is expected or predicted somewhere in the set;
- polarity flips: expected intents whose opposite (``shared.catalogue.OPPOSITES``: avoid_X / prefer_X,
  spread / colocate) was predicted instead, about the same names where the intent lists names; worse
  than a miss, so counted on their own.
A ratio with nothing to measure (no matched intents) is reported as 0.0.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from shared.catalogue import BY_NAME, opposites
from shared.intents import Intent, IntentDocument


class RowError(ValueError):
    """An evaluation row that does not follow the 2.8 format."""


@dataclass(frozen=True, slots=True)
class Expected:
    intent: str
    strength: float = 1.0
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EvalRow:
    id: str
    hint: str
    lang: str
    category: str
    expected: tuple[Expected, ...]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(e.intent for e in self.expected)


def parse_row(data: Any) -> EvalRow:
    """One decoded JSON row -> EvalRow. Raises RowError naming what is wrong."""
    if not isinstance(data, dict):
        raise RowError("row is not a JSON object")
    for key in ("id", "hint", "expected"):
        if key not in data:
            raise RowError(f"row has no {key!r}")
    if not isinstance(data["hint"], str):
        raise RowError("'hint' is not a string")
    if not isinstance(data["expected"], list):
        raise RowError("'expected' is not a list")
    expected = []
    for item in data["expected"]:
        if not isinstance(item, dict) or not isinstance(item.get("intent"), str):
            raise RowError(f"expected item without an intent name: {item!r}")
        metadata = item.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise RowError(f"{item['intent']}: metadata is not an object")
        strength = item.get("strength", 1.0)
        if isinstance(strength, bool) or not isinstance(strength, int | float):
            raise RowError(f"{item['intent']}: strength is not a number")
        expected.append(Expected(item["intent"], float(strength), metadata))
    return EvalRow(str(data["id"]), data["hint"], str(data.get("lang", "")), str(data.get("category", "")),
                   tuple(expected))


def read_rows(lines: Iterable[str]) -> list[EvalRow]:
    """Rows of a JSONL file (blank lines skipped). Raises RowError with the line number."""
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rows.append(parse_row(orjson.loads(line)))
        except orjson.JSONDecodeError as exc:
            raise RowError(f"line {number}: not JSON: {exc}") from None
        except RowError as exc:
            raise RowError(f"line {number}: {exc}") from None
    return rows


# --- comparing one row -------------------------------------------------------------------------------


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def value_matches(expected: Any, got: Any) -> bool:
    """Lists as case-insensitive sets; numbers within 1 % (relative to the expected value)."""
    if isinstance(expected, list | tuple):
        if not isinstance(got, list | tuple):
            return False
        return {str(v).strip().casefold() for v in expected} == {str(v).strip().casefold() for v in got}
    want, have = _as_number(expected), _as_number(got)
    if want is None or have is None:
        return str(expected).strip().casefold() == str(got).strip().casefold()
    return math.isclose(want, have, rel_tol=0.01, abs_tol=1e-9)


def metadata_matches(expected: Expected, got: Intent) -> bool:
    """Every expected metadata value equals the predicted one (keys not expected are not judged)."""
    return all(key in got.metadata and value_matches(value, got.metadata[key])
               for key, value in expected.metadata.items())


def _same_names(expected: Expected, got: Intent) -> bool:
    """Whether a predicted intent is about names the expected one lists (always true without lists)."""
    want_key, got_key = BY_NAME[expected.intent].list_key, BY_NAME[got.name].list_key
    if want_key is None or got_key is None:
        return True
    want = {str(v).strip().casefold() for v in expected.metadata.get(want_key) or ()}
    return not want or bool(want & {v.strip().casefold() for v in got.items(got_key)})


@dataclass(frozen=True, slots=True)
class RowResult:
    row: EvalRow
    predicted: tuple[Intent, ...]
    latency_ms: float
    error: str | None = None
    metadata_ok: Mapping[str, bool] = field(default_factory=dict)  # per matched intent
    strength_ok: Mapping[str, bool] = field(default_factory=dict)  # per matched intent
    cpu_ms: float | None = None  # process CPU time of the analysis, when measured (sequential runs)

    @property
    def predicted_names(self) -> frozenset[str]:
        return frozenset(i.name for i in self.predicted)

    @property
    def subset_ok(self) -> bool:
        return self.predicted_names == self.row.names

    @property
    def flips(self) -> tuple[tuple[str, str], ...]:
        """(expected, predicted opposite) for every expected intent read with the opposite polarity."""
        found = []
        for expected in self.row.expected:
            for got in self.predicted:
                if got.name in opposites(expected.intent) and got.name not in self.row.names and _same_names(
                        expected, got):
                    found.append((expected.intent, got.name))
        return tuple(found)

    @property
    def perfect(self) -> bool:
        return (self.error is None and self.subset_ok and all(self.metadata_ok.values())
                and all(self.strength_ok.values()))


def score_row(row: EvalRow, document: IntentDocument | None, latency_ms: float,
              error: str | None = None, cpu_ms: float | None = None) -> RowResult:
    """Compare one analysis with its row. ``document`` None means the analysis failed (predicts nothing)."""
    predicted = document.intents if document is not None else ()
    by_name = {intent.name: intent for intent in predicted}
    metadata_ok, strength_ok = {}, {}
    for expected in row.expected:
        got = by_name.get(expected.intent)
        if got is None:
            continue
        metadata_ok[expected.intent] = metadata_matches(expected, got)
        strength_ok[expected.intent] = math.isclose(expected.strength, got.strength)
    return RowResult(row, predicted, latency_ms, error, metadata_ok, strength_ok, cpu_ms)


# --- the set ---------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100) of ``values``; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True, slots=True)
class IntentScore:
    tp: int
    fp: int
    fn: int

    @property
    def f1(self) -> float:
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)


@dataclass(frozen=True, slots=True)
class Slice:
    """Figures over a subset of rows (all of them, one language, one category)."""

    n: int
    subset_accuracy: float
    metadata_accuracy: float
    strength_accuracy: float
    matched: int
    failed: int
    flips: int = 0  # expected intents read with the opposite polarity


def slice_of(results: Sequence[RowResult]) -> Slice:
    matched = sum(len(r.metadata_ok) for r in results)
    return Slice(
        n=len(results),
        subset_accuracy=_ratio(sum(r.subset_ok for r in results), len(results)),
        metadata_accuracy=_ratio(sum(sum(r.metadata_ok.values()) for r in results), matched),
        strength_accuracy=_ratio(sum(sum(r.strength_ok.values()) for r in results), matched),
        matched=matched,
        failed=sum(r.error is not None for r in results),
        flips=sum(len(r.flips) for r in results),
    )


def per_intent(results: Sequence[RowResult]) -> dict[str, IntentScore]:
    """TP/FP/FN per intent name over the set (every name expected or predicted somewhere)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in results:
        expected, predicted = result.row.names, result.predicted_names
        for name in expected & predicted:
            counts[name][0] += 1
        for name in predicted - expected:
            counts[name][1] += 1
        for name in expected - predicted:
            counts[name][2] += 1
    return {name: IntentScore(*counts[name]) for name in sorted(counts)}


@dataclass(frozen=True, slots=True)
class Summary:
    overall: Slice
    macro_f1: float
    p50_ms: float
    p95_ms: float
    by_lang: Mapping[str, Slice]
    by_category: Mapping[str, Slice]
    intents: Mapping[str, IntentScore]
    cpu_p50_ms: float | None = None  # only when every row's CPU time was measured
    cpu_p95_ms: float | None = None


def summarise(results: Sequence[RowResult]) -> Summary:
    """All figures of an evaluation run."""
    intents = per_intent(results)
    latencies = [r.latency_ms for r in results]
    cpu = [r.cpu_ms for r in results if r.cpu_ms is not None]
    measured = bool(results) and len(cpu) == len(results)
    groups_lang: dict[str, list[RowResult]] = defaultdict(list)
    groups_cat: dict[str, list[RowResult]] = defaultdict(list)
    for result in results:
        groups_lang[result.row.lang or "?"].append(result)
        groups_cat[result.row.category or "?"].append(result)
    return Summary(
        overall=slice_of(results),
        macro_f1=_ratio(sum(s.f1 for s in intents.values()), len(intents)) if intents else 0.0,
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        by_lang={k: slice_of(v) for k, v in sorted(groups_lang.items())},
        by_category={k: slice_of(v) for k, v in sorted(groups_cat.items())},
        intents=intents,
        cpu_p50_ms=percentile(cpu, 50) if measured else None,
        cpu_p95_ms=percentile(cpu, 95) if measured else None,
    )


def figures(summary: Summary) -> dict[str, Any]:
    """The machine-readable last line of ``semaff eval`` (flat keys first, then per-category detail)."""
    o = summary.overall
    result: dict[str, Any] = {
        "n": o.n,
        "subset_accuracy": round(o.subset_accuracy, 4),
        "macro_f1": round(summary.macro_f1, 4),
        "metadata_accuracy": round(o.metadata_accuracy, 4),
        "strength_accuracy": round(o.strength_accuracy, 4),
        "p50_ms": round(summary.p50_ms, 2),
        "p95_ms": round(summary.p95_ms, 2),
        "failed": o.failed,
        "polarity_flips": o.flips,
    }
    if summary.cpu_p50_ms is not None and summary.cpu_p95_ms is not None:
        result["cpu_p50_ms"] = round(summary.cpu_p50_ms, 2)
        result["cpu_p95_ms"] = round(summary.cpu_p95_ms, 2)
    for lang, s in summary.by_lang.items():
        result[f"n_{lang}"] = s.n
        result[f"subset_accuracy_{lang}"] = round(s.subset_accuracy, 4)
        result[f"metadata_accuracy_{lang}"] = round(s.metadata_accuracy, 4)
        result[f"strength_accuracy_{lang}"] = round(s.strength_accuracy, 4)
        result[f"polarity_flips_{lang}"] = s.flips
    result["subset_accuracy_by_category"] = {k: round(s.subset_accuracy, 4) for k, s in summary.by_category.items()}
    return result


# --- the readable report ---------------------------------------------------------------------------------


def _describe(name: str, strength: float, metadata: Mapping[str, Any]) -> str:
    text = name
    if strength != 1.0:
        text += f"@{strength:g}"
    values = []
    for key, value in sorted(metadata.items()):
        if isinstance(value, list | tuple):
            if value:
                values.append(f"{key}=[{', '.join(map(str, value))}]")
        else:
            values.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
    return text + (" {" + "; ".join(values) + "}" if values else "")


def describe_expected(row: EvalRow) -> str:
    return ", ".join(_describe(e.intent, e.strength, e.metadata) for e in row.expected) or "(none)"


def describe_predicted(result: RowResult) -> str:
    if result.error is not None:
        return f"FAILED: {result.error}"
    return ", ".join(_describe(i.name, i.strength, i.metadata) for i in result.predicted) or "(none)"


def _slice_table(title: str, slices: Mapping[str, Slice]) -> list[str]:
    lines = [f"{title:<20} {'n':>5} {'subset':>8} {'metadata':>9} {'strength':>9} {'failed':>7} {'flips':>6}"]
    for key, s in slices.items():
        # with no matched intent there is nothing to judge: show a dash, not a misleading 0 %
        metadata = f"{s.metadata_accuracy:>9.1%}" if s.matched else f"{'-':>9}"
        strength = f"{s.strength_accuracy:>9.1%}" if s.matched else f"{'-':>9}"
        lines.append(f"{key:<20} {s.n:>5} {s.subset_accuracy:>8.1%} {metadata} {strength} {s.failed:>7} {s.flips:>6}")
    return lines


def render_report(results: Sequence[RowResult], summary: Summary, *, title: str = "",
                  max_failures: int = 200) -> str:
    """The human part of ``semaff eval``: overall, per language, per category, per intent, failures, latency."""
    o = summary.overall
    lines = [title] if title else []
    lines += [
        f"rows {o.n}   subset accuracy {o.subset_accuracy:.2%}   macro F1 {summary.macro_f1:.4f}   "
        f"metadata accuracy {o.metadata_accuracy:.2%}   strength accuracy {o.strength_accuracy:.2%}   "
        f"failed analyses {o.failed}   polarity flips {o.flips}",
        f"latency per hint (wall clock): p50 {summary.p50_ms:.2f} ms   p95 {summary.p95_ms:.2f} ms"
        + (f"   CPU time: p50 {summary.cpu_p50_ms:.2f} ms   p95 {summary.cpu_p95_ms:.2f} ms"
           if summary.cpu_p50_ms is not None and summary.cpu_p95_ms is not None else ""),
        "",
        *_slice_table("language", summary.by_lang),
        "",
        *_slice_table("category", summary.by_category),
        "",
        f"{'intent':<38} {'tp':>4} {'fp':>4} {'fn':>4} {'F1':>6}",
    ]
    for name, score in summary.intents.items():
        lines.append(f"{name:<38} {score.tp:>4} {score.fp:>4} {score.fn:>4} {score.f1:>6.3f}")
    failures = [r for r in results if not r.perfect]
    lines += ["", f"failures ({len(failures)} of {o.n} rows not exactly right):"]
    for result in failures[:max_failures]:
        problems = []
        if not result.subset_ok:
            problems.append("intents")
        problems += [f"FLIP:{a}->{b}" for a, b in result.flips]
        problems += [f"metadata:{k}" for k, ok in result.metadata_ok.items() if not ok]
        problems += [f"strength:{k}" for k, ok in result.strength_ok.items() if not ok]
        hint = result.row.hint if len(result.row.hint) <= 140 else result.row.hint[:139] + "…"
        lines += [
            f"- {result.row.id} [{result.row.lang}/{result.row.category}] ({', '.join(problems) or 'error'}) {hint}",
            f"    expected: {describe_expected(result.row)}",
            f"    got:      {describe_predicted(result)}",
        ]
    if len(failures) > max_failures:
        lines.append(f"... and {len(failures) - max_failures} more")
    return "\n".join(lines)
