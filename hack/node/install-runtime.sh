#!/usr/bin/env bash
# Installs the container runtime a real local node needs, from Debian, when something is missing:
# containerd (1.6 on bookworm), runc, the CNI plugins (/usr/lib/cni), umoci (OCI image layouts without
# a Docker engine), debootstrap (the project image's root filesystem), iptables (kube-proxy, CNI),
# gcc + libc6-dev (the static pause binary). Needs root. Does nothing when all are present.
set -euo pipefail
need=()
command -v containerd >/dev/null || need+=(containerd)
command -v runc >/dev/null || need+=(runc)
[ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
command -v umoci >/dev/null || need+=(umoci)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v iptables >/dev/null || need+=(iptables)
command -v gcc >/dev/null || need+=(gcc)
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || [ -n "$(find /usr/lib -name libc.a -print -quit 2>/dev/null)" ] || need+=(libc6-dev)
command -v mount >/dev/null || need+=(mount)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  # Not fatal: without root there is no real node anyway (make cluster refuses, the node tier skips).
  echo "[node runtime] not root: cannot install ${need[*]}; the real node needs root" >&2
  exit 0
fi
echo "[node runtime] installing from Debian: ${need[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian enables and starts containerd's own systemd unit where systemd runs; the local node uses a
# private containerd (own config, socket and state), so the system one is left as the package set it.
