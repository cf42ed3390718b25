import { isKarpenterPool, type Cluster } from '../../core/model/cluster';
import { clusterRef } from '../../core/model/cluster-ref';
import { NODEPOOL_LABEL } from '../../core/karpenter/karpenter-objects';
import { coveringPdbs } from '../../core/rollout/drain-rules';
import type { RunObservation } from '../../core/rehearsal/rehearsal-report';
import { vcpuQuotaOf, vcpusOf } from '../../core/capacity/vcpu-quotas';
import type { ClusterPorts, Ports } from '../../ports/ports';
import type { SimulatedWorld } from '../../sim';
import { pendingReason } from '../../core/rehearsal/pending-reasons';
import { pendingFacts } from './pending-facts';

const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';

/** A pod Pending no longer than this is starting, not stuck (a replacement waiting for its node's boot is counted). */
const PENDING_GRACE_SECONDS = 60;
/** Virtual time passes in steps of at most this much, so the observer samples the twin often enough. */
const STEP_MS = 30_000;

type Block = { namespace: string; name: string; first: number; last: number; pods: Set<string>; lifted?: number };

/**
 * Watches one run in the twin: evictions a PDB refused and when it let one through, pods forced past their PDB,
 * pods left Pending (and why), and the most instances each pool ran, sampled as virtual time passes.
 */
export class RunObserver {
  private readonly blocks = new Map<string, Block>();
  private readonly forced: string[] = [];
  private readonly pendingSince = new Map<string, { since: number; longest: number; reason: string }>();
  private readonly peak = new Map<string, number>();
  /** The most instances each pool was asked to run (desired capacity): the surge wanted, launched or not. */
  private readonly wanted = new Map<string, number>();
  private readonly base = new Map<string, number>();
  private readonly types = new Map<string, string>();
  private batches = new Map<string, number>();
  /** Karpenter pools: when the roll last cordoned one of the pool's nodes (nodes cordoned together are one batch). */
  private readonly lastCordon = new Map<string, number>();
  /** Karpenter pools' nodes and vCPUs before the update, and at their most. */
  private readonly karpenterBase = new Map<string, { nodes: number; vcpu: number }>();
  private readonly karpenterPeak = new Map<string, { nodes: number; vcpu: number }>();
  private readonly karpenterPools: ReadonlySet<string>;

  private readonly twin: ClusterPorts;

  constructor(
    private readonly world: SimulatedWorld,
    private readonly cluster: Cluster,
    /** Called after each step of virtual time (a benchmark's operator acting at a set time). */
    private readonly onStep?: (now: number) => Promise<void>,
  ) {
    this.twin = world.forCluster(cluster);
    this.karpenterPools = new Set(cluster.nodePools.filter(isKarpenterPool).map((p) => p.name));
  }

  /** Sizes and instance types of the pools before the update. */
  async start(): Promise<void> {
    for (const pool of this.world.describe(this.cluster.id).pools) {
      this.base.set(pool.name, live(pool.instances));
      const state = await this.twin.pools.getPool(clusterRef(this.cluster), pool.name);
      const type = state?.instances.find((i) => i.instanceType)?.instanceType;
      if (type) this.types.set(pool.name, type);
    }
    for (const [pool, size] of await this.karpenterSizes()) this.karpenterBase.set(pool, size);
    await this.sample();
  }

  /** The twin's ports with evictions, forced deletes and scale-outs recorded, and time passing in sampled steps. */
  wrap(ports: Ports): Ports {
    const clock = { ...ports.clock, sleep: async (ms: number) => this.advance(ms) };
    return {
      ...ports,
      clock,
      forCluster: (c) => {
        const cp = ports.forCluster(c);
        return c.id === this.cluster.id ? this.watched(cp) : cp;
      },
    };
  }

  private watched(cp: ClusterPorts): ClusterPorts {
    const kube = cp.kube;
    const pools = cp.pools;
    const now = () => this.world.now;
    return {
      ...cp,
      kube: Object.assign(Object.create(kube) as typeof kube, {
        evictPod: async (namespace: string, name: string, grace?: number) => {
          const pod = (await kube.listPods({ namespace })).find((p) => p.name === name);
          const result = await kube.evictPod(namespace, name, grace);
          if (pod) this.evicted(pod, result, await kube.listPdbs(), now());
          return result;
        },
        patchNode: async (name: string, patch: Parameters<typeof kube.patchNode>[1]) => {
          if (patch.unschedulable === true) await this.cordoned(kube, name, now());
          return kube.patchNode(name, patch);
        },
        deletePod: async (namespace: string, name: string, grace?: number) => {
          this.forced.push(standIn(`${namespace}/${name}`));
          return kube.deletePod(namespace, name, grace);
        },
      }),
      pools: Object.assign(Object.create(pools) as typeof pools, {
        scale: async (ref: Parameters<typeof pools.scale>[0], pool: string, desired: number) => {
          const before = (await pools.getPool(ref, pool))?.desired ?? 0;
          if (desired > before) this.batches.set(pool, (this.batches.get(pool) ?? 0) + 1);
          this.wanted.set(pool, Math.max(this.wanted.get(pool) ?? 0, desired));
          return pools.scale(ref, pool, desired);
        },
      }),
    };
  }

  /** A Karpenter pool's batch: the nodes the roll cordons at one moment (its ASG pools' batches are their scale-outs). */
  private async cordoned(kube: ClusterPorts['kube'], name: string, at: number): Promise<void> {
    if (!this.karpenterPools.size) return;
    const pool = (await kube.listNodes()).find((n) => n.name === name)?.labels[NODEPOOL_LABEL];
    if (!pool || !this.karpenterPools.has(pool) || this.lastCordon.get(pool) === at) return;
    this.lastCordon.set(pool, at);
    this.batches.set(pool, (this.batches.get(pool) ?? 0) + 1);
  }

  /** Each Karpenter pool's nodes (booting or not) and their vCPUs, by the nodes' instance-type label. */
  private async karpenterSizes(): Promise<Map<string, { nodes: number; vcpu: number }>> {
    const sizes = new Map<string, { nodes: number; vcpu: number }>();
    if (!this.karpenterPools.size) return sizes;
    for (const node of await this.twin.kube.listNodes()) {
      const pool = node.labels[NODEPOOL_LABEL];
      if (!pool || !this.karpenterPools.has(pool)) continue;
      const size = sizes.get(pool) ?? { nodes: 0, vcpu: 0 };
      const vcpu = vcpusOf(node.labels[INSTANCE_TYPE_LABEL] ?? '');
      sizes.set(pool, { nodes: size.nodes + 1, vcpu: size.vcpu + vcpu });
    }
    return sizes;
  }

  private evicted(
    pod: Parameters<typeof coveringPdbs>[0],
    result: string,
    pdbs: Parameters<typeof coveringPdbs>[1],
    at: number,
  ): void {
    for (const pdb of coveringPdbs(pod, pdbs)) {
      const key = `${pdb.namespace}/${pdb.name}`;
      const block = this.blocks.get(key);
      if (result === 'blocked-by-pdb') {
        const b = block ?? { namespace: pdb.namespace, name: pdb.name, first: at, last: at, pods: new Set<string>() };
        b.last = at;
        b.pods.add(standIn(`${pod.namespace}/${pod.name}`));
        delete b.lifted;
        this.blocks.set(key, b);
      } else if (result === 'evicted' && block && block.lifted === undefined) block.lifted = at;
    }
  }

  /** Since when (virtual ms) the PDB `namespace/name` has refused evictions in this run, when it has. */
  blockedSince(pdb: string): number | undefined {
    return this.blocks.get(pdb)?.first;
  }

  /** Let `ms` of virtual time pass in steps, sampling after each. */
  async advance(ms: number): Promise<void> {
    const end = this.world.now + Math.max(0, ms);
    while (this.world.now < end) {
      this.world.advanceTo(Math.min(end, this.world.now + STEP_MS));
      await this.onStep?.(this.world.now);
      await this.sample();
    }
  }

  private async sample(): Promise<void> {
    const described = this.world.describe(this.cluster.id);
    for (const pool of described.pools)
      this.peak.set(pool.name, Math.max(this.peak.get(pool.name) ?? 0, live(pool.instances)));
    for (const [pool, size] of await this.karpenterSizes()) {
      const peak = this.karpenterPeak.get(pool);
      this.karpenterPeak.set(pool, {
        nodes: Math.max(peak?.nodes ?? 0, size.nodes),
        vcpu: Math.max(peak?.vcpu ?? 0, size.vcpu),
      });
    }
    const facts = await pendingFacts(this.twin.kube);
    const now = this.world.now;
    const seen = new Set<string>();
    for (const pod of facts.pending) {
      seen.add(pod.key);
      const spell = this.pendingSince.get(pod.key);
      const reason = pendingReason(pod, facts);
      if (!spell || !Number.isFinite(spell.since))
        this.pendingSince.set(pod.key, { since: now, longest: spell?.longest ?? 0, reason });
      else spell.reason = reason;
    }
    for (const [key, spell] of this.pendingSince) {
      if (Number.isFinite(spell.since)) spell.longest = Math.max(spell.longest, (now - spell.since) / 1000);
      if (!seen.has(key)) this.pendingSince.set(key, { ...spell, since: Number.POSITIVE_INFINITY });
    }
  }

  /** The run's observation, once it ended. */
  async finish(
    run: Pick<RunObservation, 'seed' | 'status' | 'error' | 'transitions'>,
    startedAt: number,
    progress: PoolTimes,
  ): Promise<RunObservation> {
    await this.sample();
    const end = this.world.now;
    return {
      ...run,
      durationSeconds: (end - startedAt) / 1000,
      pools: Object.entries(progress).map(([pool, p]) => ({
        pool,
        seconds: p.startedAt !== undefined && p.completedAt !== undefined ? (p.completedAt - p.startedAt) / 1000 : 0,
        nodes: p.replaced,
        batches: this.batches.get(pool) ?? 0,
      })),
      pdbBlocks: [...this.blocks.values()].map((b) => ({
        namespace: b.namespace,
        name: b.name,
        seconds: ((b.lifted ?? Math.max(b.last, end)) - b.first) / 1000,
        pods: [...b.pods].sort(),
      })),
      forced: [...new Set(this.forced)],
      pending: this.longestPending(),
      // What the pool asked for, launched or not: a surge EC2 refused over the vCPU quota is still the surge needed.
      surge: [
        ...[...this.peak].flatMap(([pool, peak]) => {
          const extra = Math.max(peak, this.wanted.get(pool) ?? 0) - (this.base.get(pool) ?? 0);
          if (extra <= 0) return [];
          const vcpu = vcpusOf(this.typeOf(pool));
          const quota = vcpuQuotaOf(this.typeOf(pool));
          return [{ pool, instances: extra, vcpu: extra * vcpu, ...(quota ? { quota: quota.code } : {}) }];
        }),
        ...this.karpenterSurge(),
      ],
    };
  }

  /** The most nodes (and vCPUs) each Karpenter pool ran above what it had before the update. */
  private karpenterSurge(): RunObservation['surge'] {
    return [...this.karpenterPeak].flatMap(([pool, peak]) => {
      const base = this.karpenterBase.get(pool) ?? { nodes: 0, vcpu: 0 };
      const instances = peak.nodes - base.nodes;
      return instances > 0 ? [{ pool, instances, vcpu: Math.max(0, peak.vcpu - base.vcpu) }] : [];
    });
  }

  /** Per stand-in, its longest Pending spell beyond a start's time. */
  private longestPending(): RunObservation['pending'] {
    const longest = new Map<string, { pod: string; seconds: number; reason: string }>();
    for (const [pod, s] of this.pendingSince) {
      const key = standIn(pod);
      if (s.longest > PENDING_GRACE_SECONDS && s.longest > (longest.get(key)?.seconds ?? 0))
        longest.set(key, { pod: key, seconds: Math.round(s.longest), reason: s.reason });
    }
    return [...longest.values()];
  }

  private typeOf(pool: string): string {
    return this.types.get(pool) ?? '';
  }
}

export type PoolTimes = Readonly<
  Record<string, { readonly startedAt?: number; readonly completedAt?: number; readonly replaced: number }>
>;

/**
 * The twin's pods stand for the live ones: a ReplicaSet's or DaemonSet's pod is named by its workload with a `*` for
 * the generated suffix (`web/web-*`), a StatefulSet's or a bare pod by its own name.
 */
export function standIn(pod: string): string {
  return pod
    .replace(/-[b-df-hj-np-tv-z2-9]{6,10}-[b-df-hj-np-tv-z2-9]{5}$/, '-*')
    .replace(/-[b-df-hj-np-tv-z2-9]{5}$/, '-*');
}

function live(instances: readonly { readonly state: string }[]): number {
  return instances.filter((i) => i.state === 'Pending' || i.state === 'InService').length;
}
