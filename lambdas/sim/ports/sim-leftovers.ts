import type { ClusterLeftovers } from '../../ports/cluster-leftovers';
import { deleteLeftover, findLeftovers } from '../aws/leftovers';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { instrument } from './instrument';

/** ClusterLeftovers over the simulated account: every kind is looked for. */
export function simLeftovers(ctx: SimContext, account: AccountState, clusterId: string): ClusterLeftovers {
  return instrument<ClusterLeftovers>(ctx, 'leftovers', clusterId, {
    find: (clusterName) => ({ found: findLeftovers(account, clusterName), unchecked: [] }),
    delete: (item) => deleteLeftover(account, item),
  });
}
