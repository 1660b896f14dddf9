"""Bedrock backend against botocore's Stubber: real Converse request/response shapes, no network.

The Stubber validates every request and response against the bedrock-runtime service model that
ships with botocore, so a wrong field name here fails the test, as it would fail against AWS.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import boto3
import orjson
import pytest
from botocore.exceptions import ReadTimeoutError
from botocore.stub import Stubber

from webhook.analysers import AnalyserSettings, create
from webhook.analysers.base import analyse
from webhook.analysers.bedrock import (
    BedrockAnalyser,
    BedrockConfig,
    classify,
    converse_request,
    make_client,
)
from webhook.analysers.prompt import PROMPT_VERSION, build_messages
from webhook.analysers.resilience import CircuitBreaker, Resilience, RetryPolicy, TransientError

HINT = "must have 2 GPUs, ideally in rack-3"
GOOD = {"intents": [
    {"intent": "prefer_gpu", "confidence": 0.95, "strength": 1.5, "explanation": "'must'",
     "metadata": {"prefer_gpu_cores": 2.0}},
    {"intent": "prefer_racks", "confidence": 0.9, "strength": 0.5, "explanation": "'ideally'",
     "metadata": {"prefer_racks": ["rack-3"]}},
]}


async def _no_sleep(seconds: float) -> None:
    return None


def converse_response(text: str, stop: str = "end_turn") -> dict[str, Any]:
    """A Converse response as bedrock-runtime returns it."""
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": stop,
        "usage": {"inputTokens": 2345, "outputTokens": 87, "totalTokens": 2432},
        "metrics": {"latencyMs": 812},
    }


def expected_params(model: str = "amazon.nova-pro-v1:0", hint: str = HINT) -> dict[str, Any]:
    system, user = build_messages(hint)
    return {
        "modelId": model,
        "system": [{"text": system}],
        "messages": [{"role": "user", "content": [{"text": user}]}],
        "inferenceConfig": {"maxTokens": 512, "temperature": 0.0, "topP": 1.0},
    }


@pytest.fixture
def client() -> Any:
    session = boto3.Session(aws_access_key_id="AKIDTESTING", aws_secret_access_key="testing",
                            region_name="us-east-1")
    return session.client("bedrock-runtime")


@pytest.fixture
def stub(client: Any) -> Iterator[Stubber]:
    with Stubber(client) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


_OPEN: list[BedrockAnalyser] = []


@pytest.fixture(autouse=True)
async def _close_backends() -> AsyncIterator[None]:
    yield
    while _OPEN:
        await _OPEN.pop().close()  # no worker threads outlive a test


def backend(client: Any, *, model: str = "amazon.nova-pro-v1:0", attempts: int = 3,
            threshold: int = 5) -> BedrockAnalyser:
    resilience = Resilience(deadline_s=30.0, policy=RetryPolicy(attempts=attempts), sleep=_no_sleep,
                            breaker=CircuitBreaker(threshold=threshold))
    analyser = BedrockAnalyser(BedrockConfig(model=model), client=client, resilience=resilience)
    _OPEN.append(analyser)
    return analyser


async def test_converse_success_gives_the_canonical_document(client: Any, stub: Stubber) -> None:
    stub.add_response("converse", converse_response(orjson.dumps(GOOD).decode()), expected_params())
    outcome = await analyse(backend(client), HINT)
    assert outcome.error is None
    assert outcome.document is not None and outcome.document.names == ("prefer_gpu", "prefer_racks")
    assert outcome.document.intents[0].metadata == {"prefer_gpu_cores": 2.0}
    assert (outcome.analyser, outcome.model, outcome.prompt_version) == ("bedrock", "amazon.nova-pro-v1:0",
                                                                         PROMPT_VERSION)


async def test_cross_region_inference_profile_id_is_sent_as_the_model_id(client: Any, stub: Stubber) -> None:
    model = "us.amazon.nova-pro-v1:0"
    stub.add_response("converse", converse_response('{"intents": []}'), expected_params(model))
    analyser = backend(client, model=model)
    outcome = await analyse(analyser, HINT)
    assert outcome.document is not None and outcome.document.intents == () and outcome.model == model


async def test_throttling_is_retried_then_succeeds(client: Any, stub: Stubber) -> None:
    stub.add_client_error("converse", "ThrottlingException", "Too many requests, please wait.", 429,
                          expected_params=expected_params())
    stub.add_response("converse", converse_response(orjson.dumps(GOOD).decode()), expected_params())
    outcome = await analyse(backend(client), HINT)
    assert outcome.error is None and outcome.document is not None
    assert outcome.document.names == ("prefer_gpu", "prefer_racks")


async def test_any_5xx_is_retried(client: Any, stub: Stubber) -> None:
    stub.add_client_error("converse", "ServiceUnavailableException", "unavailable", 503)
    stub.add_client_error("converse", "InternalServerException", "oops", 500)
    stub.add_response("converse", converse_response('{"intents": []}'))
    outcome = await analyse(backend(client), HINT)
    assert outcome.error is None and outcome.document is not None


async def test_validation_exception_fails_at_once(client: Any, stub: Stubber) -> None:
    stub.add_client_error("converse", "ValidationException", "The provided model identifier is invalid.", 400)
    outcome = await analyse(backend(client), HINT)
    assert outcome.failed and outcome.error is not None
    assert outcome.error.startswith("ValidationException") and "model identifier" in outcome.error


async def test_access_denied_fails_at_once(client: Any, stub: Stubber) -> None:
    stub.add_client_error("converse", "AccessDeniedException", "not authorized to invoke", 403)
    outcome = await analyse(backend(client), HINT)
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("AccessDeniedException")


async def test_malformed_text_is_unusable_output(client: Any, stub: Stubber) -> None:
    stub.add_response("converse", converse_response("Sure! The hint asks for GPUs, I think."))
    outcome = await analyse(backend(client), HINT)
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("unusable-output")


async def test_json_inside_code_fences_is_read(client: Any, stub: Stubber) -> None:
    fenced = "```json\n" + orjson.dumps(GOOD, option=orjson.OPT_INDENT_2).decode() + "\n```"
    stub.add_response("converse", converse_response(fenced))
    outcome = await analyse(backend(client), HINT)
    assert outcome.document is not None and outcome.document.names == ("prefer_gpu", "prefer_racks")


async def test_truncated_output_fails_and_is_not_retried(client: Any, stub: Stubber) -> None:
    cut = orjson.dumps(GOOD).decode()[:60]
    stub.add_response("converse", converse_response(cut, stop="max_tokens"))
    outcome = await analyse(backend(client), HINT)
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("truncated")


async def test_empty_reply_fails(client: Any, stub: Stubber) -> None:
    stub.add_response("converse", converse_response("   "))
    outcome = await analyse(backend(client), HINT)
    assert outcome.failed and outcome.error is not None and outcome.error.startswith("empty-output")


async def test_circuit_opens_after_repeated_failures(client: Any, stub: Stubber) -> None:
    analyser = backend(client, attempts=2, threshold=2)
    for _ in range(2):
        stub.add_client_error("converse", "ServiceUnavailableException", "unavailable", 503)
    first = await analyse(analyser, HINT)
    assert first.failed and first.error is not None and first.error.startswith("ServiceUnavailableException")
    second = await analyse(analyser, HINT)  # no stubbed response left: a call would fail the Stubber
    assert second.failed and second.error is not None and second.error.startswith("circuit-open")


def test_timeouts_and_server_errors_classify_as_transient() -> None:
    timeout = ReadTimeoutError(endpoint_url="https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse")
    assert isinstance(classify(timeout), TransientError)
    assert not classify(ValueError("x")).retryable


def test_client_has_botocore_retries_off_and_timeouts() -> None:
    client = make_client(BedrockConfig(region="eu-central-1", connect_timeout_s=2.0, read_timeout_s=7.0))
    config = client.meta.config
    assert client.meta.region_name == "eu-central-1"
    assert config.retries["total_max_attempts"] == 1
    assert (config.connect_timeout, config.read_timeout) == (2.0, 7.0)


def test_request_carries_the_papers_settings() -> None:
    request = converse_request("amazon.nova-pro-v1:0", HINT)
    assert request["inferenceConfig"] == {"maxTokens": 512, "temperature": 0.0, "topP": 1.0}


async def test_registry_builds_bedrock_from_settings() -> None:
    settings = AnalyserSettings(bedrock_model="us.amazon.nova-premier-v1:0", bedrock_region="us-west-2",
                                analysis_timeout_s=6.0)
    analyser = create("bedrock", settings)
    assert isinstance(analyser, BedrockAnalyser)
    assert (analyser.name, analyser.model, analyser.config.region) == ("bedrock", "us.amazon.nova-premier-v1:0",
                                                                       "us-west-2")
    assert analyser.resilience.deadline_s == 6.0
    await analyser.close()


async def test_model_without_system_prompt_is_asked_again_with_inline_rules(client: Any, stub: Stubber) -> None:
    model = "mistral.mistral-7b-instruct-v0:2"
    stub.add_client_error("converse", "ValidationException", "This model doesn't support system messages.", 400,
                          expected_params=expected_params(model))
    inline = converse_request(model, HINT, inline_system=True)
    assert "system" not in inline and inline["messages"][0]["content"][0]["text"].startswith("You are an expert")
    stub.add_response("converse", converse_response('{"intents": []}'), inline)
    stub.add_response("converse", converse_response('{"intents": []}'), inline)  # remembered
    analyser = backend(client, model=model)
    first = await analyse(analyser, HINT)
    second = await analyse(analyser, HINT)
    assert first.document is not None and second.document is not None and analyser.inline_system
