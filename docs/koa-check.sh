#!/usr/bin/env bash
# Converts Zalando's public CLM config repository (zalando-incubator/kubernetes-on-aws) with `clm migrate`, renders
# its e2e cluster with `clm render` (offline), and provisions it in the simulated world with its etcd stack
# (`manage_etcd_stack: "true"`, as its e2e runs CLM with --manage-etcd-stack): every stack, every manifest, every node
# booting from its files bundle. With CLM_DIR (a checkout of zalando-incubator/cluster-lifecycle-manager) and Go, it
# also renders the cluster with CLM's own code (docs/clm-compare/) and compares the stacks. Nothing of either
# repository is kept in ours: they are cloned (or taken from KOA_DIR / CLM_DIR) into a scratch directory. Prints the
# figures quoted in docs/coming-from-clm.md.
#
#   docs/koa-check.sh [WORK_DIR]          (default WORK_DIR: a new temporary directory)
#   KOA_DIR=~/src/kubernetes-on-aws docs/koa-check.sh   to use an existing checkout
#   CLM_DIR=~/src/cluster-lifecycle-manager KOA_DIR=… docs/koa-check.sh   to compare with CLM's render too
#
# Needs git (unless KOA_DIR is given), bash, openssl and node; go for the comparison.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d)}
KOA=${KOA_DIR:-$WORK/kubernetes-on-aws}
mkdir -p "$WORK"
if [ ! -d "$KOA/cluster" ]; then
  git clone --quiet --depth 1 https://github.com/zalando-incubator/kubernetes-on-aws "$KOA"
fi

# 1. The registry: the e2e cluster of the repository's own test setup (test/e2e/cluster_config.sh).
export CLUSTER_ALIAS=e2e-test API_SERVER_URL=https://e2e-test.teapot-e2e.example.org LOCAL_ID=e2e-test \
  CLUSTER_ID=aws:123456789012:eu-central-1:e2e-test INFRASTRUCTURE_ACCOUNT=aws:123456789012 AWS_ACCOUNT=123456789012 \
  REGION=eu-central-1 OWNER=team-teapot ZMON_ROOT_ACCOUNT_ROLE=arn:aws:iam::123456789012:role/zmon \
  AUDITTRAIL_ROOT_ACCOUNT_ROLE=arn:aws:iam::123456789012:role/audit APISERVER_BUSINESS_PARTNER_IDS=abc \
  SESSION_MANAGER_DESTINATION_ARN=arn:aws:logs:eu-central-1:123456789012:destination:ssm \
  ETCD_ENDPOINTS=https://etcd-1.example.org:2379 ETCD_SCALYR_KEY=scalyr LIGHTSTEP_TOKEN=token \
  OKTA_AUTH_ISSUER_URL=https://okta.example.org EFS_ID=fs-12345678

# Its secrets (certificates and keys as base64 PEM) are not in the file: Zalando's pipeline adds them. A
# throw-away key and self-signed certificate stand in for all of them.
openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=e2e-test -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
  2>/dev/null
openssl rsa -in "$WORK/key.pem" -traditional -out "$WORK/rsa.pem" 2>/dev/null
CERT=$(base64 -w0 <"$WORK/cert.pem")
KEY=$(base64 -w0 <"$WORK/rsa.pem")
export ETCD_CLIENT_CA_CERT=$CERT ETCD_CLIENT_CA_KEY=$KEY
bash "$KOA/test/e2e/cluster_config.sh" e2e ready 2>/dev/null >"$WORK/clusters.yaml.in"
{
  sed -n '1,/^  config_items:/p' "$WORK/clusters.yaml.in"
  for item in ca_cert_decompressed worker_cert apiserver_cert_decompressed proxy_client_cert kubelet_client_cert \
    admission_controller_cert vpa_webhook_cert etcd_client_apiserver_cert etcd_client_server_cert; do
    echo "    $item: \"$CERT\""
  done
  for item in worker_key apiserver_key_decompressed proxy_client_key kubelet_client_key admission_controller_key \
    vpa_webhook_key etcd_client_apiserver_key etcd_client_server_key service_account_private_key; do
    echo "    $item: \"$KEY\""
  done
  echo '    emergency_access_service_opsgenie_api_key: "opsgenie"'
  echo '    manage_etcd_stack: "true"'
  # The simulated account has no cluster-autoscaler to scale the worker pools up from their min_size 0: the default
  # pool starts with one node per zone, so the cluster's workloads (the Karpenter controller's among them) can run.
  sed -n '/^  config_items:/,$p' "$WORK/clusters.yaml.in" | tail -n +2 |
    awk '/name: default-worker-splitaz/ { pool = 1 } pool && /min_size: 0/ { sub(/min_size: 0/, "min_size: 3"); pool = 0 } 1'
} >"$WORK/clusters.yaml"

# 2. What AWS would be asked: the node images config-defaults.yaml looks up with amiID, an ISSUED certificate for the
# API server's host (load_balancer_certificate), the key alias/etcd-cluster names; and the outputs of the main stack
# later templates read (the KMS keys of the files bundles; known only once the stack exists).
KEY=arn:aws:kms:eu-central-1:123456789012:key/0e7c0000-0000-4000-8000-00000000000
{
  echo 'defaults:'
  echo "  ClusterStackOutputs: {EtcdEncryptionKey: ${KEY}1, MasterFilesEncryptionKey: ${KEY}2, WorkerFilesEncryptionKey: ${KEY}3}"
  echo 'lookups:'
  echo '  certificates:'
  echo '    - {arn: "arn:aws:acm:eu-central-1:123456789012:certificate/0e7c0000-0000-4000-8000-000000000001", domains: ["*.teapot-e2e.example.org", teapot-e2e.example.org]}'
  echo '  instance_types:'
  echo '    t3.medium: {vcpu: 2, memory_mib: 4096, architecture: amd64}'
  echo '  kms_aliases:'
  echo "    alias/etcd-cluster: ${KEY}4"
  echo '  amis:'
  grep -o 'amiID "[^"]*" "[0-9]*"' "$KOA/cluster/config-defaults.yaml" | sort -u | nl -w1 |
    while read -r n _ name owner; do echo "    - {name: $name, owner: $owner, id: ami-0e7c000000000000$n}"; done
} >"$WORK/values.yaml"

# 3. Convert, then render.
CLM="node $ROOT/bin/clm.mjs"
rm -rf "$WORK/migrated" "$WORK/rendered"
$CLM migrate --from "$KOA" --to "$WORK/migrated" --report "$WORK/migrate-report.md" | head -1 || true
$CLM render --registry "$WORK/clusters.yaml" --directory "$WORK/migrated" --values "$WORK/values.yaml" \
  --out "$WORK/rendered" 2>"$WORK/render-warnings.txt" | tee "$WORK/render-summary.txt" || true
# ASG pools are stacks `nodepool-…`; Karpenter pools are listed on the `karpenter` line (no stack).
asg=$(grep -o 'nodepool-' "$WORK/render-summary.txt" | wc -l)
karpenter=$(grep -o '^  karpenter  [0-9]*' "$WORK/render-summary.txt" | awk '{print $2}')
echo "node pools rendered: $((asg + ${karpenter:-0})) of $(grep -c '^  - discount_strategy' "$WORK/clusters.yaml") ($asg ASG-backed, ${karpenter:-0} Karpenter)"

# 4. Provision it in the simulated world. The account holds what CLM does not create: the key alias/etcd-cluster
# names (the repository's cluster/etcd/pre-stack.yaml, deployed by other means) and an ACM certificate for the API
# server's host.
{
  echo 'accounts:'
  echo '  - account: "123456789012"'
  echo '    region: eu-central-1'
  echo '    certificates:'
  echo '      - domains: ["*.teapot-e2e.example.org", teapot-e2e.example.org]'
  echo '    stacks:'
  echo '      - name: etcd-cluster-preapply-etcd'
  echo '        template: |'
  sed 's/^/          /' "$KOA/cluster/etcd/pre-stack.yaml"
} >"$WORK/scenario.yaml"
rm -rf "$WORK/sim"
$CLM provision --simulate --scenario "$WORK/scenario.yaml" --state "$WORK/sim" --registry "$WORK/clusters.yaml" \
  --directory "$WORK/migrated" >"$WORK/provision.txt" 2>&1 || true
grep -E '^(succeeded|failed|held)' "$WORK/provision.txt" || tail -5 "$WORK/provision.txt"
grep -o 'ApplyManifests: Applied [0-9]* object(s)[^;]*' "$WORK/provision.txt" | tail -1 || true
(cd "$ROOT" && npx tsx docs/koa-check-world.ts "$WORK/sim" "$CLUSTER_ID")

# 5. With CLM_DIR and Go: the same cluster rendered by CLM's own code, from our render's config items and values.
if [ -n "${CLM_DIR:-}" ]; then
  rm -rf "$WORK/clm-src" "$WORK/clm-render"
  cp -r "$CLM_DIR" "$WORK/clm-src"
  cp "$ROOT/docs/clm-compare/render_compare_test.go" "$WORK/clm-src/provisioner/zz_render_compare_test.go"
  (cd "$WORK/clm-src" && COMPARE_RENDERED="$WORK/rendered/${CLUSTER_ID//:/_}" COMPARE_CONFIG="$KOA" \
    COMPARE_REGISTRY="$WORK/clusters.yaml" COMPARE_CLUSTER="$CLUSTER_ID" COMPARE_OUT="$WORK/clm-render" \
    go test -count=1 -run TestRenderForComparison ./provisioner/ >"$WORK/clm-render.log" 2>&1) ||
    { tail -20 "$WORK/clm-render.log"; exit 1; }
  (cd "$ROOT" && npx tsx docs/clm-compare/compare.ts "$WORK/clm-render" "$WORK/rendered/${CLUSTER_ID//:/_}") |
    tee "$WORK/compare.txt" | grep -v '^equal'
fi
echo "work directory: $WORK"
