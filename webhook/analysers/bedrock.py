"""AWS Bedrock backend: the Converse API of ``bedrock-runtime`` (default model Amazon Nova Pro).

boto3 is blocking, so each call runs in a small bounded thread pool; botocore's own retries are
off because ``Resilience`` retries with full jitter under one per-call deadline, and a breaker
stops calling during an outage. Credentials come from the standard AWS chain (environment, shared
config, IRSA / EKS Pod Identity); this module never reads keys itself.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from webhook.analysers.base import AnalyserError, RawOutput
from webhook.analysers.prompt import PROMPT_VERSION, build_messages
from webhook.analysers.resilience import CircuitBreaker, Resilience, RetryPolicy, TransientError

DEFAULT_MODEL = "amazon.nova-pro-v1:0"
DEFAULT_REGION = "us-east-1"
MAX_TOKENS = 512

# Error codes worth another try; everything else from the service is a permanent failure.
RETRYABLE_CODES = frozenset({
    "ThrottlingException", "ServiceUnavailableException", "InternalServerException", "ModelTimeoutException",
    "ModelNotReadyException", "TooManyRequestsException", "RequestTimeout", "RequestTimeoutException",
})


@dataclass(frozen=True, slots=True)
class BedrockConfig:
    model: str = DEFAULT_MODEL  # a model id or a cross-region inference profile id (us.amazon.nova-pro-v1:0)
    region: str = DEFAULT_REGION
    deadline_s: float = 10.0  # the whole call, retries included
    connect_timeout_s: float = 3.0
    read_timeout_s: float = 8.0
    max_workers: int = 4  # concurrent Bedrock calls per process


def make_client(config: BedrockConfig) -> Any:
    """A ``bedrock-runtime`` client with botocore's retries off and bounded socket timeouts."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        "bedrock-runtime",
        region_name=config.region,
        config=Config(
            retries={"total_max_attempts": 1, "mode": "standard"},
            connect_timeout=config.connect_timeout_s,
            read_timeout=config.read_timeout_s,
            max_pool_connections=max(config.max_workers, 1),
        ),
    )


def converse_request(model: str, hint: str, *, inline_system: bool = False) -> dict[str, Any]:
    """The Converse request for one hint (temperature 0, topP 1, 512 tokens: the paper's settings).

    ``inline_system`` puts the instructions at the top of the user turn, for models that take no
    system prompt (Bedrock answers those with a ValidationException).
    """
    system, user = build_messages(hint)
    request: dict[str, Any] = {
        "modelId": model,
        "messages": [{"role": "user", "content": [{"text": f"{system}\n\n{user}" if inline_system else user}]}],
        "inferenceConfig": {"maxTokens": MAX_TOKENS, "temperature": 0.0, "topP": 1.0},
    }
    if not inline_system:
        request["system"] = [{"text": system}]
    return request


def _rejects_system_prompt(error: AnalyserError) -> bool:
    text = str(error).lower()
    return error.reason == "ValidationException" and "system" in text and "support" in text


def classify(exc: BaseException) -> AnalyserError:
    """Map a botocore exception to a transient or permanent AnalyserError."""
    from botocore.exceptions import (
        ClientError,
        ConnectionClosedError,
        ConnectTimeoutError,
        EndpointConnectionError,
        NoCredentialsError,
        ReadTimeoutError,
    )

    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        code = str(error.get("Code", "Unknown"))
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        message = str(error.get("Message", ""))[:200]
        if code in RETRYABLE_CODES or status >= 500 or status == 429:
            return TransientError(code, message)
        return AnalyserError(code, message)
    if isinstance(exc, ReadTimeoutError | ConnectTimeoutError):
        return TransientError("timeout", str(exc)[:200])
    if isinstance(exc, EndpointConnectionError | ConnectionClosedError):
        return TransientError("connection", str(exc)[:200])
    if isinstance(exc, NoCredentialsError):
        return AnalyserError("no-credentials", "no AWS credentials in the standard chain")
    return AnalyserError("bedrock-error", f"{type(exc).__name__}: {exc}"[:300])


def reply_text(response: dict[str, Any]) -> str:
    """The text of a Converse response; raises AnalyserError for truncated, filtered or empty output."""
    stop = response.get("stopReason", "")
    if stop == "max_tokens":
        raise AnalyserError("truncated", f"output cut at maxTokens={MAX_TOKENS}")
    if stop in ("guardrail_intervened", "content_filtered"):
        raise AnalyserError("content-filtered", stop)
    content = response.get("output", {}).get("message", {}).get("content", []) or []
    text = "".join(block["text"] for block in content if isinstance(block, dict) and "text" in block)
    if not text.strip():
        raise AnalyserError("empty-output", f"stopReason={stop!r}")
    return text


class BedrockAnalyser:
    """``bedrock`` backend. Pass ``client`` to inject one (tests use a Stubber-wrapped client)."""

    name = "bedrock"
    prompt_version = PROMPT_VERSION

    def __init__(self, config: BedrockConfig | None = None, *, client: Any = None,
                 resilience: Resilience | None = None) -> None:
        self.config = config or BedrockConfig()
        self.model = self.config.model
        self.inline_system = False  # set for good when the model turns out to take no system prompt
        self._client = client
        self._client_lock = threading.Lock()  # boto3's default session is not thread-safe
        self._pool = ThreadPoolExecutor(max_workers=max(self.config.max_workers, 1),
                                        thread_name_prefix="bedrock")
        self.resilience = resilience or Resilience(deadline_s=self.config.deadline_s, policy=RetryPolicy(),
                                                   breaker=CircuitBreaker())

    def _converse(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._client is None:  # built on first use, in the worker thread: creating it is slow
            with self._client_lock:
                if self._client is None:
                    self._client = make_client(self.config)
        try:
            return self._client.converse(**request)
        except Exception as exc:  # botocore raises many unrelated types; classify() sorts them
            raise classify(exc) from exc

    async def analyse_raw(self, hint: str) -> RawOutput:
        """Ask the model; retries, breaker and deadline per ``Resilience``. Raises AnalyserError."""
        loop = asyncio.get_running_loop()

        async def attempt(_remaining: float) -> dict[str, Any]:
            request = converse_request(self.model, hint, inline_system=self.inline_system)
            try:
                return await loop.run_in_executor(self._pool, self._converse, request)
            except AnalyserError as exc:
                if self.inline_system or not _rejects_system_prompt(exc):
                    raise
            self.inline_system = True  # e.g. Mistral 7B Instruct: ask again with the rules in the user turn
            request = converse_request(self.model, hint, inline_system=True)
            return await loop.run_in_executor(self._pool, self._converse, request)

        response = await self.resilience.call(attempt)
        return RawOutput(text=reply_text(response), model=self.model)

    async def close(self) -> None:
        # Do not wait for a call stuck in a socket read: its read timeout ends it.
        self._pool.shutdown(wait=False, cancel_futures=True)
