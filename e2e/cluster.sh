#!/usr/bin/env bash
# The local cluster with kruise-ts installed:
#   bash e2e/cluster.sh demo   start (replacing a previous one), run the SidecarSet demo, leave it running
#   bash e2e/cluster.sh up     the same without the demo
#   bash e2e/cluster.sh down   stop it and remove its files
#   bash e2e/cluster.sh run -- CMD...   start, run CMD with KUBECONFIG set, always stop
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx e2e/harness/cli.ts "$@"
