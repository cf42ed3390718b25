#!/usr/bin/env bash
# `npm run test:integration`: the real-component integration suite, from a fresh clone.
#
#   1. preflight: java (DynamoDB Local), python3 + venv (moto), go (control plane build), curl, openssl;
#      apt-get installs what is missing when it can; node_modules via `npm install` if absent.
#   2. moto_server on 127.0.0.1 (test/integration/aws/moto.sh; venv cached in $CLM_CACHE_DIR).
#   3. a real Kubernetes control plane on 127.0.0.1 (test/integration/kube/start.sh: etcd, kube-apiserver,
#      kube-controller-manager, kube-scheduler built once from the k8s.io/kubernetes module, and kwok).
#   4. Jest with jest.integration.config.cjs (DynamoDB Local is started by the tests themselves).
#   5. everything stopped again on exit (trap), whatever happened.
#
# Extra arguments go to Jest, e.g. `npm run test:integration -- test/integration/kube`.
# Knobs: CLM_CACHE_DIR (default <repo>/.cache), CLM_INTEGRATION_STATE (default: a new /tmp folder; logs stay there),
#        KUBE_VERSION etc. (see kube/build.sh).
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
cd "$REPO_ROOT"

log() { printf '[integration] %s\n' "$*" >&2; }
die() { printf '[integration] ERROR: %s\n' "$*" >&2; exit 1; }

T0=$SECONDS
STATE="${CLM_INTEGRATION_STATE:-$(mktemp -d /tmp/clm-integration.XXXXXX)}"
mkdir -p "$STATE"

# ------------------------------------------------------------------ preflight
APT_UPDATED=""
apt_install() {   # package...
  command -v apt-get >/dev/null 2>&1 || return 1
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo -n"
  if [[ -z "$APT_UPDATED" ]]; then $sudo apt-get update -qq >&2 || return 1; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >&2
}
need() {   # command apt-package why
  command -v "$1" >/dev/null 2>&1 && return 0
  log "'$1' missing ($3); installing apt package $2"
  apt_install "$2" || die "step 'preflight': '$1' is needed ($3) and 'apt-get install $2' failed; install it and re-run"
  command -v "$1" >/dev/null 2>&1 || die "step 'preflight': '$1' still missing after installing $2"
}
need java openjdk-17-jre-headless "DynamoDB Local"
need javac openjdk-17-jdk-headless "compiling the DynamoDB Local loopback launcher"
need python3 python3 "moto server"
python3 -c 'import venv, ensurepip' 2>/dev/null || {
  log "python3 venv/ensurepip missing; installing python3-venv"
  apt_install python3-venv || die "step 'preflight': python3 has no venv module and 'apt-get install python3-venv' failed"
}
need curl curl "health checks"
need openssl openssl "control-plane certificates"
command -v go >/dev/null 2>&1 || die "step 'preflight': 'go' is not on PATH; Go >= 1.25 builds the Kubernetes control plane (https://go.dev/dl/)"
if [[ ! -d node_modules/jest ]]; then
  log "node_modules missing; running npm install"
  npm install --no-audit --no-fund >&2 || die "step 'npm install' failed"
fi

# -------------------------------------------------------------- services
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  log "stopping services (state and logs kept in $STATE)"
  bash "$SCRIPT_DIR/kube/stop.sh" "$STATE/kube" >&2 || log "kube/stop.sh reported a problem (rc $?)"
  bash "$SCRIPT_DIR/aws/moto.sh" stop "$STATE/moto" >&2 || log "moto.sh stop reported a problem (rc $?)"
  log "total $((SECONDS - T0))s, exit $rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T_MOTO=$SECONDS
bash "$SCRIPT_DIR/aws/moto.sh" start "$STATE/moto" >/dev/null || die "step 'moto': test/integration/aws/moto.sh start failed (see above)"
set -a; source "$STATE/moto/env"; set +a
log "moto ready in $((SECONDS - T_MOTO))s at $AWS_ENDPOINT_URL"

T_KUBE=$SECONDS
bash "$SCRIPT_DIR/kube/start.sh" "$STATE/kube" >/dev/null || die "step 'control plane': test/integration/kube/start.sh failed (see above; build log in \${CLM_CACHE_DIR:-.cache}/kube/<version>/build.log)"
set -a; source "$STATE/kube/env"; set +a
log "control plane ready in $((SECONDS - T_KUBE))s at $KUBE_API_URL"

# Every AWS SDK client goes to moto through this one endpoint; any key works there.
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_REGION=eu-central-1 AWS_DEFAULT_REGION=eu-central-1
export AWS_EC2_METADATA_DISABLED=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true DDB_LOCAL_TELEMETRY=0
export CLM_INTEGRATION_STATE="$STATE"
unset AWS_PROFILE AWS_SESSION_TOKEN CLM_AWS_ENDPOINT

T_JEST=$SECONDS
set +e
npx jest -c jest.integration.config.cjs "$@"
rc=$?
set -e
log "jest finished in $((SECONDS - T_JEST))s (exit $rc)"
exit "$rc"
