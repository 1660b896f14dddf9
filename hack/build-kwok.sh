#!/usr/bin/env bash
# Builds KWOK (sigs.k8s.io/kwok, pinned by hack/kwok/go.mod) into the binary cache: the simulated
# nodes of `make cluster` and the node tier. Does nothing when the binary is already there; prints the
# bin directory as its last line (like hack/build-control-plane.sh). Beside the binary it writes
# stages.yaml: KWOK's own "fast" node and pod stages (initialise, heartbeat by Lease, pod ready,
# Job pods complete, delete) from the pinned module, which the kwok binary needs as its --config.
set -euo pipefail
KWOK_VERSION=$(awk '$1 == "require" && $2 == "sigs.k8s.io/kwok" {print $3}' "$(dirname "$0")/kwok/go.mod")
CACHE=${SEMAFF_CACHE:-$HOME/.cache/semantic-affinity}
BIN="$CACHE/kwok-$KWOK_VERSION/bin"
HERE=$(cd "$(dirname "$0")" && pwd)
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
export GOMODCACHE="$CACHE/go/mod" GOCACHE="$CACHE/go/build"
if [ -x "$BIN/kwok" ] && [ -s "$BIN/stages.yaml" ]; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "build-kwok: Go is not installed (need go >= 1.26)" >&2; exit 1; }
mkdir -p "$CACHE"
exec 9>"$CACHE/build-kwok.lock"
flock 9
if [ -x "$BIN/kwok" ] && [ -s "$BIN/stages.yaml" ]; then echo "$BIN"; exit 0; fi
start=$(date +%s)
echo "[kwok build] sigs.k8s.io/kwok $KWOK_VERSION into $BIN (cold: ~2-4 min on 2 cores, once)" >&2
rm -rf "$BIN.partial" && mkdir -p "$BIN.partial"
( cd "$HERE/kwok" && go mod download && nice go build -trimpath -ldflags "-s -w" -o "$BIN.partial/kwok" sigs.k8s.io/kwok/cmd/kwok )
STAGES="$GOMODCACHE/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage"
for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
         pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
  echo "---"; cat "$STAGES/$f"
done > "$BIN.partial/stages.yaml"
rm -rf "$BIN" && mv "$BIN.partial" "$BIN"
echo "[kwok build +$(( $(date +%s) - start ))s] done: $BIN" >&2
echo "$BIN"
