import { serviceCidrOf, type EksControlPlane } from '../../core/eks/eks-control-plane';
import type { AccountState } from '../world-state';
import { EXISTING_STACK_STATES } from './stack-states';

/**
 * DescribeCluster(name) in the simulated account: the `AWS::EKS::Cluster` of that name in a stack (aws/cfn-eks-cluster.ts),
 * ACTIVE, or DELETING while its stack is being deleted; undefined when none exists (EKS: ResourceNotFoundException,
 * "No cluster found for name"). A cluster exists once its stack's create completed, and until its delete completed.
 */
export function describeEksCluster(account: AccountState, name: string): EksControlPlane | undefined {
  for (const stack of Object.values(account.stacks)) {
    if (!EXISTING_STACK_STATES.has(stack.status)) continue;
    for (const record of Object.values(stack.resources)) {
      if (record.type !== 'AWS::EKS::Cluster' || record.physicalId !== name) continue;
      const attribute = (key: string) => String(record.attributes[key] ?? '');
      return {
        name,
        endpoint: attribute('Endpoint'),
        certificateAuthorityData: attribute('CertificateAuthorityData'),
        oidcIssuerUrl: attribute('OpenIdConnectIssuerUrl'),
        serviceCidr: serviceCidrOf((record.model ?? {}) as Parameters<typeof serviceCidrOf>[0]),
        status: stack.status === 'DELETE_IN_PROGRESS' ? 'DELETING' : 'ACTIVE',
      };
    }
  }
  return undefined;
}
