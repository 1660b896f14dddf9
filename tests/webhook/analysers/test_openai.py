"""OpenAI-compatible backend against a local aiohttp server speaking the chat.completions wire format.

A real llama.cpp / vLLM server cannot run usefully on this machine (research/embedded-nlu.md: no
binary wheel, a 5-minute build that segfaults natively, 4 s per hint), so the server here answers
with the exact JSON shapes those servers and the hosted API return, including their error bodies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
from aiohttp import web

from webhook.analysers import AnalyserSettings, create
from webhook.analysers.base import analyse
from webhook.analysers.openai import OpenAIAnalyser, OpenAIConfig, parse_retry_after, read_api_key
from webhook.analysers.prompt import build_messages
from webhook.analysers.resilience import CircuitBreaker, Resilience, RetryPolicy

HINT = "needs 4 GPUs and 64GB RAM, avoid node-3"
GOOD = {"intents": [
    {"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.0, "explanation": "",
     "metadata": {"prefer_gpu_cores": 4}},
    {"intent": "prefer_memory_gb", "confidence": 0.9, "strength": 1.0, "explanation": "",
     "metadata": {"prefer_memory_gb": "64GB"}},
    {"intent": "avoid_nodes", "confidence": 0.9, "strength": 1.0, "explanation": "",
     "metadata": {"avoid_nodes": "node-3"}},
]}


def completion(content: str | None, finish_reason: str = "stop", model: str = "qwen2.5-7b-instruct") -> dict:
    """A chat.completion object as the OpenAI API (and vLLM / llama.cpp / Ollama) return it."""
    return {
        "id": "chatcmpl-9f2c1e7a", "object": "chat.completion", "created": 1764499200, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "logprobs": None, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 2310, "completion_tokens": 96, "total_tokens": 2406},
    }


def error(message: str, type_: str, code: str | None) -> dict:
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}




@dataclass
class FakeServer:
    url: str = ""
    requests: list[tuple[dict[str, str], dict]] = field(default_factory=list)
    replies: list[Any] = field(default_factory=list)  # consumed in order; each a Response or an async callable

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append((dict(request.headers), body))
        reply = self.replies.pop(0)
        return await reply(body) if callable(reply) else reply


def json_reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=orjson.dumps(data), status=status, content_type="application/json", headers=headers)


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    fake = FakeServer()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    fake.url = f"http://127.0.0.1:{port}"
    yield fake
    await runner.cleanup()


async def _no_sleep(seconds: float) -> None:
    return None


def backend(server: FakeServer, *, deadline_s: float = 30.0, attempts: int = 3, threshold: int = 5,
            json_mode: bool = True, api_key: str | None = "sk-test-123", sleep: Any = _no_sleep) -> OpenAIAnalyser:
    config = OpenAIConfig(base_url=server.url, model="qwen2.5-7b-instruct", api_key=api_key, json_mode=json_mode,
                          deadline_s=deadline_s)
    resilience = Resilience(deadline_s=deadline_s, policy=RetryPolicy(attempts=attempts), sleep=sleep,
                            breaker=CircuitBreaker(threshold=threshold))
    return OpenAIAnalyser(config, resilience=resilience)


async def run(analyser: OpenAIAnalyser, hint: str = HINT) -> Any:
    try:
        return await analyse(analyser, hint)
    finally:
        await analyser.close()


async def test_request_wire_format_and_success(server: FakeServer) -> None:
    server.replies.append(json_reply(completion(orjson.dumps(GOOD).decode())))
    outcome = await run(backend(server))
    assert outcome.error is None and outcome.document is not None
    assert outcome.document.names == ("avoid_nodes", "prefer_gpu", "prefer_memory_gb")
    by_name = {i.name: i for i in outcome.document.intents}
    assert by_name["prefer_memory_gb"].metadata == {"prefer_memory_gb": 64.0}
    assert by_name["avoid_nodes"].metadata == {"avoid_nodes": ("node-3",)}
    headers, body = server.requests[0]
    system, user = build_messages(HINT)
    assert headers["Authorization"] == "Bearer sk-test-123"
    assert body == {
        "model": "qwen2.5-7b-instruct",
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "temperature": 0.0, "top_p": 1.0, "max_tokens": 512,
        "response_format": {"type": "json_object"},
    }


async def test_base_url_with_v1_and_no_key(server: FakeServer) -> None:
    server.replies.append(json_reply(completion('{"intents": []}')))
    analyser = backend(server, api_key=None, json_mode=False)
    analyser.config = OpenAIConfig(base_url=server.url + "/v1/", model="m", api_key=None, json_mode=False)
    outcome = await run(analyser)
    assert outcome.document is not None and outcome.document.intents == ()
    headers, body = server.requests[0]
    assert "Authorization" not in headers and "response_format" not in body


async def test_server_without_json_mode_is_asked_again_and_remembered(server: FakeServer) -> None:
    rejection = error("response_format is not supported by this model", "invalid_request_error", None)
    server.replies += [json_reply(rejection, 400), json_reply(completion('{"intents": []}')),
                       json_reply(completion('{"intents": []}'))]
    analyser = backend(server)
    assert (await analyse(analyser, HINT)).document is not None
    assert (await analyse(analyser, HINT)).document is not None
    await analyser.close()
    assert ["response_format" in body for _, body in server.requests] == [True, False, False]


async def test_429_with_retry_after_is_honoured(server: FakeServer) -> None:
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    server.replies += [
        json_reply(error("Rate limit reached for requests", "requests", "rate_limit_exceeded"), 429,
                   {"Retry-After": "2"}),
        json_reply(completion(orjson.dumps(GOOD).decode())),
    ]
    outcome = await run(backend(server, sleep=sleep))
    assert outcome.error is None and len(server.requests) == 2
    assert pauses and pauses[0] >= 2.0


async def test_5xx_is_retried(server: FakeServer) -> None:
    server.replies += [json_reply(error("upstream overloaded", "server_error", None), 503),
                       web.Response(status=502, text="<html>Bad Gateway</html>"),
                       json_reply(completion('{"intents": []}'))]
    outcome = await run(backend(server))
    assert outcome.document is not None and len(server.requests) == 3


async def test_401_fails_at_once_with_the_servers_message(server: FakeServer) -> None:
    server.replies.append(json_reply(error("Incorrect API key provided: sk-test***", "invalid_request_error",
                                           "invalid_api_key"), 401))
    outcome = await run(backend(server))
    assert outcome.failed and outcome.error is not None
    assert outcome.error.startswith("http-401") and "Incorrect API key" in outcome.error
    assert len(server.requests) == 1


async def test_finish_reason_length_is_truncated(server: FakeServer) -> None:
    server.replies.append(json_reply(completion('{"intents": [{"intent": "prefer_gpu", "conf', "length")))
    outcome = await run(backend(server))
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("truncated")


async def test_garbage_body_is_a_clear_failure(server: FakeServer) -> None:
    server.replies.append(web.Response(status=200, body=b"\x00\xffnot json at all", content_type="text/plain"))
    outcome = await run(backend(server))
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("bad-response")


async def test_chatty_content_is_unusable_output(server: FakeServer) -> None:
    server.replies.append(json_reply(completion("I cannot help with scheduling questions.")))
    outcome = await run(backend(server))
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("unusable-output")


async def test_null_content_is_empty_output(server: FakeServer) -> None:
    server.replies.append(json_reply(completion(None)))
    outcome = await run(backend(server))
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("empty-output")


async def test_slow_server_is_cut_at_the_deadline(server: FakeServer) -> None:
    release = asyncio.Event()

    async def never(body: dict) -> web.Response:
        await release.wait()
        return json_reply(completion('{"intents": []}'))

    server.replies.append(never)
    outcome = await run(backend(server, deadline_s=0.2))
    release.set()
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("timeout")


async def test_unreachable_server_fails_after_retries_then_the_circuit_opens() -> None:
    dead = FakeServer(url="http://127.0.0.1:9")  # discard port: connection refused
    analyser = backend(dead, attempts=2, threshold=2)
    first = await analyse(analyser, HINT)
    second = await analyse(analyser, HINT)
    await analyser.close()
    assert first.failed and first.error is not None and first.error.startswith("connection")
    assert second.failed and second.error is not None and second.error.startswith("circuit-open")


def test_retry_after_forms() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 30 Nov 2026 10:00:30 GMT", now=1796032800.0) == 30.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


def test_api_key_from_file_wins_over_env_value(tmp_path: Any) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("sk-from-file\n")
    assert read_api_key(str(key_file), "sk-from-env") == "sk-from-file"
    assert read_api_key(None, "sk-from-env") == "sk-from-env"
    assert read_api_key(None, None) is None


async def test_registry_builds_openai_from_settings(tmp_path: Any) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("sk-file")
    settings = AnalyserSettings(openai_base_url="http://127.0.0.1:1/v1", openai_model="llama3",
                                openai_api_key_file=str(key_file), analysis_timeout_s=4.0)
    analyser = create("openai", settings)
    assert isinstance(analyser, OpenAIAnalyser)
    assert analyser.config.url == "http://127.0.0.1:1/v1/chat/completions"
    assert (analyser.model, analyser.config.api_key, analyser.resilience.deadline_s) == ("llama3", "sk-file", 4.0)
    with pytest.raises(ValueError, match="SEMAFF_OPENAI_BASE_URL"):
        create("openai", AnalyserSettings())
