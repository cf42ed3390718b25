#!/usr/bin/env bash
# Stop the control plane started by start.sh STATE_DIR.
# Only the processes whose PIDs start.sh recorded in STATE_DIR/pids are
# signalled (TERM, then KILL after KUBE_STOP_TIMEOUT seconds, default 15), and
# only if that PID still runs the binary start.sh launched. Logs, certificates
# and etcd data stay in STATE_DIR for post-mortem; delete the folder to discard.
set -Euo pipefail

log() { printf '[kube/stop] %s\n' "$*" >&2; }

[[ $# -eq 1 && -n "$1" ]] || { log "usage: $0 STATE_DIR"; exit 2; }
STATE_DIR="$1"
PIDS="$STATE_DIR/pids"
TIMEOUT="${KUBE_STOP_TIMEOUT:-15}"

if [[ ! -d "$PIDS" ]]; then
  log "nothing to stop in $STATE_DIR (no pids/ folder)"
  exit 0
fi

# is_ours pid name: the process exists and its command line names our binary.
is_ours() {
  local pid="$1" name="$2" cmdline
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"/$name "* || "$cmdline" == *"/$name" ]]
}

# Reverse start order: clients first, etcd last.
rc=0
for name in kwok kube-scheduler kube-controller-manager kube-apiserver etcd; do
  f="$PIDS/$name.pid"
  [[ -f "$f" ]] || continue
  pid="$(cat "$f")"
  if ! is_ours "$pid" "$name"; then
    rm -f "$f"
    continue
  fi
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + TIMEOUT))
  while is_ours "$pid" "$name" && ((SECONDS < deadline)); do sleep 0.2; done
  if is_ours "$pid" "$name"; then
    log "$name (pid $pid) did not exit after ${TIMEOUT}s; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
    if is_ours "$pid" "$name"; then log "$name (pid $pid) still running"; rc=1; continue; fi
  fi
  log "stopped $name (pid $pid)"
  rm -f "$f"
done
exit "$rc"
