"""``make demo`` (``python -m hack.demo``): the whole system on this machine, no cloud account needed.

1. builds kube-apiserver, kube-controller-manager, kube-scheduler and etcd once (~10 min on 2 cores;
   later runs start in seconds);
2. starts them on 127.0.0.1 with the paper's eight nodes (m02..m09), our scorer (scheduler extender)
   and our webhook (embedded analyser), registered as a cluster would;
3. applies the six scenarios of examples/, one namespace each, and prints where every pod landed
   and one pod's description;
4. keeps everything running, with the kubeconfig path printed, until Ctrl-C; then stops it all.

Options: ``--no-wait`` stops right after step 3 (a smoke run); ``--only A,B`` picks scenarios.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import time

from localcluster import ControlPlane, paper_cluster
from localcluster.binaries import ensure_binaries
from localcluster.scenarios import SCENARIOS, describe_placement, run
from localcluster.workloads import describe_pod


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def _stop_on_sigterm(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hack.demo", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-wait", action="store_true", help="stop after printing the results")
    parser.add_argument("--only", default="", help="comma-separated scenario letters, e.g. A,B (default: all)")
    args = parser.parse_args(argv)
    wanted = {s.strip().upper() for s in args.only.split(",") if s.strip()}
    signal.signal(signal.SIGTERM, _stop_on_sigterm)

    say("control-plane binaries (built once into ~/.cache/semantic-affinity; the first build takes ~10 min)")
    bin_dir = ensure_binaries()
    print(f"    {bin_dir}")
    plane = ControlPlane()
    try:
        say("starting etcd, kube-apiserver, kube-controller-manager, kube-scheduler on 127.0.0.1")
        plane.start()
        say("creating the paper's eight nodes m02..m09 (m02 has a GPU, m07 a 100 Gbps NIC)")
        plane.create_nodes(paper_cluster())
        say("starting the scorer (python -m scorer), the scheduler's extender")
        plane.start_scorer()
        say("starting the webhook (python -m webhook, embedded analyser) and registering it")
        plane.start_webhook()

        rows = []
        described = ""
        for scenario in SCENARIOS:
            if wanted and scenario.key not in wanted:
                continue
            hint = scenario.main_manifest()["spec"]["template"]["metadata"]["annotations"]["semantic-affinity.io/hint"]
            say(f"scenario {scenario.key}: kubectl apply -f examples/{scenario.file}")
            print(f'    hint: "{hint}"', flush=True)
            result = run(plane.kube, plane.create_namespace, scenario, namespace=f"scenario-{scenario.key.lower()}")
            verdict = scenario.check(result.placement, result.pods)
            print(
                f"    placed: {describe_placement(result.placement)}   expected: {scenario.expected}   "
                f"{'OK' if verdict.ok else 'DIFFERENT'} ({result.seconds:.1f}s)",
                flush=True,
            )
            for pod in result.pods:
                summary = (pod["metadata"].get("annotations") or {}).get("semantic-affinity.io/summary", "")
                print(f"      {pod['metadata']['name']:<36} -> {pod['spec'].get('nodeName') or 'Pending':<8} {summary}")
            rows.append((scenario, result, verdict))
            if not described or scenario.key == "B":  # B's pods show the analysis Event
                described = describe_pod(plane.kube, result.namespace, result.pods[0]["metadata"]["name"])

        say("summary")
        for scenario, result, verdict in rows:
            mark = "ok " if verdict.ok else "!! "
            print(f"    {mark}{scenario.key} {scenario.title:<46} {describe_placement(result.placement)}")
        if described:
            say("one pod, described (what `kubectl describe pod` shows)")
            print(described, flush=True)

        kubectl = shutil.which("kubectl")
        say("the cluster is yours")
        print(f"    export KUBECONFIG={plane.kubeconfig}")
        print("    kubectl get pods -A -o wide" + ("" if kubectl else "   (kubectl is not installed here)"))
        print(f"    scorer:  {plane.scorer_url}/metrics   {plane.scorer_url}/explain?pod=scenario-b/<pod>")
        print(f"    webhook: {plane.webhook_url}/metrics (CA: {plane.service_certs() / 'ca.crt'})")
        print(f"    logs:    {plane.log_dir}")
        if kubectl:
            subprocess.run(
                [
                    kubectl,
                    f"--kubeconfig={plane.kubeconfig}",
                    "get",
                    "nodes",
                    "-L",
                    "topology.kubernetes.io/zone,topology.kubernetes.io/rack",
                ],
                check=False,
            )
        if args.no_wait:
            return 0 if all(v.ok for _, _, v in rows) else 1
        say("running; press Ctrl-C to stop and clean up")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print()
        return 0
    finally:
        say("stopping everything")
        plane.stop()


if __name__ == "__main__":
    sys.exit(main())
