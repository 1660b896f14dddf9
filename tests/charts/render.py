"""Render the chart with the real helm binary and validate objects against Kubernetes 1.36 schemas."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import kubernetes_validate
import yaml

from tests.charts import crd_schemas

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "charts" / "semantic-affinity"
KUBERNETES_VERSION = "1.36.0"  # the pinned release (hack/k8s/go.mod: k8s.io/kubernetes v1.36.x)
RELEASE = "semaff"
NAMESPACE = "semantic-affinity"


class RenderError(Exception):
    """helm refused to render (schema violation, `required` value missing, template error)."""


@dataclass(frozen=True)
class Rendered:
    objects: tuple[dict[str, Any], ...]

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [o for o in self.objects if o["kind"] == kind]

    def one(self, kind: str, name_suffix: str = "") -> dict[str, Any]:
        found = [o for o in self.of_kind(kind) if o["metadata"]["name"].endswith(name_suffix)]
        assert len(found) == 1, f"expected one {kind} *{name_suffix}, got {[o['metadata']['name'] for o in found]}"
        return found[0]


def render(
    helm: Path,
    values_files: tuple[Path, ...] = (),
    set_values: tuple[str, ...] = (),
    set_files: tuple[str, ...] = (),
    namespace: str = NAMESPACE,
    release: str = RELEASE,
    kube_version: str = KUBERNETES_VERSION,
) -> Rendered:
    """`helm template` (hooks included) parsed into objects; RenderError when helm refuses."""
    cmd = [str(helm), "template", release, str(CHART), "--namespace", namespace, "--kube-version", kube_version]
    for f in values_files:
        cmd += ["--values", str(f)]
    for s in set_values:
        cmd += ["--set", s]
    for s in set_files:
        cmd += ["--set-file", s]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RenderError(proc.stderr.strip())
    return Rendered(tuple(doc for doc in yaml.safe_load_all(proc.stdout) if doc))


def validate(obj: dict[str, Any]) -> None:
    """Strict schema validation: Kubernetes kinds against the 1.36 OpenAPI, CRD kinds against ours."""
    crd = crd_schemas.SCHEMAS.get((obj["apiVersion"], obj["kind"]))
    if crd is not None:
        jsonschema.validate(obj, crd)
        return
    kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)


def load_script(name: str) -> ModuleType:
    """Import one of the chart's Job scripts (files/<name>.py) as the Job runs it: its directory on sys.path."""
    files = str(CHART / "files")
    if files not in sys.path:
        sys.path.insert(0, files)  # ``from kube_api import Api``, as in the Job's /opt/semantic-affinity
    spec = importlib.util.spec_from_file_location(name, CHART / "files" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
