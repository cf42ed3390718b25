import { nodeCheckItems, withNodeCheckItems } from '../../../lambdas/core/node-renewal/node-check-items';
import { nodesDue } from '../../../lambdas/core/node-renewal/nodes-due';
import { renewalConfigured } from '../../../lambdas/core/node-renewal/renewal-settings';
import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const status = (currentVersion: string) => ({ currentVersion, lastVersion: '', nextVersion: '', problems: [] });

function lostNode(): NodeInfo {
  return {
    name: 'n0',
    providerId: 'aws:///eu-central-1a/i-0',
    labels: { 'node.kubernetes.io/node-pool': 'workers' },
    annotations: {},
    taints: [],
    unschedulable: false,
    ready: false,
    notReadySince: new Date(NOW - 30 * 60_000).toISOString(),
    volumesAttached: false,
    createdAt: new Date(NOW - 86_400_000).toISOString(),
  };
}

describe('node-check items', () => {
  const merged = { node_repair: 'true', node_repair_after: '5m', team: 'platform', karpenter_feature_gates: 'x=true' };

  it('records only the items the node checks read', () => {
    expect(nodeCheckItems('v1', merged)).toEqual({
      version: 'v1',
      items: { node_repair: 'true', node_repair_after: '5m', karpenter_feature_gates: 'x=true' },
    });
  });

  it('lays the recorded items of the running version under the registry items, which win', () => {
    const cluster = {
      configItems: { node_repair_after: '20m' },
      status: status('v1'),
      nodePools: [
        {
          name: 'workers',
          profile: 'worker-default',
          instanceTypes: ['m6i.large'],
          discountStrategy: 'none',
          minSize: 1,
          maxSize: 3,
          configItems: {},
        },
      ],
    };
    const judged = withNodeCheckItems(cluster, nodeCheckItems('v1', merged));
    expect(judged.configItems).toEqual({
      node_repair: 'true',
      node_repair_after: '20m',
      karpenter_feature_gates: 'x=true',
    });
    // The registry asks for nothing; the defaults do, so the pass looks and finds the lost node due.
    expect(renewalConfigured(cluster.configItems, cluster.nodePools)).toBe(false);
    expect(renewalConfigured(judged.configItems, judged.nodePools)).toBe(true);
    const due = nodesDue({ id: 'c1', ...judged }, [lostNode()], NOW).due;
    expect(due).toEqual([{ pool: 'workers', node: 'n0', reason: 'repair' }]);
  });

  it('ignores a record of another version (an update rendered but not finished) and a missing one', () => {
    const cluster = { configItems: { team: 'a' }, status: status('v1') };
    expect(withNodeCheckItems(cluster, nodeCheckItems('v2', merged))).toBe(cluster);
    expect(withNodeCheckItems(cluster, undefined)).toBe(cluster);
  });
});
