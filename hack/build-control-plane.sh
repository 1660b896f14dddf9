#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy (k8s.io/kubernetes at $K8S_VERSION)
# and etcd (go.etcd.io/etcd/server/v3 at $ETCD_VERSION) from the Go module proxy into a cache
# folder outside the repository. Does nothing when the binaries are already there.
# The go.mod/go.sum in hack/k8s and hack/etcd pin every module; they are committed.
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.36.3}
ETCD_VERSION=${ETCD_VERSION:-v3.6.16}
CACHE=${SEMAFF_CACHE:-$HOME/.cache/semantic-affinity}
BIN="$CACHE/k8s-$K8S_VERSION-etcd-$ETCD_VERSION/bin"
HERE=$(cd "$(dirname "$0")" && pwd)

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
export GOMODCACHE="$CACHE/go/mod" GOCACHE="$CACHE/go/build"

built() {
  [ -x "$BIN/kube-apiserver" ] && [ -x "$BIN/kube-controller-manager" ] \
    && [ -x "$BIN/kube-scheduler" ] && [ -x "$BIN/etcd" ] \
    && [ -x "$BIN/kubelet" ] && [ -x "$BIN/kube-proxy" ]
}
if built; then echo "$BIN"; exit 0; fi

command -v go >/dev/null || { echo "build-control-plane: Go is not installed (need go >= 1.26)" >&2; exit 1; }
mkdir -p "$CACHE"
# One build at a time: a second caller (make e2e while make demo builds) waits, then finds the binaries.
exec 9>"$CACHE/build.lock"
if ! flock -n 9; then
  echo "[control-plane build] another build is running; waiting for it" >&2
  flock 9
fi
if built; then echo "$BIN"; exit 0; fi
rm -rf "$BIN.partial" && mkdir -p "$BIN.partial"
start=$(date +%s)
log() { echo "[control-plane build +$(( $(date +%s) - start ))s] $*" >&2; }
log "building into $BIN with $(go version | cut -d' ' -f3) on $(nproc) cores (cold: ~10 min on 2 cores, once)"

minor=${K8S_VERSION#v1.}; minor=${minor%%.*}; patch=${K8S_VERSION##*.}
staging="v0.$minor.$patch"
ld="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
done

log "k8s.io/kubernetes $K8S_VERSION (staging modules at $staging): downloading modules"
( cd "$HERE/k8s" && go mod download )
log "compiling kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy (15-30 min cold on 2 cores)"
( cd "$HERE/k8s" && go build -trimpath -ldflags "$ld" -o "$BIN.partial/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy )
log "etcd $ETCD_VERSION"
( cd "$HERE/etcd" && go mod download && go build -trimpath -ldflags "-s -w" -o "$BIN.partial/etcd" go.etcd.io/etcd/server/v3 )
rm -rf "$BIN" && mv "$BIN.partial" "$BIN"
log "done: $BIN"
echo "$BIN"
