import { checkedConfigItems } from '../../../lambdas/core/config/config-item-checks';
import { engine, snapshot } from '../render/fixtures';
import { testCluster, testPool } from '../../support/test-cluster';

const ID = 'aws:123456789012:eu-central-1:kube-1';

async function problems(
  clusterItems: Record<string, string>,
  poolItems: Record<string, string> = {},
  defaults = '',
  profile = 'worker-default',
): Promise<string[]> {
  const cluster = testCluster({
    configItems: clusterItems,
    nodePools: [testPool({ name: 'workers', profile, configItems: poolItems })],
  });
  const source = snapshot('main', defaults ? { 'cluster/config-defaults.yaml': defaults } : {});
  const { issues } = await checkedConfigItems(cluster, [source], engine());
  return issues.map((i) => i.message);
}

describe('checkedConfigItems: every item the engine reads, checked before the first write', () => {
  it('accepts good values and items only templates read', async () => {
    expect(
      await problems(
        {
          maintenance_windows: 'Mon-Fri 08:00-17:00 Europe/Berlin',
          update_requires_approval: 'true',
          update_approval_timeout: '48h',
          update_max_surge: '2',
          drain_grace_period: '30m',
          vpc_id: 'vpc-0123abcd',
          availability_zones: 'eu-central-1a, eu-central-1b',
          my_template_setting: 'anything at all',
        },
        { maintenance_windows: 'Sat 10:00-12:00 UTC', update_canary: 'false', taints: 'dedicated=db:NoSchedule' },
      ),
    ).toEqual([]);
  });

  it('finds a malformed pool-level maintenance_windows, naming the pool', async () => {
    expect(await problems({}, { maintenance_windows: 'Mon 25:00-26:00 UTC' })).toEqual([
      `cluster ${ID}: config item maintenance_windows (node pool workers, from the registry): maintenance window "Mon 25:00-26:00 UTC": times go from 00:00 to 24:00 (e.g. "Mon-Fri 08:00-17:00 Europe/Berlin")`,
    ]);
  });

  it('reports every bad item at once, at the cluster and the pool level', async () => {
    const found = await problems(
      {
        update_canary: 'yes',
        update_canary_soak: 'ten minutes',
        update_approval_timeout: '1s',
        maintenance_windows_manifests_anytime: 'sometimes',
        karpenter_controller: 'karpenter',
        override_channel: 'main',
        availability_zones: 'us-east-1a',
        subnets: 'subnet-0123abcd,sub-1',
        kube_auth: 'password',
      },
      { update_max_surge: '-1', drain_poll_interval: '10', taints: 'dedicated:Sometimes' },
    );
    const items = found.map((m) => /config item (\S+) \(([^)]*)\)/.exec(m)!.slice(1).join(' @ '));
    expect(items.sort()).toEqual(
      [
        'availability_zones @ from the registry',
        'karpenter_controller @ from the registry',
        'kube_auth @ from the registry',
        'maintenance_windows_manifests_anytime @ from the registry',
        'override_channel @ from the registry',
        'subnets @ from the registry',
        'update_approval_timeout @ from the registry',
        'update_canary @ from the registry',
        'update_canary_soak @ from the registry',
        'drain_poll_interval @ node pool workers, from the registry',
        'taints @ node pool workers, from the registry',
        'update_max_surge @ node pool workers, from the registry',
      ].sort(),
    );
  });

  it('names the config-defaults.yaml and line a bad default came from; the registry’s value wins over it', async () => {
    const defaults = 'team: platform\nupdate_health_timeout: soon\nupdate_max_unavailable: x\n';
    expect(await problems({ update_max_unavailable: '1' }, {}, defaults)).toEqual([
      `cluster ${ID}: config item update_health_timeout (from main/cluster/config-defaults.yaml:2): config item update_health_timeout must be a Go duration such as 30s, 10m or 6h, got "soon"`,
    ]);
  });

  it('checks the requirements of a Karpenter pool', async () => {
    const found = await problems(
      {},
      { requirements: '- {key: kubernetes.io/arch, operator: Near}' },
      '',
      'worker-karpenter',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('config item requirements (node pool workers, from the registry)');
  });
});
