#!/usr/bin/env bash
# Every test, from a fresh clone: apt packages, npm ci and the Go build of the cluster binaries (e2e/setup.sh),
# typecheck, lint, helm lint, unit tests, the e2e tests against one shared local cluster, and last the README's first command
# (`e2e/cluster.sh demo`) on a fresh cluster, torn down after, so CI proves the demo too.
# Idempotent; needs root for apt-get (skipped when every package is already installed).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

step "setup (apt, npm ci, Go build)"; KRUISE_TS_NPM_CI=1 bash e2e/setup.sh
step "typecheck";         npm run --silent typecheck
step "lint";              npm run --silent lint
# The Helm chart (the unit tests template it: scripts/chart.test.ts, scripts/manifests.test.ts).
helm="$(bash e2e/cluster/build.sh 2>/dev/null | tail -n1)/helm"
step "helm lint";         "$helm" lint --strict charts/kruise-ts
step "unit tests";        npm run --silent test:unit
step "e2e tests";         KRUISE_TS_SETUP_DONE=1 bash e2e/cluster.sh run -- npm run --silent test:e2e
step "demo (Quick start command 1)"
demo=0; KRUISE_TS_SETUP_DONE=1 bash e2e/cluster.sh demo || demo=$?
bash e2e/cluster.sh down
[ "$demo" = 0 ] || { echo "the demo failed (exit $demo)" >&2; exit "$demo"; }
step "all tests passed"
