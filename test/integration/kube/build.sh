#!/usr/bin/env bash
# Build (or reuse) the binaries of a real, local Kubernetes control plane for
# integration tests: kube-apiserver, kube-controller-manager, kube-scheduler
# (from the k8s.io/kubernetes Go module), etcd (from go.etcd.io/etcd/server/v3)
# and kwok (from sigs.k8s.io/kwok). Everything comes from the Go module proxy;
# no Docker, no release tarballs.
#
# Binaries are cached per version under
#   ${CLM_CACHE_DIR:-<repo>/.cache}/kube/<KUBE_VERSION>/bin/
# and reused when present. The Go module and build caches live next to them
# (kube/gomod, kube/gocache) so that a rebuild is warm.
#
# On success prints one line to stdout:  KUBE_BIN_DIR=<dir>
# Progress goes to stderr; the full build output to <version dir>/build.log.
#
# Knobs (environment):
#   KUBE_VERSION  k8s.io/kubernetes release          (default v1.35.4)
#   ETCD_VERSION  go.etcd.io/etcd/server/v3 release   (default v3.6.5, the one
#                 k8s.io/kubernetes v1.35.4 itself requires)
#   KWOK_VERSION  sigs.k8s.io/kwok release            (default v0.7.0)
#   CLM_CACHE_DIR cache root                          (default <repo>/.cache)
#   KUBE_BUILD_PARALLEL  go build -p                  (default: nproc)
#   KUBE_FORCE_REBUILD=1 ignore cached binaries
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../../.." && pwd)"

KUBE_VERSION="${KUBE_VERSION:-v1.35.4}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.5}"
KWOK_VERSION="${KWOK_VERSION:-v0.7.0}"
CACHE_ROOT="${CLM_CACHE_DIR:-$REPO_ROOT/.cache}/kube"
VERSION_DIR="$CACHE_ROOT/$KUBE_VERSION"
BIN_DIR="$VERSION_DIR/bin"
WORK_DIR="$VERSION_DIR/work"
LOG="$VERSION_DIR/build.log"
PARALLEL="${KUBE_BUILD_PARALLEL:-$(nproc 2>/dev/null || echo 2)}"
export PARALLEL

log() { printf '[kube/build] %s\n' "$*" >&2; }
die() { printf '[kube/build] ERROR: %s\n' "$*" >&2; exit 1; }

CURRENT_STEP="(setup)"
on_error() {
  local rc=$?
  {
    printf '[kube/build] FAILED at step: %s (exit code %s)\n' "$CURRENT_STEP" "$rc"
    if [[ -f "$LOG" ]]; then
      printf '[kube/build] last 60 lines of %s:\n' "$LOG"
      tail -n 60 "$LOG" | sed 's/^/    /'
    fi
  } >&2
  exit "$rc"
}
trap on_error ERR

# fail "step description": report a failed check as a failed step.
fail() { CURRENT_STEP="$1"; false; }

# run_step "description" cmd args...   (output appended to $LOG)
run_step() {
  CURRENT_STEP="$1"; shift
  local t0=$SECONDS
  log "step: $CURRENT_STEP"
  printf '\n===== %s: %s\n===== $ %s\n' "$(date -u +%FT%TZ)" "$CURRENT_STEP" "$*" >>"$LOG"
  "$@" >>"$LOG" 2>&1
  log "  done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- preflight
command -v go >/dev/null 2>&1 || die "'go' is not on PATH (Go >= 1.25 is required to build Kubernetes $KUBE_VERSION)"
GO_VER="$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null || true)"   # e.g. go1.26.8
[[ "$GO_VER" =~ ^go([0-9]+)\.([0-9]+) ]] || die "cannot determine the Go version (got '$GO_VER')"
if (( BASH_REMATCH[1] == 1 && BASH_REMATCH[2] < 25 )); then
  die "Go $GO_VER is too old: Kubernetes $KUBE_VERSION needs Go >= 1.25 (GOTOOLCHAIN=local: no toolchain download)"
fi

NAMES=(kube-apiserver kube-controller-manager kube-scheduler etcd kwok)
stamp_of() {
  case "$1" in
    kube-*) echo "kubernetes $KUBE_VERSION" ;;
    etcd) echo "etcd $ETCD_VERSION" ;;
    kwok) echo "kwok $KWOK_VERSION" ;;
  esac
}
is_fresh() {   # binary present, executable and built for the requested version
  local n="$1"
  [[ -z "${KUBE_FORCE_REBUILD:-}" && -x "$BIN_DIR/$n" && -f "$BIN_DIR/.$n.stamp" ]] &&
    [[ "$(cat "$BIN_DIR/.$n.stamp")" == "$(stamp_of "$n")" ]]
}

missing=()
for n in "${NAMES[@]}"; do is_fresh "$n" || missing+=("$n"); done
if ((${#missing[@]} == 0)); then
  log "cached: $BIN_DIR (kubernetes $KUBE_VERSION, etcd $ETCD_VERSION, kwok $KWOK_VERSION)"
  echo "KUBE_BIN_DIR=$BIN_DIR"
  exit 0
fi

mkdir -p "$BIN_DIR" "$WORK_DIR" "$CACHE_ROOT/gomod" "$CACHE_ROOT/gocache"
: >"$LOG"
log "building: ${missing[*]} (log: $LOG)"
log "go: $GO_VER, -p $PARALLEL, cache: $CACHE_ROOT"

avail_kb="$(df -Pk "$CACHE_ROOT" | awk 'NR==2 {print $4}')"
if [[ -n "$avail_kb" ]] && (( avail_kb < 8 * 1024 * 1024 )); then
  log "WARNING: only $((avail_kb / 1024)) MiB free under $CACHE_ROOT; a cold build needs ~6 GiB"
fi

export GOTOOLCHAIN=local
export GOFLAGS="-mod=mod -buildvcs=false"
export GOMODCACHE="$CACHE_ROOT/gomod"
export GOCACHE="$CACHE_ROOT/gocache"
export GOPATH="$CACHE_ROOT/gopath"
export CGO_ENABLED=0
export GOWORK=off
unset GOBIN GOOS GOARCH || true

needs() { local x; for x in "${missing[@]}"; do [[ "$x" == "$1" ]] && return 0; done; return 1; }

# install_bins <module dir> <name>... : move freshly built binaries in place + stamp
install_bins() {
  local out="$1"; shift
  local n
  for n in "$@"; do
    [[ -x "$out/$n" ]] || fail "install $n (not produced by go build)"
    mv -f "$out/$n" "$BIN_DIR/$n"
    stamp_of "$n" >"$BIN_DIR/.$n.stamp"
  done
}

# ------------------------------------------------------- kubernetes binaries
if needs kube-apiserver || needs kube-controller-manager || needs kube-scheduler; then
  mod="$WORK_DIR/kubernetes"
  rm -rf "$mod" && mkdir -p "$mod/out"

  run_step "download k8s.io/kubernetes@$KUBE_VERSION" \
    bash -c 'cd "$1" && go mod download -json "k8s.io/kubernetes@$2"' _ "$mod" "$KUBE_VERSION"
  kube_gomod="$GOMODCACHE/cache/download/k8s.io/kubernetes/@v/$KUBE_VERSION.mod"
  [[ -f "$kube_gomod" ]] || fail "locate $kube_gomod"

  # The kubernetes go.mod requires its staging modules (k8s.io/api, ...) as
  # v0.0.0 and replaces them with ./staging/... which only works inside the
  # kubernetes repository. Pin each of them to the matching published v0.X.Y.
  staging_version="v0.${KUBE_VERSION#v1.}"
  go_line="$(grep -m1 -E '^go [0-9]' "$kube_gomod")"
  godebug_line="$(grep -m1 -E '^godebug ' "$kube_gomod" || true)"
  mapfile -t staging < <(awk '$2 == "v0.0.0" && $1 ~ /^k8s\.io\// {print $1}' "$kube_gomod" | sort -u)
  ((${#staging[@]} > 0)) || fail "parse staging modules from $kube_gomod"
  log "pinning ${#staging[@]} k8s.io staging modules to $staging_version"
  {
    echo "// Generated by test/integration/kube/build.sh - throwaway build module."
    echo "module clm.invalid/kube-build"
    echo
    echo "$go_line"
    [[ -n "$godebug_line" ]] && echo "$godebug_line"
    echo
    echo "require k8s.io/kubernetes $KUBE_VERSION"
    echo
    echo "replace ("
    for m in "${staging[@]}"; do echo "	$m => $m $staging_version"; done
    echo ")"
  } >"$mod/go.mod"

  kube_pkgs=(k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  run_step "resolve kubernetes $KUBE_VERSION dependencies (go get)" \
    bash -c 'cd "$1" && shift && go get "$@"' _ "$mod" "${kube_pkgs[@]}"

  minor="${KUBE_VERSION#v1.}"; minor="${minor%%.*}"
  build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
  done
  export LDFLAGS="$ldflags"
  run_step "go build kube-apiserver kube-controller-manager kube-scheduler ($KUBE_VERSION)" \
    bash -c 'cd "$1" && shift && go build -p "$PARALLEL" -trimpath -ldflags "$LDFLAGS" -o ./out/ "$@"' \
    _ "$mod" "${kube_pkgs[@]}"
  install_bins "$mod/out" kube-apiserver kube-controller-manager kube-scheduler
fi

# ----------------------------------------------------------------------- etcd
if needs etcd; then
  mod="$WORK_DIR/etcd"
  rm -rf "$mod" && mkdir -p "$mod/out"
  # etcd's own go.mod has replace directives, so `go install ...@version` is
  # refused; a throwaway module that requires it works.
  cat >"$mod/go.mod" <<EOF
// Generated by test/integration/kube/build.sh - throwaway build module.
module clm.invalid/etcd-build

go 1.24

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
EOF
  run_step "resolve etcd $ETCD_VERSION dependencies (go get)" \
    bash -c 'cd "$1" && go get "go.etcd.io/etcd/server/v3@$2"' _ "$mod" "$ETCD_VERSION"
  run_step "go build etcd ($ETCD_VERSION)" \
    bash -c 'cd "$1" && go build -p "$PARALLEL" -trimpath -ldflags "-s -w" -o ./out/etcd go.etcd.io/etcd/server/v3' _ "$mod"
  install_bins "$mod/out" etcd
fi

# ----------------------------------------------------------------------- kwok
if needs kwok; then
  mod="$WORK_DIR/kwok"
  rm -rf "$mod" && mkdir -p "$mod/out"
  cat >"$mod/go.mod" <<EOF
// Generated by test/integration/kube/build.sh - throwaway build module.
module clm.invalid/kwok-build

go 1.24

require sigs.k8s.io/kwok $KWOK_VERSION
EOF
  run_step "resolve kwok $KWOK_VERSION dependencies (go get)" \
    bash -c 'cd "$1" && go get "sigs.k8s.io/kwok/cmd/kwok@$2"' _ "$mod" "$KWOK_VERSION"
  run_step "go build kwok ($KWOK_VERSION)" \
    bash -c 'cd "$1" && go build -p "$PARALLEL" -trimpath -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$2" -o ./out/kwok sigs.k8s.io/kwok/cmd/kwok' \
    _ "$mod" "$KWOK_VERSION"
  install_bins "$mod/out" kwok
fi

CURRENT_STEP="verify binaries"
for n in "${NAMES[@]}"; do is_fresh "$n" || fail "verify binaries: $BIN_DIR/$n missing after build"; done
run_step "smoke-run --version" bash -c '
  "$1/kube-apiserver" --version && "$1/kube-controller-manager" --version &&
  "$1/kube-scheduler" --version && "$1/etcd" --version && "$1/kwok" --version' _ "$BIN_DIR"
log "built into $BIN_DIR"
echo "KUBE_BIN_DIR=$BIN_DIR"
