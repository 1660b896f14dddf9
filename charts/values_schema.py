"""Generate charts/semantic-affinity/values.schema.json from values.yaml.

Types come from the defaults in values.yaml; enums, ranges and the shapes of pass-through
Kubernetes fields come from RULES below. Every object gets ``additionalProperties: false``, so a
misspelt key fails `helm install/template` instead of being ignored. An empty map or list in
values.yaml without a rule is an error: its type cannot be inferred.

    python charts/values_schema.py            # rewrite values.schema.json
    python charts/values_schema.py --check    # exit 1 if the committed file is stale (tests do this)
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from pathlib import Path
from typing import Any

import yaml

CHART = Path(__file__).resolve().parent / "semantic-affinity"

Schema = dict[str, Any]


def enum(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


def integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def closed(properties: dict[str, Schema]) -> Schema:
    return {"type": "object", "additionalProperties": False, "properties": properties}


STRING = {"type": "string"}
STRING_MAP: Schema = {"type": "object", "additionalProperties": {"type": "string"}}
PORT = integer(1, 65535)
QUANTITY: Schema = {"type": ["string", "integer", "number"]}
RESOURCES = closed(
    {
        "requests": {"type": "object", "additionalProperties": QUANTITY},
        "limits": {"type": "object", "additionalProperties": QUANTITY},
    }
)
LABEL_SELECTOR = closed(
    {
        "matchLabels": STRING_MAP,
        "matchExpressions": {
            "type": "array",
            "items": {
                **closed(
                    {
                        "key": STRING,
                        "operator": enum("In", "NotIn", "Exists", "DoesNotExist"),
                        "values": {"type": "array", "items": STRING},
                    }
                ),
                "required": ["key", "operator"],
            },
        },
    }
)
TOLERATIONS: Schema = {
    "type": "array",
    "items": closed(
        {
            "key": STRING,
            "operator": enum("Exists", "Equal"),
            "value": STRING,
            "effect": enum("", "NoSchedule", "PreferNoSchedule", "NoExecute"),
            "tolerationSeconds": {"type": "integer"},
        }
    ),
}
# Affinity terms are passed to Kubernetes as they are; the rendered Deployment is validated
# against the Kubernetes schema, so only the top level is closed here.
AFFINITY = closed(
    {"nodeAffinity": {"type": "object"}, "podAffinity": {"type": "object"}, "podAntiAffinity": {"type": "object"}}
)
LOG_LEVEL = enum("debug", "info", "warning", "error")
DURATION: Schema = {"type": "string", "pattern": r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"}
CIDR: Schema = {"type": "string", "pattern": r"^[0-9a-fA-F:.]+/[0-9]{1,3}$"}
NETWORK_PEER = closed(
    {
        "ipBlock": {**closed({"cidr": CIDR, "except": {"type": "array", "items": CIDR}}), "required": ["cidr"]},
        "namespaceSelector": LABEL_SELECTOR,
        "podSelector": LABEL_SELECTOR,
    }
)
DNS_LABEL: Schema = {"type": "string", "pattern": r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$", "maxLength": 63}

# dotted path (fnmatch patterns) -> schema; the first match wins.
RULES: list[tuple[str, Schema]] = [
    ("nameOverride", DNS_LABEL),
    ("fullnameOverride", DNS_LABEL),
    ("commonLabels", STRING_MAP),
    ("image.pullPolicy", enum("Always", "IfNotPresent", "Never")),
    ("scheduler.image.pullPolicy", enum("Always", "IfNotPresent", "Never")),
    ("image.digest", {"type": "string", "pattern": r"^(sha256:[a-f0-9]{64})?$"}),
    ("imagePullSecrets", {"type": "array", "items": {**closed({"name": STRING}), "required": ["name"]}}),
    ("logLevel", LOG_LEVEL),
    ("*.logLevel", {"type": "string", "enum": ["", "debug", "info", "warning", "error"]}),
    ("*.replicas", integer(1)),
    ("*.port", PORT),
    ("webhook.failurePolicy", enum("Ignore", "Fail")),
    ("webhook.timeoutSeconds", integer(1, 30)),
    ("webhook.shutdownDelaySeconds", integer(0, 60)),
    ("webhook.excludeNamespaces", {"type": "array", "items": DNS_LABEL}),
    ("webhook.objectSelector", LABEL_SELECTOR),
    ("webhook.analysisTimeoutSeconds", integer(1)),
    ("webhook.ungateDeadlineSeconds", integer(1)),
    ("webhook.hintMaxChars", integer(1)),
    ("*.resources", RESOURCES),
    ("*.podDisruptionBudget.minAvailable", {"type": ["integer", "string"], "pattern": r"^[0-9]+%$", "minimum": 0}),
    ("*.topologySpread.whenUnsatisfiable", enum("ScheduleAnyway", "DoNotSchedule")),
    ("*.annotations", STRING_MAP),
    ("*.podAnnotations", STRING_MAP),
    ("*.podLabels", STRING_MAP),
    ("*.nodeSelector", STRING_MAP),
    ("*.tolerations", TOLERATIONS),
    ("*.affinity", AFFINITY),
    ("analyser.backend", enum("embedded", "bedrock", "openai")),
    ("analyser.bedrock.roleArn", {"type": "string", "pattern": r"^(arn:aws[a-z-]*:iam::[0-9]{12}:role/.+)?$"}),
    ("scheduler.name", {**DNS_LABEL, "minLength": 1}),
    ("scheduler.verbosity", integer(0, 10)),
    ("scheduler.extender.weight", integer(1)),
    ("scheduler.extender.httpTimeout", DURATION),
    ("scheduler.disabledScorePlugins", {"type": "array", "items": {"type": "string", "pattern": "^[A-Za-z]+$"}}),
    ("scorer.scoringMode", enum("tiered", "additive")),
    ("scorer.*Seconds", integer(1)),
    ("tls.mode", enum("job", "certManager", "secret")),
    ("tls.job.*", integer(1)),
    ("tls.certManager.duration", DURATION),
    ("tls.certManager.renewBefore", DURATION),
    ("networkPolicy.webhookIngressFrom", {"type": "array", "items": NETWORK_PEER}),
    ("networkPolicy.*Cidrs", {"type": "array", "items": CIDR, "minItems": 1}),
    ("networkPolicy.*Ports", {"type": "array", "items": PORT, "minItems": 1}),
    ("networkPolicy.prometheusPort", PORT),
    ("metrics.serviceMonitor.interval", DURATION),
    ("metrics.serviceMonitor.labels", STRING_MAP),
]


def rule_for(path: str) -> Schema | None:
    for pattern, schema in RULES:
        if fnmatch.fnmatchcase(path, pattern):
            return schema
    return None


def infer(value: Any, path: str) -> Schema:
    """Schema of one value: a rule if one matches, else the type of the default."""
    rule = rule_for(path)
    if rule is not None:
        return rule
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    if isinstance(value, dict):
        if not value:
            raise ValueError(f"{path}: empty map without a rule in RULES")
        props = {k: infer(v, f"{path}.{k}" if path else k) for k, v in value.items()}
        return closed(props)
    if isinstance(value, list):
        if not value:
            raise ValueError(f"{path}: empty list without a rule in RULES")
        return {"type": "array", "items": infer(value[0], f"{path}[]")}
    raise ValueError(f"{path}: unsupported value {value!r}")


def generate(values: dict[str, Any]) -> Schema:
    schema = infer(values, "")
    return {"$schema": "http://json-schema.org/draft-07/schema#", "title": "semantic-affinity values", **schema}


def render(values_file: Path = CHART / "values.yaml") -> str:
    return json.dumps(generate(yaml.safe_load(values_file.read_text())), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if values.schema.json is not up to date")
    args = parser.parse_args(argv)
    target = CHART / "values.schema.json"
    text = render()
    if args.check:
        if not target.exists() or target.read_text() != text:
            print(f"{target} is stale: run python charts/values_schema.py", file=sys.stderr)
            return 1
        return 0
    target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
