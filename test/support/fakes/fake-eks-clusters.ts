import type { EksClusters, EksControlPlane } from '../../../lambdas/ports/eks-clusters';

/** EKS clusters a test puts by name; DescribeCluster of any other name finds none, as EKS answers. */
export class FakeEksClusters implements EksClusters {
  readonly clusters = new Map<string, EksControlPlane>();
  readonly calls: string[] = [];

  async describe(name: string): Promise<EksControlPlane | undefined> {
    this.calls.push(name);
    const found = this.clusters.get(name);
    return found ? { ...found } : undefined;
  }
}
