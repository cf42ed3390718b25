#!/usr/bin/env bash
# Converts Zalando's public CLM config repository (zalando-incubator/kubernetes-on-aws) with `clm migrate` and
# renders its e2e cluster with `clm render`, offline. Nothing of that repository is kept in ours: it is cloned
# (or taken from KOA_DIR) into a scratch directory. Prints the figures quoted in docs/coming-from-clm.md.
#
#   docs/koa-check.sh [WORK_DIR]          (default WORK_DIR: a new temporary directory)
#   KOA_DIR=~/src/kubernetes-on-aws docs/koa-check.sh   to use an existing checkout
#
# Needs git (unless KOA_DIR is given), bash, openssl and node.
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
  sed -n '/^  config_items:/,$p' "$WORK/clusters.yaml.in" | tail -n +2
} >"$WORK/clusters.yaml"

# 2. What AWS would be asked: the three node images config-defaults.yaml looks up with amiID; and the one output
# of the main stack a template reads (known only once the stack exists).
{
  echo 'defaults:'
  echo '  ClusterStackOutputs: {EtcdEncryptionKey: "arn:aws:kms:eu-central-1:123456789012:key/0e7c0000-0000-4000-8000-000000000001"}'
  echo 'lookups:'
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
echo "work directory: $WORK"
