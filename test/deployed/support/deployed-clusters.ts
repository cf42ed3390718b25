/**
 * The clusters of the deployed tier, as an operator writes them into CLM's registry table (`registryUri=dynamodb://`:
 * the DynamoDB registry, whose stream triggers a dispatcher pass). Built from examples/clusters.yaml's kube-test, in the
 * emulator's account, its API server the control plane on 127.0.0.2 with its CA, its load balancer certificate given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { REPO_ROOT } from './deploy-app';
import { CLM_ACCOUNT, REGION } from './deployed-environment';

export function exampleCluster(
  name: string,
  overrides: { apiServerUrl: string; configItems?: Record<string, string>; account?: string; channel?: string },
): Record<string, unknown> {
  const examples = load(readFileSync(join(REPO_ROOT, 'examples', 'clusters.yaml'), 'utf8')) as {
    clusters: Record<string, unknown>[];
  };
  const base = examples.clusters.find((c) => c.local_id === 'kube-test')!;
  const account = overrides.account ?? CLM_ACCOUNT;
  return {
    ...base,
    id: `aws:${account}:${REGION}:${name}`,
    alias: name,
    local_id: name,
    api_server_url: overrides.apiServerUrl,
    infrastructure_account: `aws:${account}`,
    region: REGION,
    channel: overrides.channel ?? 'main',
    config_items: {
      ...(base.config_items as Record<string, string>),
      // The API server is 127.0.0.2, a host no ACM certificate is issued for: the cluster names the certificate
      // itself, so the ACM lookup is not asked (the integration suite checks that lookup against moto's ACM).
      load_balancer_certificate: `arn:aws:acm:${REGION}:${account}:certificate/0d000000-0000-4000-8000-000000000001`,
      ...overrides.configItems,
    },
    status: {},
  };
}
