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
#   ETCD_VERSION  go.etcd.io/etcd/server/v3 release   (default: the version
#                 k8s.io/kubernetes requires, v3.6.5 for v1.35.4)
#   KWOK_VERSION  sigs.k8s.io/kwok release            (default v0.7.0)
#   CLM_CACHE_DIR cache root                          (default <repo>/.cache)
#   KUBE_BUILD_PARALLEL  go build -p                  (default: nproc)
#   KUBE_FORCE_REBUILD=1 ignore cached binaries
set -Eeuo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../../.." && pwd)"

KUBE_VERSION="${KUBE_VERSION:-v1.35.4}"
ETCD_VERSION="${ETCD_VERSION:-}"
KWOK_VERSION="${KWOK_VERSION:-v0.7.0}"
CACHE_ROOT="${CLM_CACHE_DIR:-$REPO_ROOT/.cache}/kube"
VERSION_DIR="$CACHE_ROOT/$KUBE_VERSION"
BIN_DIR="$VERSION_DIR/bin"
WORK_DIR="$VERSION_DIR/work"
LOG="$VERSION_DIR/build.log"
PARALLEL="${KUBE_BUILD_PARALLEL:-$(nproc 2>/dev/null || echo 2)}"

log() { printf '[kube/build] %s\n' "$*" >&2; }
die() { printf '[kube/build] ERROR: %s\n' "$*" >&2; exit 1; }

# fd 8 = the caller's stderr, for error reports raised while a step's output
# is redirected to the log.
exec 8>&2
CURRENT_STEP="(setup)"
on_error() {
  local rc=$?
  {
    printf '[kube/build] FAILED at step: %s (exit code %s)\n' "$CURRENT_STEP" "$rc"
    if [[ -f "$LOG" ]]; then
      printf '[kube/build] last 60 lines of %s:\n' "$LOG"
      tail -n 60 "$LOG" | sed 's/^/    /'
    fi
  } >&8
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
    etcd) echo "etcd ${ETCD_VERSION:-required by kubernetes $KUBE_VERSION}" ;;
    kwok) echo "kwok $KWOK_VERSION" ;;
  esac
}
is_fresh() {   # binary present, executable and built for the requested version
  local n="$1"
  [[ -x "$BIN_DIR/$n" && -f "$BIN_DIR/.$n.stamp" ]] &&
    [[ "$(cat "$BIN_DIR/.$n.stamp")" == "$(stamp_of "$n")" ]]
}

compute_missing() {
  missing=()
  local n
  for n in "${NAMES[@]}"; do
    if [[ -n "${KUBE_FORCE_REBUILD:-}" ]] || ! is_fresh "$n"; then missing+=("$n"); fi
  done
}
compute_missing
if ((${#missing[@]} == 0)); then
  log "cached: $BIN_DIR (kubernetes $KUBE_VERSION, $(stamp_of etcd), kwok $KWOK_VERSION)"
  echo "KUBE_BIN_DIR=$BIN_DIR"
  exit 0
fi

mkdir -p "$BIN_DIR" "$WORK_DIR" "$CACHE_ROOT/gomod" "$CACHE_ROOT/gocache"

# One build at a time per cache (parallel test jobs may all call start.sh).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$VERSION_DIR/.build.lock"
  if ! flock -n 9; then
    log "another build.sh is building $KUBE_VERSION in this cache; waiting for it"
    flock 9
  fi
  compute_missing
  if ((${#missing[@]} == 0)); then
    log "built meanwhile by the other build.sh: $BIN_DIR"
    echo "KUBE_BIN_DIR=$BIN_DIR"
    exit 0
  fi
fi
: >"$LOG"
log "building: ${missing[*]} (log: $LOG)"
log "go: $GO_VER, -p $PARALLEL, cache: $CACHE_ROOT"

avail_kb="$(df -Pk "$CACHE_ROOT" | awk 'NR==2 {print $4}')"
if [[ -n "$avail_kb" ]] && (( avail_kb < 8 * 1024 * 1024 )); then
  log "WARNING: only $((avail_kb / 1024)) MiB free under $CACHE_ROOT; a cold build needs ~5 GiB"
fi

export GOTOOLCHAIN=local
export GOFLAGS="-mod=mod -modcacherw -buildvcs=false"
export GOMODCACHE="$CACHE_ROOT/gomod"
export GOCACHE="$CACHE_ROOT/gocache"
export GOPATH="$CACHE_ROOT/gopath"
export CGO_ENABLED=0
export GOWORK=off
unset GOBIN GOOS GOARCH || true

in_dir() { local dir="$1"; shift; (trap - ERR; cd "$dir" && "$@"); }
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

# ------------------------------------------------- kubernetes build module
# One throwaway module requiring k8s.io/kubernetes serves both the kubernetes
# binaries and etcd (k8s.io/kubernetes itself requires go.etcd.io/etcd/server/v3,
# so etcd is built with the very dependency versions kubernetes was tested
# with, and shares most compiled packages with the kube build).
kube_mod="$WORK_DIR/kubernetes"
if needs kube-apiserver || needs kube-controller-manager || needs kube-scheduler || needs etcd; then
  rm -rf "$kube_mod" && mkdir -p "$kube_mod/out"

  run_step "download k8s.io/kubernetes@$KUBE_VERSION" \
    in_dir "$kube_mod" go mod download -json "k8s.io/kubernetes@$KUBE_VERSION"
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
  } >"$kube_mod/go.mod"

  kube_pkgs=(k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  # Explicit @version: a bare `go get pkg` would upgrade to the newest release.
  run_step "resolve kubernetes $KUBE_VERSION dependencies (go get)" \
    in_dir "$kube_mod" go get "${kube_pkgs[@]/%/@$KUBE_VERSION}"
fi

# ------------------------------------------------------- kubernetes binaries
if needs kube-apiserver || needs kube-controller-manager || needs kube-scheduler; then
  minor="${KUBE_VERSION#v1.}"; minor="${minor%%.*}"
  build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date"
  done
  run_step "go build kube-apiserver kube-controller-manager kube-scheduler ($KUBE_VERSION)" \
    in_dir "$kube_mod" go build -p "$PARALLEL" -trimpath -ldflags "$ldflags" -o ./out/ "${kube_pkgs[@]}"
  install_bins "$kube_mod/out" kube-apiserver kube-controller-manager kube-scheduler
fi

# ----------------------------------------------------------------------- etcd
if needs etcd; then
  # A copy of the kubernetes build module (so the kube binaries' module stays
  # pristine) plus the etcd server main package. etcd's own go.mod has replace
  # directives, so `go install go.etcd.io/etcd/server/v3@version` is refused.
  etcd_required="$(awk '$1 == "go.etcd.io/etcd/server/v3" {print $2; exit}' "$kube_gomod")"
  etcd_version="${ETCD_VERSION:-$etcd_required}"
  [[ -n "$etcd_version" ]] || fail "find the go.etcd.io/etcd/server/v3 version in $kube_gomod (set ETCD_VERSION)"
  mod="$WORK_DIR/etcd"
  rm -rf "$mod" && mkdir -p "$mod/out"
  cp "$kube_mod/go.mod" "$kube_mod/go.sum" "$mod/"
  sed -i 's#^module .*#module clm.invalid/etcd-build#' "$mod/go.mod"
  run_step "resolve etcd $etcd_version dependencies (go get)" \
    in_dir "$mod" go get "go.etcd.io/etcd/server/v3@$etcd_version"
  run_step "go build etcd ($etcd_version)" \
    in_dir "$mod" go build -p "$PARALLEL" -trimpath -ldflags "-s -w" -o ./out/etcd go.etcd.io/etcd/server/v3
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
    in_dir "$mod" go get "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  run_step "go build kwok ($KWOK_VERSION)" \
    in_dir "$mod" go build -p "$PARALLEL" -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION" -o ./out/kwok sigs.k8s.io/kwok/cmd/kwok
  install_bins "$mod/out" kwok
fi

CURRENT_STEP="verify binaries"
for n in "${NAMES[@]}"; do is_fresh "$n" || fail "verify binaries: $BIN_DIR/$n missing after build"; done
version_check() { local n; for n in "${NAMES[@]}"; do "$BIN_DIR/$n" --version; done; }
run_step "smoke-run --version" version_check
log "built into $BIN_DIR"
echo "KUBE_BIN_DIR=$BIN_DIR"
