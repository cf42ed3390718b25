#!/usr/bin/env bash
# Start/stop a local moto (AWS emulator) server for the integration suite.
#
#   test/integration/aws/moto.sh start STATE_DIR   # prints AWS_ENDPOINT_URL=http://127.0.0.1:PORT
#   test/integration/aws/moto.sh stop  STATE_DIR
#   test/integration/aws/moto.sh venv              # only create/verify the cached virtualenv
#
# The virtualenv is created once and cached at
#   ${CLM_CACHE_DIR:-<repo>/.cache}/moto-venv-<MOTO_VERSION>
# STATE_DIR/env receives AWS_ENDPOINT_URL, MOTO_PORT and MOTO_PID (KEY=VALUE lines,
# safe to `source`). STATE_DIR/moto.log receives the server's output.
# Everything binds 127.0.0.1 only.
set -euo pipefail

MOTO_VERSION="5.2.5"   # pinned; see test/integration/README.md "## AWS emulators"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../../.." && pwd)"
CACHE_DIR="${CLM_CACHE_DIR:-$REPO_ROOT/.cache}"
VENV="$CACHE_DIR/moto-venv-$MOTO_VERSION"
REQS="$SCRIPT_DIR/moto-requirements.txt"
PYTHON="${CLM_PYTHON:-python3}"
START_TIMEOUT="${MOTO_START_TIMEOUT:-60}"

log() { echo "moto.sh: $*" >&2; }
die() { echo "moto.sh: ERROR: $*" >&2; exit 1; }

usage() {
  echo "usage: $0 start STATE_DIR | stop STATE_DIR | venv" >&2
  exit 2
}

# Identifies the dependency set; a changed moto-requirements.txt rebuilds the venv.
reqs_digest() {
  if [[ -f "$REQS" ]]; then sha256sum "$REQS" | cut -d' ' -f1; else echo "moto[server]==$MOTO_VERSION"; fi
}

ensure_venv() {
  mkdir -p "$CACHE_DIR" || die "step 'venv': cannot create cache dir $CACHE_DIR"
  # Serialise concurrent creators (parallel test runners).
  exec 9>"$CACHE_DIR/.moto-venv-$MOTO_VERSION.lock"
  flock -w 900 9 || die "step 'venv': timed out waiting for lock $CACHE_DIR/.moto-venv-$MOTO_VERSION.lock"
  local want
  want="$(reqs_digest)"
  if [[ -f "$VENV/.complete" && -x "$VENV/bin/moto_server" && "$(cat "$VENV/.complete")" == "$want" ]]; then
    flock -u 9; return 0
  fi
  command -v "$PYTHON" >/dev/null 2>&1 || die "step 'venv': $PYTHON not found (need Python >= 3.9)"
  rm -rf "$VENV"
  log "creating virtualenv $VENV (moto[server]==$MOTO_VERSION; first run only, ~1 min)"
  "$PYTHON" -m venv "$VENV" \
    || die "step 'venv': '$PYTHON -m venv $VENV' failed (on Debian: apt-get install python3-venv)"
  local pip_args=(--quiet --disable-pip-version-check --no-input)
  if [[ -f "$REQS" ]]; then
    # Fully pinned dependency set (pip freeze of a known-good install).
    "$VENV/bin/pip" install "${pip_args[@]}" -r "$REQS" \
      || { rm -rf "$VENV"; die "step 'pip install': installing $REQS into $VENV failed (is PyPI reachable?)"; }
  else
    "$VENV/bin/pip" install "${pip_args[@]}" "moto[server]==$MOTO_VERSION" \
      || { rm -rf "$VENV"; die "step 'pip install': installing moto[server]==$MOTO_VERSION into $VENV failed (is PyPI reachable?)"; }
  fi
  "$VENV/bin/python" -c "import moto, moto.server; assert moto.__version__ == '$MOTO_VERSION', moto.__version__" \
    || { rm -rf "$VENV"; die "step 'verify venv': moto $MOTO_VERSION not importable from $VENV"; }
  echo "$want" >"$VENV/.complete"
  flock -u 9
}

# Reads STATE_DIR/env into MOTO_PID / MOTO_PORT / AWS_ENDPOINT_URL (empty if absent).
read_state() {
  MOTO_PID=""; MOTO_PORT=""; AWS_ENDPOINT_URL=""
  [[ -f "$STATE_DIR/env" ]] || return 0
  local k v
  while IFS='=' read -r k v; do
    case "$k" in
      MOTO_PID) MOTO_PID="$v" ;;
      MOTO_PORT) MOTO_PORT="$v" ;;
      AWS_ENDPOINT_URL) AWS_ENDPOINT_URL="$v" ;;
    esac
  done <"$STATE_DIR/env"
}

# True if PID is alive and is a moto_server process.
is_our_moto() {
  local pid="$1"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'moto_server'
}

answers() {
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/moto-api/data.json" 2>/dev/null
}

free_port() {
  "$PYTHON" - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

cmd_start() {
  mkdir -p "$STATE_DIR" || die "step 'state dir': cannot create $STATE_DIR"
  STATE_DIR="$(cd "$STATE_DIR" && pwd)"
  exec 8>"$STATE_DIR/.moto.lock"
  flock -w 120 8 || die "step 'state lock': another moto.sh holds $STATE_DIR/.moto.lock"

  read_state
  if is_our_moto "$MOTO_PID" && [[ -n "$MOTO_PORT" ]] && answers "$MOTO_PORT"; then
    log "already running (pid $MOTO_PID)"
    echo "AWS_ENDPOINT_URL=$AWS_ENDPOINT_URL"
    return 0
  fi
  if is_our_moto "$MOTO_PID"; then
    log "stale moto_server pid $MOTO_PID does not answer; stopping it"
    kill "$MOTO_PID" 2>/dev/null || true
  fi
  rm -f "$STATE_DIR/env"

  ensure_venv

  local attempt port pid deadline
  for attempt in 1 2 3; do
    port="$(free_port)" || die "step 'free port': could not find a free loopback port"
    # setsid: own process group, so the server survives the caller's shell and
    # can be stopped by pid alone.
    setsid "$VENV/bin/moto_server" -H 127.0.0.1 -p "$port" \
      >>"$STATE_DIR/moto.log" 2>&1 </dev/null 8>&- 9>&- &
    pid=$!
    deadline=$((SECONDS + START_TIMEOUT))
    while (( SECONDS < deadline )); do
      if answers "$port"; then
        {
          echo "AWS_ENDPOINT_URL=http://127.0.0.1:$port"
          echo "MOTO_PORT=$port"
          echo "MOTO_PID=$pid"
        } >"$STATE_DIR/env.tmp"
        mv "$STATE_DIR/env.tmp" "$STATE_DIR/env"
        log "moto_server $MOTO_VERSION listening on 127.0.0.1:$port (pid $pid, log $STATE_DIR/moto.log)"
        echo "AWS_ENDPOINT_URL=http://127.0.0.1:$port"
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    log "attempt $attempt: moto_server on port $port did not come up; last log lines:"
    tail -n 5 "$STATE_DIR/moto.log" >&2 2>/dev/null || true
  done
  die "step 'start server': moto_server did not answer on http://127.0.0.1:<port>/moto-api/data.json within ${START_TIMEOUT}s (3 attempts); see $STATE_DIR/moto.log"
}

cmd_stop() {
  [[ -d "$STATE_DIR" ]] || { log "no state dir $STATE_DIR; nothing to stop"; return 0; }
  read_state
  if is_our_moto "$MOTO_PID"; then
    kill "$MOTO_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do
      is_our_moto "$MOTO_PID" || break
      sleep 0.1
    done
    if is_our_moto "$MOTO_PID"; then
      log "pid $MOTO_PID ignored SIGTERM; sending SIGKILL"
      kill -9 "$MOTO_PID" 2>/dev/null || true
    fi
    log "stopped moto_server pid $MOTO_PID"
  elif [[ -n "$MOTO_PID" ]]; then
    log "pid $MOTO_PID is not running (or not moto_server); cleaning up state"
  else
    log "not running"
  fi
  rm -f "$STATE_DIR/env"
}

case "${1:-}" in
  start) [[ $# -eq 2 ]] || usage; STATE_DIR="$2"; cmd_start ;;
  stop)  [[ $# -eq 2 ]] || usage; STATE_DIR="$2"; cmd_stop ;;
  venv)  ensure_venv; echo "$VENV" ;;
  *) usage ;;
esac
