#!/usr/bin/env bash
# Every test, from a fresh clone: apt packages, npm ci and the Go build of the cluster binaries (e2e/setup.sh),
# typecheck, lint, helm lint, unit tests, the e2e tests against one shared local cluster, and last the README's first command
# (`e2e/cluster.sh demo`) on a fresh cluster, torn down after, so CI proves the demo too; then the install, the
# version checks and the demo again on Kubernetes 1.30 (the oldest minor the chart supports; its binaries build in
# the background meanwhile, cached like 1.34's). Everything runs on the pinned Node (node_modules/.bin first on PATH).
# Idempotent; needs root for apt-get (skipped when every package is already installed).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

step "setup (apt, npm ci, Go build)"; KRUISE_TS_NPM_CI=1 bash e2e/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
step "node $(node --version) (pinned: package.json engines)"
# Kubernetes 1.30's binaries: a cold build takes minutes, so it overlaps the checks below.
k130log=$(mktemp); KRUISE_TS_K8S=1.30 nice -n 5 bash e2e/cluster/build.sh >"$k130log" 2>&1 & k130=$!
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
step "Kubernetes 1.30 binaries"
wait "$k130" || { cat "$k130log" >&2; echo "the Kubernetes 1.30 build failed" >&2; exit 1; }
step "Kubernetes 1.30: install, version checks, injection"
KRUISE_TS_K8S=1.30 KRUISE_TS_SETUP_DONE=1 bash e2e/cluster.sh run -- node --import tsx --test --test-concurrency=1 --test-reporter=spec \
  e2e/install.e2e.test.ts e2e/k8s-version.e2e.test.ts e2e/sidecarset-injection.e2e.test.ts
step "Kubernetes 1.30: demo (Quick start command 1)"
demo=0; KRUISE_TS_K8S=1.30 KRUISE_TS_SETUP_DONE=1 bash e2e/cluster.sh demo || demo=$?
bash e2e/cluster.sh down
[ "$demo" = 0 ] || { echo "the demo on Kubernetes 1.30 failed (exit $demo)" >&2; exit "$demo"; }
step "all tests passed"
