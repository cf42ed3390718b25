#!/usr/bin/env bash
# Smoke check of the local control plane (start.sh): proves that
#   - kwok makes a Node Ready and acts as its kubelet,
#   - controller-manager + scheduler turn a Deployment into Running pods on it,
#   - the disruption controller maintains PDB status, so the Eviction API
#     refuses an eviction that would violate the PDB with HTTP 429, and allows
#     it (201) once the PDB permits a disruption; the ReplicaSet then replaces
#     the evicted pod.
#
# usage: smoke.sh [STATE_DIR]
#   With a STATE_DIR whose control plane is running (STATE_DIR/env), uses it and
#   deletes the objects it created afterwards. Otherwise starts a control plane
#   (in STATE_DIR, or a temporary folder) and stops it at the end.
# Talks to the API with curl + bearer token only (no kubectl needed).
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '[kube/smoke] %s\n' "$*" >&2; }
PASSED=0
FAILED=0
ok() { PASSED=$((PASSED + 1)); log "PASS: $*"; }
fail() { FAILED=$((FAILED + 1)); log "FAIL: $*"; finish; }

STATE_DIR="${1:-}"
OWN_CLUSTER=""
api_up() {
  [[ -f "$STATE_DIR/env" ]] || return 1
  # shellcheck disable=SC1091
  (source "$STATE_DIR/env" &&
    [[ "$(curl -s --max-time 3 --cacert "$KUBE_CA_FILE" -H "Authorization: Bearer $KUBE_TOKEN" "$KUBE_API_URL/readyz")" == ok ]])
}
OWN_STATE_DIR=""
if [[ -z "$STATE_DIR" ]]; then
  STATE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/clm-kube-smoke.XXXXXX")"
  OWN_STATE_DIR=1
fi
if ! api_up; then
  log "starting a control plane in $STATE_DIR"
  t0=$SECONDS
  bash "$SCRIPT_DIR/start.sh" "$STATE_DIR" >/dev/null
  OWN_CLUSTER=1
  log "control plane started in $((SECONDS - t0))s"
fi
# shellcheck disable=SC1091
source "$STATE_DIR/env"

NS="clm-smoke-$$"
NODE="ip-10-240-0-10.eu-central-1.compute.internal"
PROVIDER_ID="aws:///eu-central-1a/i-0123"
T_START=$SECONDS

finish() {
  trap - EXIT
  if [[ -n "$OWN_CLUSTER" ]]; then
    bash "$SCRIPT_DIR/stop.sh" "$STATE_DIR" || true
    if ((FAILED > 0)); then
      log "logs kept in $STATE_DIR/logs"
    elif [[ -n "$OWN_STATE_DIR" ]]; then
      rm -rf "$STATE_DIR"
    fi
  else
    curl -s -o /dev/null "${CURL[@]}" -X DELETE "$KUBE_API_URL/api/v1/namespaces/$NS" || true
    curl -s -o /dev/null "${CURL[@]}" -X DELETE "$KUBE_API_URL/api/v1/nodes/$NODE" || true
  fi
  log "smoke took $((SECONDS - T_START))s"
  echo "smoke: $PASSED passed, $FAILED failed"
  ((FAILED == 0)) && exit 0 || exit 1
}
trap 'FAILED=$((FAILED + 1)); log "FAIL: unexpected error (line $LINENO)"; finish' ERR
trap 'finish' EXIT

CURL=(--max-time 10 --cacert "$KUBE_CA_FILE" -H "Authorization: Bearer $KUBE_TOKEN")

# req METHOD PATH [JSON BODY] -> sets HTTP_CODE and BODY
req() {
  local method="$1" path="$2" data="${3:-}" ctype="application/json"
  [[ "$method" == PATCH ]] && ctype="application/merge-patch+json"
  local out
  out="$(mktemp)"
  if [[ -n "$data" ]]; then
    HTTP_CODE="$(curl -s -o "$out" -w '%{http_code}' "${CURL[@]}" -X "$method" \
      -H "Content-Type: $ctype" --data-binary "$data" "$KUBE_API_URL$path")"
  else
    HTTP_CODE="$(curl -s -o "$out" -w '%{http_code}' "${CURL[@]}" -X "$method" "$KUBE_API_URL$path")"
  fi
  BODY="$(cat "$out")"; rm -f "$out"
}
# jpy 'python expression over d' <<<"$BODY"
jpy() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

create() {   # PATH JSON description
  req POST "$1" "$2"
  [[ "$HTTP_CODE" == 201 ]] || fail "create $3: HTTP $HTTP_CODE $BODY"
}

# wait_for DESCRIPTION TIMEOUT PATH PYTHON-CONDITION-OVER-d
wait_for() {
  local what="$1" timeout="$2" path="$3" cond="$4" t0=$SECONDS
  while :; do
    req GET "$path"
    if [[ "$HTTP_CODE" == 200 ]] && [[ "$(jpy "bool($cond)" <<<"$BODY" 2>/dev/null)" == True ]]; then
      ok "$what ($((SECONDS - t0))s)"
      return 0
    fi
    ((SECONDS - t0 < timeout)) || fail "timed out after ${timeout}s: $what (last HTTP $HTTP_CODE)"
    sleep 0.5
  done
}

evict() {   # POD -> HTTP_CODE/BODY
  req POST "/api/v1/namespaces/$NS/pods/$1/eviction" \
    "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"$1\",\"namespace\":\"$NS\"}}"
}

log "API $KUBE_API_URL, version $(curl -s "${CURL[@]}" "$KUBE_API_URL/version" | jpy 'd["gitVersion"]')"

# 1. A node kwok manages (label type=kwok), with an AWS providerID.
req GET "/api/v1/nodes/$NODE"
if [[ "$HTTP_CODE" == 200 ]]; then
  log "node $NODE already exists, reusing it"
else
  create /api/v1/nodes "$(cat <<EOF
{"apiVersion":"v1","kind":"Node",
 "metadata":{"name":"$NODE",
   "labels":{"type":"kwok","kubernetes.io/hostname":"$NODE","kubernetes.io/os":"linux",
             "topology.kubernetes.io/zone":"eu-central-1a","node.kubernetes.io/instance-type":"m5.xlarge"}},
 "spec":{"providerID":"$PROVIDER_ID"},
 "status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},
           "allocatable":{"cpu":"4","memory":"16Gi","pods":"110"}}}
EOF
)" "node $NODE"
fi
wait_for "node $NODE is Ready (kwok)" 60 "/api/v1/nodes/$NODE" \
  'any(c["type"]=="Ready" and c["status"]=="True" for c in d["status"].get("conditions",[])) and d["spec"]["providerID"]=="'"$PROVIDER_ID"'"'

# 2. Namespace, Deployment (2 replicas on kwok nodes), PDB minAvailable 2.
create /api/v1/namespaces "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"$NS\"}}" "namespace $NS"
wait_for "default ServiceAccount in $NS" 60 "/api/v1/namespaces/$NS/serviceaccounts/default" 'True'
create "/apis/apps/v1/namespaces/$NS/deployments" "$(cat <<EOF
{"apiVersion":"apps/v1","kind":"Deployment",
 "metadata":{"name":"smoke","namespace":"$NS"},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"smoke"}},
   "template":{"metadata":{"labels":{"app":"smoke"}},
     "spec":{"nodeSelector":{"type":"kwok"},
       "containers":[{"name":"app","image":"registry.k8s.io/pause:3.10",
         "resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}}}}
EOF
)" "deployment smoke"
create "/apis/policy/v1/namespaces/$NS/poddisruptionbudgets" "$(cat <<EOF
{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
 "metadata":{"name":"smoke","namespace":"$NS"},
 "spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"smoke"}}}}
EOF
)" "pdb smoke"

RUNNING_ON_NODE='[p["metadata"]["name"] for p in d["items"] if p["status"].get("phase")=="Running" and p["spec"].get("nodeName")=="'"$NODE"'" and not p["metadata"].get("deletionTimestamp")]'
wait_for "2 pods Running on $NODE" 90 "/api/v1/namespaces/$NS/pods?labelSelector=app%3Dsmoke" \
  "len($RUNNING_ON_NODE) == 2"
req GET "/api/v1/namespaces/$NS/pods?labelSelector=app%3Dsmoke"
mapfile -t PODS < <(jpy "'\n'.join(sorted($RUNNING_ON_NODE))" <<<"$BODY")
log "pods: ${PODS[*]}"

# 3. The disruption controller computes the PDB status.
wait_for "PDB status: currentHealthy=2, disruptionsAllowed=0" 60 \
  "/apis/policy/v1/namespaces/$NS/poddisruptionbudgets/smoke" \
  'd["status"].get("observedGeneration",0) >= d["metadata"]["generation"] and d["status"].get("currentHealthy")==2 and d["status"].get("disruptionsAllowed")==0'

# 4. Eviction that would violate the PDB -> 429.
evict "${PODS[0]}"
if [[ "$HTTP_CODE" == 429 ]]; then
  ok "eviction of ${PODS[0]} refused with HTTP 429: $(jpy 'd.get("message")' <<<"$BODY")"
else
  fail "eviction of ${PODS[0]} returned HTTP $HTTP_CODE, expected 429: $BODY"
fi

# 5. Control: relax the PDB -> eviction allowed, ReplicaSet replaces the pod.
req PATCH "/apis/policy/v1/namespaces/$NS/poddisruptionbudgets/smoke" '{"spec":{"minAvailable":1}}'
[[ "$HTTP_CODE" == 200 ]] || fail "patch pdb: HTTP $HTTP_CODE $BODY"
wait_for "PDB status after minAvailable=1: disruptionsAllowed=1" 60 \
  "/apis/policy/v1/namespaces/$NS/poddisruptionbudgets/smoke" \
  'd["status"].get("observedGeneration",0) >= d["metadata"]["generation"] and d["status"].get("disruptionsAllowed")==1'
evict "${PODS[0]}"
if [[ "$HTTP_CODE" == 201 || "$HTTP_CODE" == 200 ]]; then
  ok "eviction of ${PODS[0]} allowed with HTTP $HTTP_CODE"
else
  fail "eviction of ${PODS[0]} returned HTTP $HTTP_CODE, expected 201: $BODY"
fi
wait_for "evicted pod replaced: 2 pods Running, ${PODS[0]} gone" 90 \
  "/api/v1/namespaces/$NS/pods?labelSelector=app%3Dsmoke" \
  "len($RUNNING_ON_NODE) == 2 and '${PODS[0]}' not in [p['metadata']['name'] for p in d['items']]"

if command -v kubectl >/dev/null 2>&1; then
  KUBECONFIG="$KUBECONFIG" timeout 20 kubectl get nodes,pods,pdb -A -o wide >&2 2>/dev/null || true
fi
finish
