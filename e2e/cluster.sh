#!/usr/bin/env bash
# The local cluster with kruise-ts installed:
#   bash e2e/cluster.sh demo   start (replacing a previous one), run the SidecarSet demo, leave it running
#   bash e2e/cluster.sh demo hotupgrade   the same, then the optional steps named (e2e/harness/demo-optional.ts)
#   bash e2e/cluster.sh up     the same without the demo
#   bash e2e/cluster.sh down   stop it and remove its files
#   bash e2e/cluster.sh run -- CMD...   start, run CMD with KUBECONFIG set, always stop
# up, demo and run first install what they need (e2e/setup.sh: apt packages, npm ci, the Go build), so either
# Quick start command works first on a fresh clone; KRUISE_TS_SETUP_DONE=1 skips that when a caller just ran it.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  up|demo|run) [ "${KRUISE_TS_SETUP_DONE:-0}" = 1 ] || bash e2e/setup.sh ;;
  down) [ -d node_modules/tsx ] || { echo "[cluster] nothing to stop: no node_modules (no cluster was started from this clone)" >&2; exit 0; } ;;
esac
# The pinned Node (e2e/setup.sh), not the host's, for the harness and everything it starts by name.
export PATH="$PWD/node_modules/.bin:$PATH"
exec node --import tsx e2e/harness/cli.ts "$@"
