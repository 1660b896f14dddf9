"""OpenAI-compatible backend: ``POST {base}/v1/chat/completions`` (vLLM, Ollama, llama.cpp server, hosted APIs).

JSON mode (``response_format: {"type": "json_object"}``) is asked for when enabled; a server that
rejects the field with a 400 naming it gets the request again without it, once, and is remembered
as not supporting it. Retries, breaker and deadline follow the same rules as Bedrock
(``Resilience``): 429 (honouring Retry-After), 5xx, connection errors and timeouts are retried;
other 4xx are not.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import orjson

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.prompt import PROMPT_VERSION, build_messages
from webhook.analysers.resilience import CircuitBreaker, Resilience, RetryPolicy, TransientError

MAX_TOKENS = 512


@dataclass(frozen=True, slots=True)
class OpenAIConfig:
    base_url: str = "http://127.0.0.1:8080"  # with or without a trailing /v1
    model: str = ""
    api_key: str | None = None
    json_mode: bool = True
    deadline_s: float = 10.0  # the whole call, retries included

    @property
    def url(self) -> str:
        base = self.base_url.rstrip("/")
        return f"{base}/chat/completions" if base.endswith("/v1") else f"{base}/v1/chat/completions"


def read_api_key(path: str | None, fallback: str | None) -> str | None:
    """The key from ``path`` (stripped; a mounted Secret) or else ``fallback`` (e.g. $OPENAI_API_KEY)."""
    if path:
        with open(path, encoding="utf-8") as handle:
            key = handle.read().strip()
        if key:
            return key
    return fallback or None


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date; None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _error_message(body: bytes) -> str:
    """``error.message`` of an OpenAI-style error body, else the start of the body."""
    try:
        data = orjson.loads(body)
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            return str(data["error"].get("message", ""))[:300]
        if isinstance(data, dict) and isinstance(data.get("error"), str):  # some servers (Ollama)
            return data["error"][:300]
    except orjson.JSONDecodeError:
        pass
    return body[:300].decode("utf-8", "replace")


def completion_text(body: bytes) -> str:
    """The assistant text of a chat.completion body; raises AnalyserError for bad, truncated or empty replies."""
    try:
        data = orjson.loads(body)
        choice = data["choices"][0]
        message = choice.get("message") or {}
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError):
        raise AnalyserError("bad-response", f"not a chat.completion: {body[:120]!r}") from None
    if choice.get("finish_reason") == "length":
        raise AnalyserError("truncated", f"output cut at max_tokens={MAX_TOKENS}")
    if choice.get("finish_reason") == "content_filter":
        raise AnalyserError("content-filtered", "finish_reason=content_filter")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, str) or not content.strip():
        raise AnalyserError("empty-output", f"finish_reason={choice.get('finish_reason')!r}")
    return content


class OpenAIAnalyser:
    """``openai`` backend. The aiohttp session is created on first use, inside the running loop."""

    name = "openai"
    prompt_version = PROMPT_VERSION

    def __init__(self, config: OpenAIConfig, *, resilience: Resilience | None = None) -> None:
        self.config = config
        self.model = config.model
        self.json_mode = config.json_mode  # turned off for good if the server rejects response_format
        self._session: aiohttp.ClientSession | None = None
        self.resilience = resilience or Resilience(deadline_s=config.deadline_s, policy=RetryPolicy(),
                                                   breaker=CircuitBreaker())

    def payload(self, hint: str) -> dict[str, Any]:
        """The request body for one hint (temperature 0, 512 tokens, JSON mode when enabled)."""
        system, user = build_messages(hint)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": 0.0,
            "top_p": 1.0,
            "max_tokens": MAX_TOKENS,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        return headers

    async def _post(self, hint: str, remaining: float) -> tuple[int, bytes, str | None]:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        try:
            async with self._session.post(
                self.config.url, data=orjson.dumps(self.payload(hint)), headers=self._headers(),
                timeout=aiohttp.ClientTimeout(total=remaining),
            ) as response:
                return response.status, await response.read(), response.headers.get("Retry-After")
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise TransientError("connection", f"{type(exc).__name__}: {exc}"[:200]) from exc
        except aiohttp.ClientError as exc:
            raise AnalyserError("http-error", f"{type(exc).__name__}: {exc}"[:200]) from exc

    async def _attempt(self, hint: str, remaining: float) -> str:
        status, body, retry_after = await self._post(hint, remaining)
        if status == 400 and self.json_mode and b"response_format" in body:
            self.json_mode = False  # the server cannot do JSON mode: ask again plainly, and from now on
            status, body, retry_after = await self._post(hint, remaining)
        if status == 200:
            return completion_text(body)
        message = _error_message(body)
        if status == 429:
            raise TransientError("rate-limited", message, retry_after_s=parse_retry_after(retry_after))
        if status >= 500 or status == 408:
            raise TransientError(f"http-{status}", message)
        raise AnalyserError(f"http-{status}", message)

    async def analyse_raw(self, hint: str) -> RawOutput:
        """Ask the server; retries, breaker and deadline per ``Resilience``. Raises AnalyserError."""
        text = await self.resilience.call(lambda remaining: self._attempt(hint, remaining))
        return RawOutput(text=text, model=self.model)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
