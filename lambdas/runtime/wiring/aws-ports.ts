import type { Cluster } from '../../core/model/cluster';
import { awsAccountId } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { Ports } from '../../ports/ports';
import type { ProgressStore } from '../../ports/progress-store';
import type { Registry } from '../../ports/registry';
import type { ConfigSource } from '../../ports/config-source';
import type { ArtifactStore } from '../../ports/artifact-store';
import { systemClock } from '../../ports/clock';
import { ClientNodeKubeCluster } from '../../adapters/kube/client-node-kube-cluster';
import { cloudFactories } from '../cloud/cloud-factories';
import { kubeFactory } from '../cloud/kube-factory';
import { templatesFactory } from '../cloud/templates-factory';

export interface AwsPortsOptions {
  readonly registry: Registry;
  readonly sources: readonly ConfigSource[];
  readonly progress: ProgressStore;
  readonly artifacts: ArtifactStore;
  readonly region: string;
  readonly endpoint?: string;
  readonly assumedRole?: string;
  /** How to reach a cluster's API server. @default the cluster's api_server_url with `token` */
  readonly kubeFor?: (cluster: Cluster) => KubeCluster;
  readonly token?: string;
  readonly kubeconfig?: string;
}

/**
 * Every port against real AWS accounts and API servers, for `clm provision` without --simulate. The Lambda tasks do
 * not use this: each wires only what its task needs (lambda-ports.ts), to keep its bundle and cold start small. Both
 * build the AWS side of a cluster and the template lookups the same way (cloud-ports.ts, template-port.ts).
 */
export function createAwsPorts(options: AwsPortsOptions): Ports {
  const aws = cloudFactories({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.assumedRole ? { assumedRole: options.assumedRole } : {}),
  });
  const kubes = new Map<string, KubeCluster>();
  const kubeconfigPath = options.kubeconfig;
  const kubeFor =
    options.kubeFor ??
    (kubeconfigPath
      ? () => new ClientNodeKubeCluster({ kubeconfigPath })
      : kubeFactory(options.token ? { clusterToken: options.token } : {}));
  return {
    registry: options.registry,
    sources: options.sources,
    progress: options.progress,
    artifacts: options.artifacts,
    clock: systemClock,
    // amiID/instanceType ask EC2 in the account and region of the cluster each template renders for.
    templates: templatesFactory(aws.lookupsFor)(),
    secrets: aws.secrets(),
    forCluster(cluster) {
      let kube = kubes.get(cluster.id);
      if (!kube) {
        kube = kubeFor(cluster);
        kubes.set(cluster.id, kube);
      }
      return {
        stacks: aws.stacks(cluster),
        pools: aws.pools(cluster),
        values: aws.values(cluster),
        lookups: aws.lookupsFor(awsAccountId(cluster.infrastructureAccount), cluster.region),
        kube,
      };
    },
  };
}
