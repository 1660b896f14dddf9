"""Small strict schemas for the custom resources the chart renders (not in the Kubernetes OpenAPI).

Field names and shapes follow cert-manager's v1 API (Certificate, Issuer) and prometheus-operator's
monitoring.coreos.com/v1 ServiceMonitor; only the fields the chart may use are allowed, so a typo
or a field at the wrong level fails.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

STRING = {"type": "string"}
STRING_MAP = {"type": "object", "additionalProperties": STRING}
DURATION = {"type": "string", "pattern": r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"}


def closed(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return {"type": "object", "additionalProperties": False, "properties": properties, "required": list(required)}


METADATA = closed(
    {"name": STRING, "namespace": STRING, "labels": STRING_MAP, "annotations": STRING_MAP}, ("name", "namespace")
)


def resource(api_version: str, kind: str, spec: Schema) -> Schema:
    return closed(
        {"apiVersion": {"const": api_version}, "kind": {"const": kind}, "metadata": METADATA, "spec": spec},
        ("apiVersion", "kind", "metadata", "spec"),
    )


ISSUER_REF = closed({"name": STRING, "kind": {"enum": ["Issuer", "ClusterIssuer"]}, "group": STRING}, ("name",))
USAGES = [
    "signing", "digital signature", "content commitment", "key encipherment", "key agreement",
    "data encipherment", "cert sign", "crl sign", "encipher only", "decipher only", "any",
    "server auth", "client auth", "code signing", "email protection", "s/mime", "ipsec end system",
    "ipsec tunnel", "ipsec user", "timestamping", "ocsp signing", "microsoft sgc", "netscape sgc",
]  # fmt: skip

CERTIFICATE = resource(
    "cert-manager.io/v1",
    "Certificate",
    closed(
        {
            "secretName": STRING,
            "commonName": STRING,
            "dnsNames": {"type": "array", "items": STRING, "minItems": 1},
            "ipAddresses": {"type": "array", "items": STRING},
            "isCA": {"type": "boolean"},
            "duration": DURATION,
            "renewBefore": DURATION,
            "usages": {"type": "array", "items": {"enum": USAGES}},
            "privateKey": closed(
                {
                    "algorithm": {"enum": ["RSA", "ECDSA", "Ed25519"]},
                    "size": {"type": "integer"},
                    "encoding": {"enum": ["PKCS1", "PKCS8"]},
                    "rotationPolicy": {"enum": ["Never", "Always"]},
                }
            ),
            "issuerRef": ISSUER_REF,
        },
        ("secretName", "issuerRef"),
    ),
)

ISSUER = resource(
    "cert-manager.io/v1",
    "Issuer",
    {
        **closed(
            {
                "selfSigned": closed({"crlDistributionPoints": {"type": "array"}}),
                "ca": closed({"secretName": STRING}, ("secretName",)),
            }
        ),
        "minProperties": 1,
        "maxProperties": 1,
    },
)

ENDPOINT = closed(
    {
        "port": STRING,
        "scheme": {"enum": ["http", "https"]},
        "path": STRING,
        "interval": DURATION,
        "scrapeTimeout": DURATION,
        "tlsConfig": closed(
            {"serverName": STRING, "insecureSkipVerify": {"type": "boolean"}, "ca": {"type": "object"}}
        ),
    },
    ("port",),
)

SERVICE_MONITOR = resource(
    "monitoring.coreos.com/v1",
    "ServiceMonitor",
    closed(
        {
            "selector": closed({"matchLabels": STRING_MAP}, ("matchLabels",)),
            "namespaceSelector": closed({"matchNames": {"type": "array", "items": STRING}, "any": {"type": "boolean"}}),
            "endpoints": {"type": "array", "items": ENDPOINT, "minItems": 1},
        },
        ("selector", "endpoints"),
    ),
)

SCHEMAS: dict[tuple[str, str], Schema] = {
    ("cert-manager.io/v1", "Certificate"): CERTIFICATE,
    ("cert-manager.io/v1", "Issuer"): ISSUER,
    ("monitoring.coreos.com/v1", "ServiceMonitor"): SERVICE_MONITOR,
}
