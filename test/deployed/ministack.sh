#!/usr/bin/env bash
# Start/stop MiniStack (a local AWS emulator that runs Lambda functions as local Node processes) for the deployed tier.
#
#   test/deployed/ministack.sh start STATE_DIR   # prints AWS_ENDPOINT_URL=http://127.0.0.1:PORT
#   test/deployed/ministack.sh stop  STATE_DIR
#   test/deployed/ministack.sh venv              # only create/verify the cached virtualenv
#
# The virtualenv is created once and cached at ${CLM_CACHE_DIR:-<repo>/.cache}/ministack-venv-<MINISTACK_VERSION>
# (rebuilt when ministack-requirements.txt changes). MiniStack runs through ministack_launcher.py (its corrections
# toward AWS, described there). STATE_DIR/env receives AWS_ENDPOINT_URL, MINISTACK_PORT and MINISTACK_PID;
# STATE_DIR/ministack.log the server's output. It binds 127.0.0.1 only; all state is in memory.
set -euo pipefail

MINISTACK_VERSION="1.5.33"   # pinned; README "The deployed system on your machine"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${CLM_CACHE_DIR:-$REPO_ROOT/.cache}"
VENV="$CACHE_DIR/ministack-venv-$MINISTACK_VERSION"
REQS="$SCRIPT_DIR/ministack-requirements.txt"
PYTHON="${CLM_PYTHON:-python3}"
START_TIMEOUT="${MINISTACK_START_TIMEOUT:-90}"

log() { echo "ministack.sh: $*" >&2; }
die() { echo "ministack.sh: ERROR: $*" >&2; exit 1; }
usage() { echo "usage: $0 start STATE_DIR | stop STATE_DIR | venv" >&2; exit 2; }

ensure_venv() {
  mkdir -p "$CACHE_DIR" || die "step 'venv': cannot create cache dir $CACHE_DIR"
  exec 9>"$CACHE_DIR/.ministack-venv-$MINISTACK_VERSION.lock"
  flock -w 900 9 || die "step 'venv': timed out waiting for lock $CACHE_DIR/.ministack-venv-$MINISTACK_VERSION.lock"
  local want
  want="$(sha256sum "$REQS" | cut -d' ' -f1)"
  if [[ -f "$VENV/.complete" && "$(cat "$VENV/.complete")" == "$want" ]]; then flock -u 9; return 0; fi
  command -v "$PYTHON" >/dev/null 2>&1 || die "step 'venv': $PYTHON not found (need Python >= 3.10)"
  rm -rf "$VENV"
  log "creating virtualenv $VENV (ministack==$MINISTACK_VERSION; first run only, ~30 s)"
  "$PYTHON" -m venv "$VENV" || die "step 'venv': '$PYTHON -m venv $VENV' failed (on Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$REQS" \
    || { rm -rf "$VENV"; die "step 'pip install': installing $REQS into $VENV failed (is PyPI reachable?)"; }
  "$VENV/bin/python" -c "import importlib.metadata as m; v = m.version('ministack'); assert v == '$MINISTACK_VERSION', v" \
    || { rm -rf "$VENV"; die "step 'verify venv': ministack $MINISTACK_VERSION not importable from $VENV"; }
  echo "$want" >"$VENV/.complete"
  flock -u 9
}

read_state() {
  MINISTACK_PID=""; MINISTACK_PORT=""
  [[ -f "$STATE_DIR/env" ]] || return 0
  local k v
  while IFS='=' read -r k v; do
    case "$k" in
      MINISTACK_PID) MINISTACK_PID="$v" ;;
      MINISTACK_PORT) MINISTACK_PORT="$v" ;;
    esac
  done <"$STATE_DIR/env"
}

is_ours() {
  [[ -n "$1" && -r "/proc/$1/cmdline" ]] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q 'ministack_launcher.py'
}

answers() { curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/_ministack/health" 2>/dev/null; }

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

cmd_start() {
  mkdir -p "$STATE_DIR" || die "step 'state dir': cannot create $STATE_DIR"
  STATE_DIR="$(cd "$STATE_DIR" && pwd)"
  read_state
  if is_ours "$MINISTACK_PID"; then die "step 'start': MiniStack pid $MINISTACK_PID already runs from $STATE_DIR; stop it first"; fi
  rm -f "$STATE_DIR/env"
  ensure_venv
  local attempt port pid deadline
  for attempt in 1 2 3; do
    port="$(free_port)" || die "step 'free port': no free loopback port"
    # MiniStack's settings: loopback only; its own host name in the URLs it hands out (Function URLs, queue URLs);
    # Wait states scaled down (the roll's waits are minutes on AWS); Lambda workers kept warm for the whole run.
    BIND_HOST=127.0.0.1 GATEWAY_PORT="$port" MINISTACK_HOST=127.0.0.1 MINISTACK_REGION=eu-central-1 \
      SFN_WAIT_SCALE="${SFN_WAIT_SCALE:-0.01}" LAMBDA_WARM_TTL_SECONDS=3600 LOG_LEVEL="${MINISTACK_LOG_LEVEL:-INFO}" \
      setsid "$VENV/bin/python" "$SCRIPT_DIR/ministack_launcher.py" >>"$STATE_DIR/ministack.log" 2>&1 </dev/null 9>&- &
    pid=$!
    deadline=$((SECONDS + START_TIMEOUT))
    while (( SECONDS < deadline )); do
      if answers "$port"; then
        printf 'AWS_ENDPOINT_URL=http://127.0.0.1:%s\nMINISTACK_PORT=%s\nMINISTACK_PID=%s\n' "$port" "$port" "$pid" >"$STATE_DIR/env.tmp"
        mv "$STATE_DIR/env.tmp" "$STATE_DIR/env"
        log "MiniStack $MINISTACK_VERSION on 127.0.0.1:$port (pid $pid, log $STATE_DIR/ministack.log)"
        echo "AWS_ENDPOINT_URL=http://127.0.0.1:$port"
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.3
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    log "attempt $attempt: MiniStack on port $port did not come up; last log lines:"
    tail -n 5 "$STATE_DIR/ministack.log" >&2 2>/dev/null || true
  done
  die "step 'start server': MiniStack did not answer on http://127.0.0.1:<port>/_ministack/health within ${START_TIMEOUT}s (3 attempts); see $STATE_DIR/ministack.log"
}

cmd_stop() {
  [[ -d "$STATE_DIR" ]] || { log "no state dir $STATE_DIR; nothing to stop"; return 0; }
  read_state
  if is_ours "$MINISTACK_PID"; then
    # Its own process group (setsid): the Lambda worker processes it started go with it.
    kill -- "-$MINISTACK_PID" 2>/dev/null || kill "$MINISTACK_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do is_ours "$MINISTACK_PID" || break; sleep 0.1; done
    if is_ours "$MINISTACK_PID"; then
      log "pid $MINISTACK_PID ignored SIGTERM; sending SIGKILL"
      kill -9 -- "-$MINISTACK_PID" 2>/dev/null || kill -9 "$MINISTACK_PID" 2>/dev/null || true
    fi
    log "stopped MiniStack pid $MINISTACK_PID"
  else
    log "not running"
  fi
  rm -f "$STATE_DIR/env"
}

case "${1:-}" in
  start) [[ $# -eq 2 ]] || usage; STATE_DIR="$2"; cmd_start ;;
  stop) [[ $# -eq 2 ]] || usage; STATE_DIR="$2"; cmd_stop ;;
  venv) ensure_venv; echo "$VENV" ;;
  *) usage ;;
esac
