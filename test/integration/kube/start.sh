#!/usr/bin/env bash
# Start a real, local Kubernetes control plane for integration tests:
#   etcd -> kube-apiserver -> kube-controller-manager + kube-scheduler -> kwok
# Everything listens on 127.0.0.1 only (free ports picked at start; the apiserver on KUBE_API_ADDRESS if set).
#
# usage: start.sh STATE_DIR
#
# Builds/reuses the binaries via build.sh (its progress goes to stderr), then
# prints to stdout, and writes to STATE_DIR/env:
#   KUBE_API_URL=https://127.0.0.1:<port>
#   KUBECONFIG=STATE_DIR/kubeconfig
#   KUBE_TOKEN=<bearer token, user in group system:masters>
#   KUBE_CA_FILE=STATE_DIR/pki/ca.crt
# Logs: STATE_DIR/logs/<component>.log, PIDs: STATE_DIR/pids/<component>.pid.
# Stop with stop.sh STATE_DIR.
#
# Knobs (environment):
#   KUBE_TOKEN           admin bearer token (default clm-integration-token)
#   KUBE_API_PORT        apiserver port (default: a free port)
#   KUBE_API_ADDRESS     loopback address the apiserver binds and its certificate names (default 127.0.0.1; the
#                        deployed tier uses 127.0.0.2: its AWS emulator turns HTTPS to 127.0.0.1 into plain HTTP)
#   KWOK_NODE_SELECTOR   label selector of the nodes kwok acts as kubelet for
#                        (default type=kwok; "*" = all nodes)
#   KUBE_START_TIMEOUT   seconds to wait for each component (default 120)
#   plus build.sh's KUBE_VERSION / ETCD_VERSION / KWOK_VERSION / CLM_CACHE_DIR
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf '[kube/start] %s\n' "$*" >&2; }
die() { printf '[kube/start] ERROR: %s\n' "$*" >&2; exit 1; }

[[ $# -eq 1 && -n "$1" ]] || die "usage: $0 STATE_DIR"
mkdir -p "$1"
STATE_DIR="$(cd "$1" && pwd)"
[[ "$STATE_DIR" != *[[:space:]]* ]] || die "STATE_DIR must not contain whitespace: '$STATE_DIR'"

for tool in openssl curl python3; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required (apt-get install -y $tool)"
done

PIDS="$STATE_DIR/pids"
LOGS="$STATE_DIR/logs"
PKI="$STATE_DIR/pki"
TIMEOUT="${KUBE_START_TIMEOUT:-120}"
ADMIN_TOKEN="${KUBE_TOKEN:-clm-integration-token}"
NODE_SELECTOR="${KWOK_NODE_SELECTOR:-type=kwok}"

# Refuse to start twice on the same state dir.
if [[ -d "$PIDS" ]]; then
  for f in "$PIDS"/*.pid; do
    [[ -e "$f" ]] || continue
    if kill -0 "$(cat "$f")" 2>/dev/null; then
      die "a control plane is already running from $STATE_DIR ($(basename "$f" .pid) pid $(cat "$f")); run stop.sh $STATE_DIR first"
    fi
  done
fi

T0=$SECONDS

# ----------------------------------------------------------------- binaries
build_out="$(bash "$SCRIPT_DIR/build.sh")" || die "build.sh failed (see its output above)"
BIN="$(sed -n 's/^KUBE_BIN_DIR=//p' <<<"$build_out")"
[[ -n "$BIN" && -x "$BIN/kube-apiserver" ]] || die "build.sh did not report a usable KUBE_BIN_DIR"
T_BUILD=$SECONDS

# ------------------------------------------------------------ fresh state
rm -rf "$PIDS" "$LOGS" "$PKI" "$STATE_DIR/etcd" "$STATE_DIR/kwok" "$STATE_DIR/certs" \
  "$STATE_DIR"/*.kubeconfig "$STATE_DIR/kubeconfig" "$STATE_DIR/env" "$STATE_DIR/tokens.csv"
mkdir -p "$PIDS" "$LOGS" "$PKI" "$STATE_DIR/kwok" "$STATE_DIR/certs"

STARTED_OK=""
cleanup_on_failure() {
  local rc=$?
  if [[ -z "$STARTED_OK" ]]; then
    log "start failed (exit $rc); stopping whatever was started"
    bash "$SCRIPT_DIR/stop.sh" "$STATE_DIR" >&2 || true
    ((rc != 0)) || rc=1
  fi
  exit "$rc"
}
trap cleanup_on_failure EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ ports
read -r ETCD_PORT ETCD_PEER_PORT API_PORT_FREE KCM_PORT SCHED_PORT KWOK_PORT < <(python3 - <<'EOF'
import socket
socks = []
for _ in range(6):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
)
API_PORT="${KUBE_API_PORT:-$API_PORT_FREE}"
API_ADDRESS="${KUBE_API_ADDRESS:-127.0.0.1}"
[[ "$API_ADDRESS" =~ ^127\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "KUBE_API_ADDRESS must be a loopback address (127.x.y.z), got '$API_ADDRESS'"
API_URL="https://$API_ADDRESS:$API_PORT"

# -------------------------------------------------------------------- PKI
ossl() { openssl "$@" >>"$LOGS/openssl.log" 2>&1 || die "openssl $1 failed (see $LOGS/openssl.log)"; }
ossl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=clm-integration-ca" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$PKI/ca.key" -out "$PKI/ca.crt"
ossl req -new -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" \
  -keyout "$PKI/apiserver.key" -out "$PKI/apiserver.csr"
cat >"$PKI/apiserver.ext" <<EOF
basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:$API_ADDRESS,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local
EOF
ossl x509 -req -days 3650 -in "$PKI/apiserver.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" \
  -CAcreateserial -extfile "$PKI/apiserver.ext" -out "$PKI/apiserver.crt"
# Service-account token signing key pair.
ossl genrsa -out "$PKI/sa.key" 2048
ossl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub"
chmod 600 "$PKI"/*.key

# ---------------------------------------------------- tokens + kubeconfigs
rand_token() { openssl rand -hex 24; }
KCM_TOKEN="$(rand_token)"; SCHED_TOKEN="$(rand_token)"; KWOK_TOKEN="$(rand_token)"
# token,user,uid,"groups"  (test cluster: every client is a cluster admin)
cat >"$STATE_DIR/tokens.csv" <<EOF
$ADMIN_TOKEN,clm-integration-admin,clm-integration-admin,"system:masters"
$KCM_TOKEN,system:kube-controller-manager,system:kube-controller-manager,"system:masters"
$SCHED_TOKEN,system:kube-scheduler,system:kube-scheduler,"system:masters"
$KWOK_TOKEN,kwok-controller,kwok-controller,"system:masters"
EOF
chmod 600 "$STATE_DIR/tokens.csv"

CA_DATA="$(base64 -w0 <"$PKI/ca.crt")"
write_kubeconfig() {   # path user token
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: clm-integration
  cluster:
    server: $API_URL
    certificate-authority-data: $CA_DATA
users:
- name: $2
  user:
    token: $3
contexts:
- name: clm-integration
  context:
    cluster: clm-integration
    user: $2
    namespace: default
current-context: clm-integration
EOF
  chmod 600 "$1"
}
write_kubeconfig "$STATE_DIR/kubeconfig" clm-integration-admin "$ADMIN_TOKEN"
write_kubeconfig "$STATE_DIR/kube-controller-manager.kubeconfig" system:kube-controller-manager "$KCM_TOKEN"
write_kubeconfig "$STATE_DIR/kube-scheduler.kubeconfig" system:kube-scheduler "$SCHED_TOKEN"
write_kubeconfig "$STATE_DIR/kwok.kubeconfig" kwok-controller "$KWOK_TOKEN"

# ---------------------------------------------------------------- helpers
launch() {   # name cmd args...   (detached, own session, output to its log)
  local name="$1"; shift
  setsid "$@" </dev/null >"$LOGS/$name.log" 2>&1 &
  echo $! >"$PIDS/$name.pid"
}

fail_component() {   # name reason
  log "$1: $2"
  log "last 40 lines of $LOGS/$1.log:"
  tail -n 40 "$LOGS/$1.log" 2>/dev/null | sed 's/^/    /' >&2 || true
  false
}

# wait_until name description cmd...  (cmd succeeds => ready)
wait_until() {
  local name="$1" what="$2"; shift 2
  local deadline=$((SECONDS + TIMEOUT)) t0=$SECONDS
  until "$@" >/dev/null 2>&1; do
    kill -0 "$(cat "$PIDS/$name.pid")" 2>/dev/null || fail_component "$name" "process exited while waiting for $what"
    ((SECONDS < deadline)) || fail_component "$name" "timed out after ${TIMEOUT}s waiting for $what"
    sleep 0.25
  done
  log "$name: $what ($((SECONDS - t0))s)"
}

http_ok() { [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$@")" == 200 ]]; }
api() { curl -sf --max-time 5 --cacert "$PKI/ca.crt" -H "Authorization: Bearer $ADMIN_TOKEN" "$@"; }
api_readyz() { [[ "$(api "$API_URL/readyz")" == ok ]]; }

# ------------------------------------------------------------------- etcd
launch etcd "$BIN/etcd" \
  --name=clm-integration \
  --data-dir="$STATE_DIR/etcd" \
  --listen-client-urls="http://127.0.0.1:$ETCD_PORT" \
  --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster="clm-integration=http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster-state=new \
  --unsafe-no-fsync=true \
  --quota-backend-bytes=2147483648 \
  --log-level=warn
wait_until etcd "healthy on 127.0.0.1:$ETCD_PORT" http_ok "http://127.0.0.1:$ETCD_PORT/health"

# --------------------------------------------------------- kube-apiserver
launch kube-apiserver "$BIN/kube-apiserver" \
  --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
  --bind-address="$API_ADDRESS" \
  --advertise-address="$API_ADDRESS" \
  --secure-port="$API_PORT" \
  --cert-dir="$STATE_DIR/certs" \
  --tls-cert-file="$PKI/apiserver.crt" \
  --tls-private-key-file="$PKI/apiserver.key" \
  --client-ca-file="$PKI/ca.crt" \
  --token-auth-file="$STATE_DIR/tokens.csv" \
  --authorization-mode=RBAC \
  --anonymous-auth=false \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$PKI/sa.pub" \
  --service-account-signing-key-file="$PKI/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 \
  --endpoint-reconciler-type=none \
  --allow-privileged=true \
  --profiling=false
wait_until kube-apiserver "/readyz ok on $API_URL" api_readyz

# ------------------------------------------------ controller-manager, scheduler
launch kube-controller-manager "$BIN/kube-controller-manager" \
  --kubeconfig="$STATE_DIR/kube-controller-manager.kubeconfig" \
  --authentication-kubeconfig="$STATE_DIR/kube-controller-manager.kubeconfig" \
  --authorization-kubeconfig="$STATE_DIR/kube-controller-manager.kubeconfig" \
  --authentication-skip-lookup=true \
  --bind-address=127.0.0.1 \
  --secure-port="$KCM_PORT" \
  --cert-dir="$STATE_DIR/certs" \
  --leader-elect=false \
  --cluster-name=clm-integration \
  --root-ca-file="$PKI/ca.crt" \
  --service-account-private-key-file="$PKI/sa.key" \
  --use-service-account-credentials=false \
  --profiling=false
launch kube-scheduler "$BIN/kube-scheduler" \
  --kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
  --authentication-kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
  --authorization-kubeconfig="$STATE_DIR/kube-scheduler.kubeconfig" \
  --authentication-skip-lookup=true \
  --bind-address=127.0.0.1 \
  --secure-port="$SCHED_PORT" \
  --cert-dir="$STATE_DIR/certs" \
  --leader-elect=false \
  --profiling=false

# ------------------------------------------------------------------- kwok
# kwok plays the kubelet for the nodes matching $NODE_SELECTOR: it keeps them
# Ready (node leases + status) and moves pods bound to them to Running.
# KWOK_WORKDIR keeps it from reading a user's ~/.kwok/kwok.yaml.
kwok_select=(--manage-all-nodes=false "--manage-nodes-with-label-selector=$NODE_SELECTOR")
[[ "$NODE_SELECTOR" == "*" ]] && kwok_select=(--manage-all-nodes=true)
launch kwok env KWOK_WORKDIR="$STATE_DIR/kwok" "$BIN/kwok" \
  --kubeconfig="$STATE_DIR/kwok.kubeconfig" \
  "${kwok_select[@]}" \
  --server-address="127.0.0.1:$KWOK_PORT" \
  --cidr=10.244.0.1/16 \
  --node-ip=10.240.0.10

wait_until kube-controller-manager "healthy" http_ok -k "https://127.0.0.1:$KCM_PORT/healthz"
wait_until kube-scheduler "healthy" http_ok -k "https://127.0.0.1:$SCHED_PORT/healthz"
wait_until kwok "healthy" http_ok "http://127.0.0.1:$KWOK_PORT/healthz"
# Pods can only be created once the serviceaccount controller has made the
# "default" ServiceAccount; wait for it so tests can create pods right away.
wait_until kube-controller-manager "default ServiceAccount exists" \
  api "$API_URL/api/v1/namespaces/default/serviceaccounts/default"

STARTED_OK=1
cat >"$STATE_DIR/env" <<EOF
KUBE_API_URL=$API_URL
KUBECONFIG=$STATE_DIR/kubeconfig
KUBE_TOKEN=$ADMIN_TOKEN
KUBE_CA_FILE=$PKI/ca.crt
EOF
cat >"$STATE_DIR/ports" <<EOF
ETCD_URL=http://127.0.0.1:$ETCD_PORT
KCM_HEALTHZ=https://127.0.0.1:$KCM_PORT/healthz
SCHEDULER_HEALTHZ=https://127.0.0.1:$SCHED_PORT/healthz
KWOK_HEALTHZ=http://127.0.0.1:$KWOK_PORT/healthz
EOF
log "control plane up in $((SECONDS - T_BUILD))s (plus $((T_BUILD - T0))s build check); kwok manages nodes with: ${kwok_select[*]}"
cat "$STATE_DIR/env"
