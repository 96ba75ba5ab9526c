#!/usr/bin/env bash
# Builds cert-manager's controller and cainjector from its Go module into the same version-keyed cache as
# ../build.sh, so a second run builds nothing. Prints the cache directory on its last line.
# v1.11.5 is the newest root module that still holds cmd/: later releases split cmd/* into modules the
# Go proxy does not serve.
#   KRUISE_TS_BIN_CACHE  overrides the cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/kruise-ts-bins)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

CM=v1.11.5
root=${KRUISE_TS_BIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kruise-ts-bins}
bin="$root/cert-manager-$CM"
mkdir -p "$bin"

export CGO_ENABLED=0 GOFLAGS=-mod=mod
log() { printf '[cert-manager-build %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

build() { # name, package
  local name=$1 pkg=$2
  if [ -x "$bin/$name" ]; then log "$name: cached"; return; fi
  log "$name: building (a cold build takes many minutes on 2 cores)"
  local t0=$SECONDS
  # A temporary name, so an interrupted build never leaves a half binary that looks cached.
  (cd "$here" && go build -trimpath -ldflags "-s -w -X github.com/cert-manager/cert-manager/pkg/util.AppVersion=$CM" \
    -o "$bin/.$name.tmp" "$pkg")
  mv "$bin/.$name.tmp" "$bin/$name"
  log "$name: built in $((SECONDS - t0)) s"
}

build cert-manager-controller github.com/cert-manager/cert-manager/cmd/controller
build cert-manager-cainjector github.com/cert-manager/cert-manager/cmd/cainjector
echo "$bin"
