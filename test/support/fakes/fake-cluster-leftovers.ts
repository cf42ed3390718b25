import type { Leftover, LeftoverKind } from '../../../lambdas/core/decommission/leftovers';
import type { ClusterLeftovers, LeftoverScan } from '../../../lambdas/ports/cluster-leftovers';

interface FakeLeftover extends Leftover {
  readonly clusterName: string;
  /** Load balancers: the security groups they hold in use. */
  readonly securityGroups?: readonly string[];
}

/** ClusterLeftovers with state: what `add` put there, deletions refused while in use, every call recorded. */
export class FakeClusterLeftovers implements ClusterLeftovers {
  readonly items = new Map<string, FakeLeftover>();
  readonly calls: string[] = [];
  unchecked: LeftoverKind[] = [];

  add(clusterName: string, item: Leftover & { securityGroups?: readonly string[] }): this {
    this.items.set(item.id, { ...item, clusterName });
    return this;
  }

  async find(clusterName: string): Promise<LeftoverScan> {
    this.calls.push(`find ${clusterName}`);
    const found = [...this.items.values()]
      .filter((i) => i.clusterName === clusterName)
      .map(({ clusterName: _c, securityGroups: _s, ...item }) => item);
    return { found, unchecked: [...this.unchecked] };
  }

  async delete(item: Leftover): Promise<'deleted' | 'gone' | 'in-use'> {
    this.calls.push(`delete ${item.kind} ${item.id}`);
    const found = this.items.get(item.id);
    if (!found) return 'gone';
    if ([...this.items.values()].some((i) => i.securityGroups?.includes(item.id))) return 'in-use';
    if (found.state !== undefined && found.state !== 'available') return 'in-use';
    this.items.delete(item.id);
    return 'deleted';
  }
}
