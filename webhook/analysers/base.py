"""The analyser interface and the one path every backend's output takes.

A backend turns a *sanitised* hint into raw output (whatever the model said). Everything after
that is shared here: parse the text (JSON, JSON in code fences, JSON after chatter), check the
lenient raw schema, normalise to the canonical document. So every backend gives the same bytes
for the same meaning, and garbage from any backend becomes ``failed`` with a reason, never an
exception escaping.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.intents import IntentDocument
from shared.normalise import NormalisationError, normalise


class AnalyserError(Exception):
    """A backend could not produce output (timeout, throttled after retries, circuit open, ...).

    ``reason`` is a short metric label; ``retryable`` says whether trying again may help.
    """

    def __init__(self, reason: str, detail: str = "", *, retryable: bool = False) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.retryable = retryable


@dataclass(frozen=True, slots=True)
class RawOutput:
    """What a backend returns: text from an LLM, or an already-structured object (embedded)."""

    text: str | None = None
    data: Any = None
    model: str = ""
    reason: str | None = None  # why the backend read no intent, when it knows ("language-not-supported: ...")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of analysing one hint with one backend."""

    document: IntentDocument | None  # None when the analysis failed
    analyser: str
    model: str
    prompt_version: str
    latency_ms: float
    error: str | None = None
    notes: tuple[str, ...] = field(default=())
    reason: str | None = None  # why there is no intent, when the backend said (RawOutput.reason)

    @property
    def failed(self) -> bool:
        return self.document is None


class Analyser(Protocol):
    """A backend. ``name`` is the backend id (``embedded``, ``bedrock``, ``openai``)."""

    name: str
    model: str
    prompt_version: str

    async def analyse_raw(self, hint: str) -> RawOutput:
        """Raw output for one sanitised hint. Raises AnalyserError on failure."""
        ...

    async def close(self) -> None:
        """Release clients and threads."""
        ...


def extract_json(text: str) -> Any:
    """The first JSON value in an LLM reply: bare, inside ``` fences, or after some chatter.

    Raises ValueError when there is none (including output cut off mid-object).
    """
    import orjson  # local: only the LLM path needs it

    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        stripped = stripped.rsplit("```", 1)[0]
    try:
        return orjson.loads(stripped)
    except orjson.JSONDecodeError:
        pass
    start = min((i for i in (stripped.find("{"), stripped.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise ValueError("no JSON in the reply")
    closer = "}" if stripped[start] == "{" else "]"
    end = stripped.rfind(closer)
    if end <= start:
        raise ValueError("JSON in the reply is incomplete")
    try:
        return orjson.loads(stripped[start : end + 1])
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"reply is not valid JSON: {exc}") from exc


# The reason given for a hint that held prompt markup (``analyse``).
FORGED_MARKUP = ("forged-markup: the hint held prompt markup (<hint>, </system>, [INST], <|im_start|>), "
                 "so its words are not read as a placement wish")


async def analyse(analyser: Analyser, hint: str, deadline_s: float | None = None, *,
                  forged_markup: bool = False) -> Outcome:
    """Run one backend on one sanitised hint and normalise its output. Never raises (but CancelledError).

    ``deadline_s`` bounds the backend call as a last guard (the LLM backends keep their own, tighter
    deadline); a backend bug (any other exception) becomes ``failed`` with the exception's type.
    ``forged_markup`` (``SanitisedHint.forged_markup``): the hint held prompt markup, so its words are not read
    as a wish by any backend: no intent, and a reason that says why.
    """
    started = time.perf_counter()

    def outcome(document: IntentDocument | None, model: str, error: str | None = None,
                notes: tuple[str, ...] = (), reason: str | None = None) -> Outcome:
        return Outcome(document, analyser.name, model or analyser.model, analyser.prompt_version,
                       (time.perf_counter() - started) * 1000.0, error, notes, reason)

    if not hint.strip():
        return outcome(IntentDocument(), analyser.model, notes=("empty hint",))
    if forged_markup:
        return outcome(IntentDocument(), analyser.model, notes=(FORGED_MARKUP,), reason=FORGED_MARKUP)
    try:
        async with asyncio.timeout(deadline_s):
            raw = await analyser.analyse_raw(hint)
    except AnalyserError as exc:
        return outcome(None, analyser.model, str(exc))
    except TimeoutError:
        within = f" within {deadline_s:g}s" if deadline_s is not None else ""
        return outcome(None, analyser.model, f"timeout: no answer{within}")
    except Exception as exc:  # a backend bug must not take the caller down with it
        return outcome(None, analyser.model, f"internal-error: {type(exc).__name__}: {exc}"[:300])
    try:
        data = raw.data if raw.data is not None else extract_json(raw.text or "")
        result = normalise(data)
    except (ValueError, NormalisationError) as exc:
        return outcome(None, raw.model, f"unusable-output: {exc}")
    except Exception as exc:  # e.g. RecursionError on pathologically nested JSON
        return outcome(None, raw.model, f"unusable-output: {type(exc).__name__}")
    reason = raw.reason if not result.document.intents else None
    return outcome(result.document, raw.model, notes=(*((reason,) if reason else ()), *result.notes), reason=reason)
