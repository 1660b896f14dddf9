"""``python -m nodeagent``: label this node with its GPUs' NVLink verdict from ``nvidia-smi topo -m``.

Environment: ``NODE_NAME`` (the downward API's ``spec.nodeName``; required), ``SEMAFF_NVLINK_LABEL``
(default ``semantic-affinity.io/nvlink``, the label the scorer reads), ``SEMAFF_AGENT_INTERVAL_S``
(default 600), ``SEMAFF_NVIDIA_SMI`` (default ``nvidia-smi``), ``KUBECONFIG`` (else the pod's
service account). ``--once`` runs one round and exits with its status.

Each round runs the command, parses it (``nodeagent.topo``) and merge-patches the label: ``true``
when every GPU has an NVLink peer, ``false`` when none has or there is one GPU, removed when only
some have (the scorer then treats NVLink as unknown on this node). A failed command or parse changes
nothing and is logged; the next round tries again.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Mapping
from typing import Any

from nodeagent.topo import TopoError, parse
from observability.logs import configure_logging
from shared.labels import NVLINK

log = logging.getLogger("nodeagent")
DEFAULT_LABEL = NVLINK


async def read_topology(command: str, timeout_s: float = 60.0) -> bool | None:
    """Run ``<command> topo -m`` and return the NVLink verdict. Raises on failure (exit status, timeout, parse)."""
    process = await asyncio.create_subprocess_exec(command, "topo", "-m", stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout_s)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    if process.returncode != 0:
        raise RuntimeError(f"{command} topo -m exited {process.returncode}: {err.decode(errors='replace')[:300]}")
    return parse(out.decode(errors="replace")).nvlink()


def label_value(nvlink: bool | None) -> str | None:
    """The label's value for a verdict; None removes the label (merge patch)."""
    return None if nvlink is None else "true" if nvlink else "false"


async def run_once(api: Any, node: str, label: str, command: str) -> bool:
    """One round; True when the label now says what the GPUs say."""
    try:
        value = label_value(await read_topology(command))
    except (OSError, RuntimeError, TimeoutError, TopoError) as exc:
        log.error("reading the GPU topology failed; the label is left as it is",
                  extra={"node": node, "error": repr(exc)[:300]})
        return False
    current = ((await api.read_node(node)).metadata.labels or {}).get(label)
    if current == value:
        return True
    await api.patch_node(node, {"metadata": {"labels": {label: value}}})
    log.info("labelled node", extra={"node": node, "label": label, "value": value, "was": current})
    return True


async def api_client(env: Mapping[str, str]) -> Any:
    """A kubernetes-asyncio ApiClient: ``KUBECONFIG`` if set, else the pod's service account."""
    from kubernetes_asyncio import client, config

    if env.get("KUBECONFIG"):
        return await config.new_client_from_config(config_file=env["KUBECONFIG"])
    configuration = client.Configuration()
    config.load_incluster_config(client_configuration=configuration)
    return client.ApiClient(configuration=configuration)


async def main_async(env: Mapping[str, str], once: bool) -> int:
    from kubernetes_asyncio import client

    node = env.get("NODE_NAME", "").strip()
    if not node:
        print("nodeagent: NODE_NAME is not set (the DaemonSet passes spec.nodeName)", file=sys.stderr)
        return 2
    label = env.get("SEMAFF_NVLINK_LABEL", "").strip() or DEFAULT_LABEL
    command = env.get("SEMAFF_NVIDIA_SMI", "").strip() or "nvidia-smi"
    interval = float(env.get("SEMAFF_AGENT_INTERVAL_S", "").strip() or 600)
    api_client_ = await api_client(env)
    api = client.CoreV1Api(api_client_)
    try:
        while True:
            try:
                ok = await run_once(api, node, label, command)
            except client.ApiException as exc:
                log.error("updating the node failed", extra={"node": node, "status": exc.status,
                                                              "error": str(exc.reason)[:300]})
                ok = False
            if once:
                return 0 if ok else 1
            await asyncio.sleep(interval)
    finally:
        await api_client_.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nodeagent", description=__doc__.splitlines()[0])
    parser.add_argument("--once", action="store_true", help="one round, then exit (0: label up to date)")
    args = parser.parse_args(argv)
    configure_logging(os.environ.get("SEMAFF_LOG_LEVEL", "info"))
    return asyncio.run(main_async(os.environ, args.once))


if __name__ == "__main__":
    raise SystemExit(main())
