import type { JsonObject } from '../../support/registry-server';

export const ACCOUNT = 'aws:123456789012';

/** A valid cluster document in the registry's snake_case wire format. */
export function wireCluster(localId: string, overrides: JsonObject = {}): JsonObject {
  return {
    id: `${ACCOUNT}:eu-central-1:${localId}`,
    alias: localId,
    local_id: localId,
    api_server_url: `https://${localId}.example.org`,
    channel: 'main',
    config_items: { product_key: 'abc' },
    criticality_level: 1,
    environment: 'test',
    infrastructure_account: ACCOUNT,
    lifecycle_status: 'ready',
    provider: 'zalando-aws',
    region: 'eu-central-1',
    node_pools: [
      {
        name: 'default',
        profile: 'worker-default',
        instance_types: ['m5.large'],
        discount_strategy: 'none',
        min_size: 1,
        max_size: 3,
        config_items: {},
      },
    ],
    status: { current_version: '', last_version: '', next_version: '', problems: [] },
    ...overrides,
  };
}
