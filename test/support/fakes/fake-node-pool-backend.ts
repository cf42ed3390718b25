import type {
  ClusterRef,
  KarpenterInstance,
  NodePoolBackend,
  PoolState,
} from '../../../lambdas/ports/node-pool-backend';
import type { FakeClock } from './fake-clock';
import type { FakeKubeCluster } from './fake-kube-cluster';

interface FakeInstance {
  id: string;
  az: string;
  version: number;
  launchedAt: number;
  state: 'Pending' | 'InService';
}

interface FakePool {
  name: string;
  desired: number;
  min: number;
  max: number;
  zones: string[];
  templateVersion: number;
  instances: FakeInstance[];
  decommissioned: boolean;
  /** The roll's mark of the size before it (core/rollout/pre-roll-size.ts), as the group's tag holds it. */
  preRoll?: { desired: number; min: number; max: number; pairing?: number };
}

/**
 * Auto Scaling with state: the pool launches instances up to its desired capacity (balanced over its
 * zones); an instance is InService and registers a Ready node `bootMs` after launch; `terminate` removes
 * it (and its node) and, unless it decrements, the ASG launches a replacement. `bumpTemplate` makes every
 * running instance outdated.
 */
export class FakeNodePoolBackend implements NodePoolBackend {
  readonly pools = new Map<string, FakePool>();
  readonly calls: string[] = [];
  /** Every instance ever terminated, in order. */
  readonly terminated: string[] = [];
  /** terminate() calls for an instance already gone. */
  terminatedTwice = 0;
  private seq = 0;

  constructor(
    readonly clock: FakeClock,
    readonly kube: FakeKubeCluster,
    readonly bootMs = 120_000,
  ) {
    kube.beforeCall = () => this.boot();
  }

  /** A pool with `size` InService instances and Ready nodes. */
  addPool(name: string, size: number, zones: readonly string[], limits: { min?: number; max?: number } = {}): void {
    const pool: FakePool = {
      name,
      desired: size,
      min: limits.min ?? 0,
      max: limits.max ?? Math.max(size * 3, 10),
      zones: [...zones],
      templateVersion: 1,
      instances: [],
      decommissioned: false,
    };
    this.pools.set(name, pool);
    for (let i = 0; i < size; i++) this.launch(pool, this.clock.now() - this.bootMs);
    this.boot();
  }

  bumpTemplate(name: string): void {
    this.pool(name).templateVersion++;
  }

  nodeName(instanceId: string): string {
    return `ip-${instanceId}`;
  }

  async getPool(_cluster: ClusterRef, poolName: string): Promise<PoolState | undefined> {
    this.boot();
    this.calls.push(`getPool ${poolName}`);
    const pool = this.pools.get(poolName);
    if (!pool) return undefined;
    return {
      poolName,
      desired: pool.desired,
      min: pool.min,
      max: pool.max,
      groups: [
        {
          name: `asg-${poolName}`,
          desired: pool.desired,
          min: pool.min,
          max: pool.max,
          ...(pool.preRoll ? { preRoll: { ...pool.preRoll } } : {}),
        },
      ],
      instances: pool.instances.map((i) => ({
        instanceId: i.id,
        availabilityZone: i.az,
        lifecycleState: i.state,
        healthy: true,
        outdated: i.version !== pool.templateVersion,
        launchTemplateVersion: String(i.version),
        asgName: `asg-${poolName}`,
      })),
    };
  }

  async scale(_cluster: ClusterRef, poolName: string, desired: number): Promise<void> {
    this.boot();
    this.calls.push(`scale ${poolName} ${desired}`);
    const pool = this.pool(poolName);
    pool.desired = desired;
    pool.max = Math.max(pool.max, desired);
    pool.min = Math.min(pool.min, desired);
    this.converge(pool);
  }

  async terminate(_cluster: ClusterRef, instanceId: string, decrementDesired: boolean): Promise<void> {
    this.boot();
    this.calls.push(`terminate ${instanceId}${decrementDesired ? ' decrement' : ''}`);
    const pool = [...this.pools.values()].find((p) => p.instances.some((i) => i.id === instanceId));
    if (!pool) {
      if (this.terminated.includes(instanceId)) this.terminatedTwice++;
      return;
    }
    pool.instances = pool.instances.filter((i) => i.id !== instanceId);
    this.terminated.push(instanceId);
    this.kube.removeNode(this.nodeName(instanceId));
    if (decrementDesired) pool.desired = Math.max(pool.desired - 1, pool.min);
    this.converge(pool);
  }

  async markPreRollSize(_cluster: ClusterRef, poolName: string, pairing?: number): Promise<void> {
    this.calls.push(`markPreRollSize ${poolName}${pairing === undefined ? '' : ` pairing ${pairing}`}`);
    const pool = this.pool(poolName);
    pool.preRoll ??= { desired: pool.desired, min: pool.min, max: pool.max };
    if (pairing !== undefined) pool.preRoll.pairing = pairing;
  }

  async restorePreRollSize(_cluster: ClusterRef, poolName: string): Promise<void> {
    this.calls.push(`restorePreRollSize ${poolName}`);
    const pool = this.pool(poolName);
    if (!pool.preRoll) return;
    pool.min = Math.min(pool.preRoll.min, pool.desired);
    pool.max = Math.max(pool.preRoll.max, pool.desired);
    delete pool.preRoll;
  }

  async markForDecommission(_cluster: ClusterRef, poolName: string): Promise<void> {
    this.calls.push(`markForDecommission ${poolName}`);
    const pool = this.pool(poolName);
    pool.min = 0;
    pool.decommissioned = true;
  }

  /** This fake has no Karpenter pools: no instances carry the `karpenter.sh/nodepool` tag. */
  async karpenterInstances(_cluster: ClusterRef, pool?: string): Promise<KarpenterInstance[]> {
    this.calls.push(`karpenterInstances ${pool ?? '*'}`);
    return [];
  }

  async terminateInstances(_cluster: ClusterRef, instanceIds: readonly string[]): Promise<void> {
    this.calls.push(`terminateInstances ${instanceIds.join(',')}`);
  }

  callCount(prefix: string): number {
    return this.calls.filter((c) => c.startsWith(prefix)).length;
  }

  private pool(name: string): FakePool {
    const pool = this.pools.get(name);
    if (!pool) throw new Error(`no pool ${name}`);
    return pool;
  }

  private converge(pool: FakePool): void {
    while (pool.instances.length < pool.desired) this.launch(pool, this.clock.now());
    while (pool.instances.length > pool.desired) {
      // Scale-in: the ASG terminates outdated instances first.
      const victim =
        pool.instances.find((i) => i.version !== pool.templateVersion) ?? pool.instances[pool.instances.length - 1]!;
      pool.instances = pool.instances.filter((i) => i !== victim);
      this.terminated.push(victim.id);
      this.kube.removeNode(this.nodeName(victim.id));
    }
  }

  private launch(pool: FakePool, at: number): void {
    const count = (zone: string): number => pool.instances.filter((i) => i.az === zone).length;
    const az = [...pool.zones].sort((a, b) => count(a) - count(b) || a.localeCompare(b))[0]!;
    const id = `i-${pool.name.replace(/[^A-Za-z0-9]/g, '')}${String(++this.seq).padStart(3, '0')}`; // provider ids need [0-9a-zA-Z]
    pool.instances.push({ id, az, version: pool.templateVersion, launchedAt: at, state: 'Pending' });
  }

  /** Instances whose boot time passed are InService with a Ready node. */
  private boot(): void {
    const now = this.clock.now();
    for (const pool of this.pools.values()) {
      for (const instance of pool.instances) {
        if (instance.state === 'Pending' && now >= instance.launchedAt + this.bootMs) {
          instance.state = 'InService';
          this.kube.addNode(this.nodeName(instance.id), instance.az, instance.id, {
            createdAt: new Date(instance.launchedAt + this.bootMs).toISOString(),
          });
        }
      }
    }
  }
}
