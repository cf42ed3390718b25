import type { FleetTarget } from '../../lambdas/core/dispatch/fleet-targets';
import { EMPTY_STATUS, type Cluster } from '../../lambdas/core/model/cluster';

/**
 * The fleet of the fleet day, generated (deterministic): `size` clusters in size / 50 accounts over three regions,
 * account sizes spread unevenly (log-normal, σ 0.5: the largest of 200 accounts holds about three times the mean), 1 % test, 10 % staging and 89 %
 * production clusters (criticality 2 and 3, 39 % and 50 %: with the default waves, four waves), 120 to 280 worker
 * nodes each (200 on average) rolled with a surge of 10 %. Every cluster is one config version behind.
 */
export const REGIONS = ['eu-central-1', 'eu-west-1', 'us-east-1'] as const;
export const OLD = 'a'.repeat(40);
export const NEW = 'b'.repeat(40);

export interface FleetCluster {
  readonly cluster: Cluster;
  readonly nodes: number;
  /** update_max_surge: 10 % of the pool. */
  readonly surge: number;
  /** `<account> <region>`: where EC2's limits apply. */
  readonly place: string;
}

export interface Fleet {
  readonly clusters: readonly FleetCluster[];
  readonly accounts: number;
  readonly targets: ReadonlyMap<string, FleetTarget>;
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many clusters each account holds: weights e^(0.5 z), z roughly normal, largest remainder to integers. */
function accountSizes(size: number, accounts: number, random: () => number): number[] {
  const weights = Array.from({ length: accounts }, () => {
    const z = random() + random() + random() + random() - 2; // Irwin–Hall: mean 0, sd ≈ 0.58
    return Math.exp(0.85 * z);
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * size);
  const sizes = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  const missing = size - sizes.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) sizes[order[k]![1]]! += 1;
  return sizes;
}

function environmentOf(share: number): { environment: string; criticalityLevel: number } {
  if (share < 0.01) return { environment: 'test', criticalityLevel: 1 };
  if (share < 0.11) return { environment: 'staging', criticalityLevel: 1 };
  if (share < 0.5) return { environment: 'production', criticalityLevel: 2 };
  return { environment: 'production', criticalityLevel: 3 };
}

export function generateFleet(size: number, seed = 29): Fleet {
  const random = prng(seed);
  const accounts = Math.max(1, Math.round(size / 50));
  const sizes = accountSizes(size, accounts, random);
  const clusters: FleetCluster[] = [];
  const targets = new Map<string, FleetTarget>();
  sizes.forEach((count, a) => {
    const account = `aws:${String(300000000000 + a)}`;
    const region = REGIONS[a % REGIONS.length]!;
    for (let k = 0; k < count; k++) {
      const i = clusters.length;
      // Spread the environments evenly over the fleet (every account gets its share), by a low-discrepancy sequence.
      const share = (i * 0.6180339887498949) % 1;
      const nodes = 120 + Math.floor(random() * 161);
      const surge = Math.max(1, Math.round(nodes / 10));
      const localId = `kube-${i}`;
      const hash = `h${i}`;
      const cluster: Cluster = {
        id: `${account}:${region}:${localId}`,
        alias: localId,
        localId,
        apiServerUrl: `https://${localId}.example.org`,
        channel: 'stable',
        configItems: { update_max_surge: String(surge), update_canary: 'false', drain_grace_period: '20m' },
        ...environmentOf(share),
        infrastructureAccount: account,
        lifecycleStatus: 'ready',
        nodePools: [
          {
            name: 'workers',
            profile: 'worker-default',
            instanceTypes: ['m6i.xlarge'],
            discountStrategy: 'none',
            minSize: nodes,
            maxSize: nodes + surge,
            configItems: {},
          },
        ],
        provider: 'zalando-aws',
        region,
        status: { ...EMPTY_STATUS, currentVersion: `${OLD}#${hash}` },
      };
      clusters.push({ cluster, nodes, surge, place: `${account} ${region}` });
      targets.set(cluster.id, { ok: true, clusterHash: hash, configVersion: NEW, targetVersion: `${NEW}#${hash}` });
    }
  });
  return { clusters, accounts, targets };
}
