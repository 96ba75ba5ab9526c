#!/usr/bin/env bash
# Every test, from a fresh clone: apt packages (guide §9.1), npm ci, the Go build of the cluster binaries
# (cached outside the repo), typecheck, lint, unit tests, then the e2e tests against one shared local cluster.
# Idempotent; needs root for apt-get (skipped when every package is already installed).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

pkgs=(containerd runc containernetworking-plugins docker-registry skopeo umoci busybox-static iptables openssl curl)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # No systemd: package scripts may fail to start services; the harness starts its own daemons.
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

step "npm ci";            npm ci --no-audit --no-fund
step "Go build (cached)"; bash e2e/cluster/build.sh
step "typecheck";         npm run --silent typecheck
step "lint";              npm run --silent lint
step "unit tests";        npm run --silent test:unit
step "e2e tests";         bash e2e/cluster.sh run -- npm run --silent test:e2e
step "all tests passed"
