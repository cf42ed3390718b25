import type { EksClusters } from '../../ports/eks-clusters';
import { describeEksCluster } from '../aws/eks';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { instrument } from './instrument';

/** EksClusters over the simulated account: the EKS clusters its stacks created. */
export function simEksClusters(ctx: SimContext, account: AccountState, clusterId: string): EksClusters {
  return instrument<EksClusters>(ctx, 'eks', clusterId, {
    describe: (name) => describeEksCluster(account, name),
  });
}
