"""``python -m certs``: create or renew the webhook's TLS material and the intent-signing key pair.

Example (what the chart's pre-install Job runs)::

    python -m certs --out /certs --service semantic-affinity-webhook --namespace semantic-affinity

Prints one JSON object: the output directory, what happened to each piece (created / reused /
renewed (reason)) and the caBundle. ``--print-ca-bundle`` prints only the caBundle instead.
Exit status 0 on success, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import sys

from certs.tool import DEFAULT_CA_DAYS, DEFAULT_DAYS, DEFAULT_RENEW_WITHIN_DAYS, ensure, service_dns_names


def _ip(value: str) -> str:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an IP address: {value}") from exc


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m certs", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--out",
        required=True,
        help="directory for ca.crt, ca.key, tls.crt, tls.key, ca-bundle.b64, signing.key, signing.pub",
    )
    p.add_argument(
        "--service",
        help="Service name of the webhook (adds <svc>, <svc>.<ns>, <svc>.<ns>.svc, <svc>.<ns>.svc.<domain>)",
    )
    p.add_argument("--namespace", help="namespace of that Service (required with --service)")
    p.add_argument("--cluster-domain", default="cluster.local", help="cluster DNS domain (default: %(default)s)")
    p.add_argument("--dns", action="append", default=[], help="extra DNS SAN (repeatable), e.g. localhost")
    p.add_argument(
        "--ip", action="append", default=[], type=_ip, help="IP SAN (repeatable), e.g. 127.0.0.1 for local use"
    )
    p.add_argument(
        "--days", type=int, default=DEFAULT_DAYS, help="serving certificate lifetime in days (default: %(default)s)"
    )
    p.add_argument("--ca-days", type=int, default=DEFAULT_CA_DAYS, help="CA lifetime in days (default: %(default)s)")
    p.add_argument(
        "--renew-within-days",
        type=int,
        default=DEFAULT_RENEW_WITHIN_DAYS,
        help="renew a certificate that expires within this many days (default: %(default)s)",
    )
    p.add_argument("--no-signing-key", action="store_true", help="do not create the Ed25519 intent-signing key pair")
    p.add_argument("--print-ca-bundle", action="store_true", help="print only the caBundle (base64 PEM of ca.crt)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if bool(args.service) != bool(args.namespace):
        parser().error("--service and --namespace go together")
    dns = list(service_dns_names(args.service, args.namespace, args.cluster_domain)) if args.service else []
    dns += [d for d in args.dns if d not in dns]
    if not dns and not args.ip:
        parser().error("give --service/--namespace, --dns or --ip: the certificate needs a name")
    if min(args.days, args.ca_days) <= args.renew_within_days:
        parser().error("--days and --ca-days must be longer than --renew-within-days, or every run would renew")
    result = ensure(
        args.out,
        dns_names=dns,
        ips=args.ip,
        common_name=f"{args.service}.{args.namespace}.svc" if args.service else None,
        days=args.days,
        ca_days=args.ca_days,
        renew_within_days=args.renew_within_days,
        signing_key=not args.no_signing_key,
    )
    if args.print_ca_bundle:
        print(result.ca_bundle)
    else:
        print(json.dumps(result.to_dict(), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
