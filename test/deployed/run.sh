#!/usr/bin/env bash
# `npm run test:deployed`: the deployed tier. The CDK app as `cdk deploy` installs it, on a local AWS emulator.
#
#   1. preflight: python3 + venv (MiniStack), go/openssl/curl (the control plane), git (the config repository);
#      node_modules via `npm install` if absent.
#   2. MiniStack on 127.0.0.1 (test/deployed/ministack.sh; virtualenv cached in $CLM_CACHE_DIR).
#   3. the integration suite's Kubernetes control plane (test/integration/kube/start.sh), its API server on
#      127.0.0.2: MiniStack turns HTTPS calls to 127.0.0.1/localhost into plain HTTP, and CLM must keep TLS.
#   4. Jest with jest.deployed.config.cjs: `cdk bootstrap` + `cdk deploy --all` of the app, then the deployed
#      interfaces only (test/deployed/README.md is the map).
#   5. everything stopped again on exit (trap), whatever happened.
#
# Extra arguments go to Jest. Knobs: CLM_CACHE_DIR, CLM_DEPLOYED_STATE (default: a new /tmp folder; logs stay there).
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
cd "$REPO_ROOT"

log() { printf '[deployed] %s\n' "$*" >&2; }
die() { printf '[deployed] ERROR: %s\n' "$*" >&2; exit 1; }

T0=$SECONDS
STATE="${CLM_DEPLOYED_STATE:-$(mktemp -d /tmp/clm-deployed.XXXXXX)}"
mkdir -p "$STATE"

for tool in python3 curl openssl git go; do
  command -v "$tool" >/dev/null 2>&1 || die "step 'preflight': '$tool' is needed (python3/python3-venv: MiniStack; go, openssl, curl: the control plane; git: the config repository)"
done
python3 -c 'import venv, ensurepip' 2>/dev/null || die "step 'preflight': python3 has no venv module (apt-get install python3-venv)"
if [[ ! -d node_modules/jest ]]; then
  log "node_modules missing; running npm install"
  npm install --no-audit --no-fund >&2 || die "step 'npm install' failed"
fi

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  log "stopping services (state and logs kept in $STATE)"
  bash "$REPO_ROOT/test/integration/kube/stop.sh" "$STATE/kube" >&2 || log "kube/stop.sh reported a problem (rc $?)"
  bash "$SCRIPT_DIR/ministack.sh" stop "$STATE/ministack" >&2 || log "ministack.sh stop reported a problem (rc $?)"
  log "total $((SECONDS - T0))s, exit $rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T_STEP=$SECONDS
bash "$SCRIPT_DIR/ministack.sh" start "$STATE/ministack" >/dev/null || die "step 'ministack': test/deployed/ministack.sh start failed (see above)"
set -a; source "$STATE/ministack/env"; set +a
log "MiniStack ready in $((SECONDS - T_STEP))s at $AWS_ENDPOINT_URL"

T_STEP=$SECONDS
KUBE_API_ADDRESS=127.0.0.2 bash "$REPO_ROOT/test/integration/kube/start.sh" "$STATE/kube" >/dev/null \
  || die "step 'control plane': test/integration/kube/start.sh failed (see above)"
set -a; source "$STATE/kube/env"; set +a
log "control plane ready in $((SECONDS - T_STEP))s at $KUBE_API_URL"

# The CLM account of the emulator is 000000000000 (MiniStack takes a 12-digit access key as the account id).
export AWS_ACCESS_KEY_ID=000000000000 AWS_SECRET_ACCESS_KEY=test AWS_REGION=eu-central-1 AWS_DEFAULT_REGION=eu-central-1
export AWS_EC2_METADATA_DISABLED=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true CDK_DISABLE_CLI_TELEMETRY=true
export CLM_DEPLOYED_STATE="$STATE"
unset AWS_PROFILE AWS_SESSION_TOKEN CLM_AWS_ENDPOINT CDK_DEFAULT_ACCOUNT CDK_DEFAULT_REGION

T_STEP=$SECONDS
set +e
npx jest -c jest.deployed.config.cjs "$@"
rc=$?
set -e
log "jest finished in $((SECONDS - T_STEP))s (exit $rc)"
exit "$rc"
