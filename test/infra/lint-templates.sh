#!/usr/bin/env bash
# Lint the synthesized CloudFormation templates with cfn-lint and checkov.
#
#   test/infra/lint-templates.sh            # synth, lint, fail on any finding nobody justified
#   test/infra/lint-templates.sh venv       # only create/verify the cached virtualenv
#
# Synthesizes the app twice (no credentials, bundling skipped): same-account mode (ClmStateful, ClmWorkflow) and
# cross-account mode with ClmClusterAccess. Every finding must be justified in test/infra/lint-justifications.ts
# (by rule and resource, like infra/nag.ts for cdk-nag); test/infra/lint-findings.ts checks that.
#
# The linters live in a virtualenv created once and cached at
#   ${CLM_CACHE_DIR:-<repo>/.cache}/infra-lint-venv-<sha256 of lint-requirements.txt, 12 chars>
# from the fully pinned test/infra/lint-requirements.txt (cfn-lint 1.58.0, checkov 3.3.30). Needs Python >= 3.9 with
# venv and PyPI the first time; checkov runs offline (--skip-download).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${CLM_CACHE_DIR:-$REPO_ROOT/.cache}"
REQS="$SCRIPT_DIR/lint-requirements.txt"
DIGEST="$(sha256sum "$REQS" | cut -c1-12)"
VENV="$CACHE_DIR/infra-lint-venv-$DIGEST"
PYTHON="${CLM_PYTHON:-python3}"

log() { echo "lint-templates.sh: $*" >&2; }
die() { echo "lint-templates.sh: ERROR: $*" >&2; exit 1; }

ensure_venv() {
  mkdir -p "$CACHE_DIR" || die "step 'venv': cannot create cache dir $CACHE_DIR"
  exec 9>"$CACHE_DIR/.infra-lint-venv.lock"
  flock -w 900 9 || die "step 'venv': timed out waiting for $CACHE_DIR/.infra-lint-venv.lock"
  if [[ -f "$VENV/.complete" && -x "$VENV/bin/cfn-lint" && -x "$VENV/bin/checkov" ]]; then
    flock -u 9; return 0
  fi
  command -v "$PYTHON" >/dev/null 2>&1 || die "step 'venv': $PYTHON not found (need Python >= 3.9)"
  rm -rf "$VENV"
  log "creating virtualenv $VENV (first run only, ~1-2 min)"
  "$PYTHON" -m venv "$VENV" || die "step 'venv': '$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$REQS" \
    || { rm -rf "$VENV"; die "step 'pip install': installing $REQS failed (is PyPI reachable?)"; }
  "$VENV/bin/cfn-lint" --version >/dev/null && "$VENV/bin/checkov" --version >/dev/null \
    || { rm -rf "$VENV"; die "step 'verify venv': cfn-lint or checkov does not run from $VENV"; }
  touch "$VENV/.complete"
  flock -u 9
}

# synth OUTDIR EXTRA_CONTEXT_JSON: the app as `cdk synth` runs it, without bundling or credentials.
synth() {
  local outdir="$1" extra="$2" context
  context="$(node -e '
    const base = require(process.argv[1]).context;
    const extra = JSON.parse(process.argv[2]);
    console.log(JSON.stringify({ ...base, "aws:cdk:bundling-stacks": [], registryUri: "https://registry.example.org",
      configSources: "main:git:https://github.com/example/cluster-config.git", ...extra }));
  ' "$REPO_ROOT/cdk.json" "$extra")"
  (cd "$REPO_ROOT" && CDK_OUTDIR="$outdir" CDK_CONTEXT_JSON="$context" CDK_DEFAULT_ACCOUNT='' CDK_DEFAULT_REGION='' \
    AWS_EC2_METADATA_DISABLED=true node --import tsx infra/app.ts) \
    || die "step 'synth': infra/app.ts failed with context $extra"
}

main() {
  [[ "${1:-}" == "venv" ]] && { ensure_venv; return 0; }
  ensure_venv
  work="$(mktemp -d "${TMPDIR:-/tmp}/clm-lint-templates.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  log "synthesizing (same-account mode; cross-account mode with ClmClusterAccess)"
  synth "$work/same" '{}'
  synth "$work/cross" '{"assumedRoleName": "cluster-lifecycle-manager", "clusterAccountIds": "210987654321",
    "externalId": "clm-example-external-id", "clmAccountId": "123456789012", "clusterTokenSecretPrefix": "clm/clusters/"}'
  local templates=("$work"/same/*.template.json "$work"/cross/*.template.json)
  log "cfn-lint $("$VENV/bin/cfn-lint" --version | cut -d' ' -f2) on ${#templates[@]} templates"
  # Exit codes 2/4/8 mean findings (judged below); anything else is a failure of cfn-lint itself.
  local status=0
  "$VENV/bin/cfn-lint" --format json "${templates[@]}" >"$work/cfn-lint.json" || status=$?
  (( status == 0 || (status & 1) == 0 )) || die "step 'cfn-lint': exited $status"
  log "checkov $("$VENV/bin/checkov" --version) (offline)"
  status=0
  BC_SKIP_MAPPING=TRUE "$VENV/bin/checkov" --quiet --compact --skip-download --framework cloudformation \
    $(printf -- '-f %s ' "${templates[@]}") -o json >"$work/checkov.json" 2>"$work/checkov.err" || status=$?
  (( status == 0 || status == 1 )) || die "step 'checkov': exited $status: $(tail -5 "$work/checkov.err")"
  (cd "$REPO_ROOT" && npx tsx test/infra/lint-findings-cli.ts "$work/cfn-lint.json" "$work/checkov.json")
}

main "$@"
