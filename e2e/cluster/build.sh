#!/usr/bin/env bash
# Builds the real control-plane binaries from Go modules into a cache outside the repo, keyed by version,
# so a second run builds nothing. Prints the cache directory on its last line.
#   KRUISE_TS_BIN_CACHE  overrides the cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/kruise-ts-bins)
#   KRUISE_TS_K8S        the Kubernetes minor to build: 1.34 (default, the newest tested) or 1.30 (the oldest the
#                        chart supports; its own wrapper module k8s-1.30/, CI runs the install and demo on it too)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# (scripts/openapi-defs.ts reads the default K8S= line below.)
K8S=v1.34.4
k8smod=k8s
case "${KRUISE_TS_K8S:-1.34}" in
  1.34) ;;
  1.30) K8S=v1.30.14; k8smod=k8s-1.30 ;;
  *) echo "KRUISE_TS_K8S=${KRUISE_TS_K8S}: only 1.34 and 1.30 are built here" >&2; exit 2 ;;
esac
ETCD=v3.6.16
KWOK=v0.7.0
HELM=v4.3.2
root=${KRUISE_TS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kruise-ts-bins}
bin="$root/k8s-$K8S-etcd-$ETCD-kwok-$KWOK"
# Helm (the chart's lint, template test and the local cluster's install) has a directory of its own, so a Helm bump
# does not rebuild Kubernetes.
helmbin="$root/helm-$HELM"
mkdir -p "$helmbin"
mkdir -p "$bin"

export CGO_ENABLED=0 GOFLAGS=-mod=mod
log() { printf '[cluster-build %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

build() { # name, module dir, ldflags, package[, output dir]
  local name=$1 dir=$2 ldf=$3 pkg=$4 bin=${5:-$bin}
  if [ -x "$bin/$name" ]; then log "$name: cached"; return; fi
  log "$name: building (cold builds take minutes on 2 cores)"
  local t0=$SECONDS
  # Written under a temporary name so an interrupted build never leaves a half binary that looks cached.
  (cd "$here/$dir" && go build -trimpath -ldflags "$ldf" -o "$bin/.$name.tmp" "$pkg")
  mv "$bin/.$name.tmp" "$bin/$name"
  log "$name: built in $((SECONDS - t0)) s"
}

V=k8s.io/component-base/version; C=k8s.io/client-go/pkg/version
minor=${K8S#v1.}; minor=${minor%%.*}
K8S_LDF="-s -w -X $V.gitVersion=$K8S -X $V.gitMajor=1 -X $V.gitMinor=$minor -X $V.gitTreeState=clean \
 -X $C.gitVersion=$K8S -X $C.gitMajor=1 -X $C.gitMinor=$minor"

build etcd etcd "-s -w" go.etcd.io/etcd/server/v3
build kwok kwok "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK" sigs.k8s.io/kwok/cmd/kwok
build kube-apiserver "$k8smod" "$K8S_LDF" k8s.io/kubernetes/cmd/kube-apiserver
build kube-controller-manager "$k8smod" "$K8S_LDF" k8s.io/kubernetes/cmd/kube-controller-manager
build kube-scheduler "$k8smod" "$K8S_LDF" k8s.io/kubernetes/cmd/kube-scheduler
build kubelet "$k8smod" "$K8S_LDF" k8s.io/kubernetes/cmd/kubelet
# Not a cluster binary: prints Kubernetes' OpenAPI definitions for the CRD generator (scripts/openapi-defs.ts).
# (from the default module whichever minor is built: the CRDs are generated from v1.34's definitions)
build openapi-defs k8s "-s -w" ./openapi-defs
# Routes Services on the real node (e2e/harness/node/kube-proxy.ts): the apiserver reaches the webhook, and pods the
# apiserver, through ClusterIPs as in a real cluster.
build kube-proxy "$k8smod" "$K8S_LDF" k8s.io/kubernetes/cmd/kube-proxy
build helm helm "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM" helm.sh/helm/v4/cmd/helm "$helmbin"
ln -sf "$helmbin/helm" "$bin/helm"
echo "$bin"
