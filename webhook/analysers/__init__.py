"""Analyser backends by name: ``create(name, settings) -> Analyser``.

Backends are imported only when asked for, so the embedded model's weights are never loaded by a
process configured for Bedrock, and boto3 is never imported by one configured for the embedded
default. ``settings`` is any object with the attributes of ``AnalyserSettings`` (the webhook's own
settings dataclass qualifies); a missing attribute takes the default below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from webhook.analysers.base import Analyser

DEFAULT_BACKEND = "embedded"


@dataclass(frozen=True, slots=True)
class AnalyserSettings:
    """What the backends need (ARCHITECTURE contract env names in the comments)."""

    analysis_timeout_s: float = 10.0  # SEMAFF_ANALYSIS_TIMEOUT_S: per call, retries included
    analysis_retries: int = 2  # SEMAFF_ANALYSIS_RETRIES: retries after the first try (LLM backends)
    bedrock_model: str = "amazon.nova-pro-v1:0"  # SEMAFF_BEDROCK_MODEL (also inference profile ids)
    bedrock_region: str = "us-east-1"  # SEMAFF_BEDROCK_REGION
    openai_base_url: str = ""  # SEMAFF_OPENAI_BASE_URL
    openai_model: str = ""  # SEMAFF_OPENAI_MODEL
    openai_api_key_file: str = ""  # SEMAFF_OPENAI_API_KEY_FILE
    openai_api_key: str = ""  # OPENAI_API_KEY (used when no key file is set)
    openai_json_mode: bool = True  # SEMAFF_OPENAI_JSON_MODE
    hint_max_chars: int = 1000  # SEMAFF_HINT_MAX_CHARS

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> AnalyserSettings:
        """Read the ``SEMAFF_*`` variables (and ``OPENAI_API_KEY``); for entry points only."""
        defaults = cls()
        return cls(
            analysis_timeout_s=float(environ.get("SEMAFF_ANALYSIS_TIMEOUT_S") or defaults.analysis_timeout_s),
            analysis_retries=int(environ.get("SEMAFF_ANALYSIS_RETRIES") or defaults.analysis_retries),
            bedrock_model=environ.get("SEMAFF_BEDROCK_MODEL") or defaults.bedrock_model,
            bedrock_region=environ.get("SEMAFF_BEDROCK_REGION") or defaults.bedrock_region,
            openai_base_url=environ.get("SEMAFF_OPENAI_BASE_URL", ""),
            openai_model=environ.get("SEMAFF_OPENAI_MODEL", ""),
            openai_api_key_file=environ.get("SEMAFF_OPENAI_API_KEY_FILE", ""),
            openai_api_key=environ.get("OPENAI_API_KEY", ""),
            openai_json_mode=environ.get("SEMAFF_OPENAI_JSON_MODE", "true").strip().lower()
            not in ("0", "false", "no", "off"),
            hint_max_chars=int(environ.get("SEMAFF_HINT_MAX_CHARS") or defaults.hint_max_chars),
        )


class UnknownBackend(ValueError):
    """``create`` was asked for a backend that does not exist."""


_DEFAULTS = AnalyserSettings()


def _setting(settings: Any, name: str) -> Any:
    value = getattr(settings, name, None) if settings is not None else None
    return getattr(_DEFAULTS, name) if value is None else value


def _resilience(settings: Any) -> Any:
    from webhook.analysers.resilience import CircuitBreaker, Resilience, RetryPolicy

    return Resilience(deadline_s=float(_setting(settings, "analysis_timeout_s")),
                      policy=RetryPolicy(attempts=1 + max(0, int(_setting(settings, "analysis_retries")))),
                      breaker=CircuitBreaker())


def _embedded(settings: Any) -> Analyser:
    from webhook.analysers.embedded import EmbeddedAnalyser

    return EmbeddedAnalyser()


def _bedrock(settings: Any) -> Analyser:
    from webhook.analysers.bedrock import BedrockAnalyser, BedrockConfig

    deadline = float(_setting(settings, "analysis_timeout_s"))
    return BedrockAnalyser(BedrockConfig(
        model=_setting(settings, "bedrock_model"),
        region=_setting(settings, "bedrock_region"),
        deadline_s=deadline,
        # one slow read must leave the deadline room for a retry
        read_timeout_s=max(1.0, deadline * 0.8),
    ), resilience=_resilience(settings))


def _openai(settings: Any) -> Analyser:
    from webhook.analysers.openai import OpenAIAnalyser, OpenAIConfig, read_api_key

    base_url = _setting(settings, "openai_base_url")
    if not base_url:
        raise ValueError("the openai backend needs SEMAFF_OPENAI_BASE_URL (e.g. http://127.0.0.1:8080)")
    key_file = _setting(settings, "openai_api_key_file") or None
    return OpenAIAnalyser(OpenAIConfig(
        base_url=base_url,
        model=_setting(settings, "openai_model"),
        api_key=read_api_key(key_file, _setting(settings, "openai_api_key") or None),
        json_mode=bool(_setting(settings, "openai_json_mode")),
        deadline_s=float(_setting(settings, "analysis_timeout_s")),
    ), resilience=_resilience(settings))


_BUILT_IN: dict[str, Callable[[Any], Analyser]] = {
    "embedded": _embedded,
    "bedrock": _bedrock,
    "openai": _openai,
}
BACKENDS = tuple(_BUILT_IN)  # what SEMAFF_ANALYSER may name
_FACTORIES = dict(_BUILT_IN)


def register(name: str, factory: Callable[[Any], Analyser]) -> None:
    """Add (or replace) a backend factory; tests register fakes this way."""
    _FACTORIES[name] = factory


def unregister(name: str) -> None:
    """Remove a backend added with ``register`` (built-in names restore their default factory)."""
    if name in _BUILT_IN:
        _FACTORIES[name] = _BUILT_IN[name]
    else:
        _FACTORIES.pop(name, None)


def names() -> tuple[str, ...]:
    """The backend names ``create`` accepts."""
    return tuple(sorted(_FACTORIES))


def create(name: str, settings: Any = None) -> Analyser:
    """Build the backend ``name`` from ``settings``. Raises UnknownBackend or ValueError (bad settings)."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise UnknownBackend(f"unknown analyser backend {name!r}; choose one of {', '.join(names())}")
    return factory(settings)
