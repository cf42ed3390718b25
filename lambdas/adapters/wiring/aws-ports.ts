import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { Ports } from '../../ports/ports';
import type { ProgressStore } from '../../ports/progress-store';
import type { Registry } from '../../ports/registry';
import type { ConfigSource } from '../../ports/config-source';
import type { ArtifactStore } from '../../ports/artifact-store';
import { ConfigError } from '../../shared/errors';
import { awsClusterPortsFactory, clmBucketName } from '../aws/aws-cluster-ports';
import { KmsSecretDecrypter } from '../aws/kms-secret-decrypter';
import { ClientNodeKubeCluster } from '../kube/client-node-kube-cluster';
import { HandlebarsTemplateEngine } from '../templating/handlebars-template-engine';
import { createAwsClients } from '../aws/aws-clients';

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
 * not use this: each wires only what its task needs (lambda-ports.ts), to keep its bundle and cold start small.
 */
export function createAwsPorts(options: AwsPortsOptions): Ports {
  const clusterPorts = awsClusterPortsFactory({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.assumedRole ? { assumedRole: options.assumedRole } : {}),
    templateBucket: clmBucketName,
  });
  const kubes = new Map<string, KubeCluster>();
  const kubeFor = options.kubeFor ?? ((cluster: Cluster) => new ClientNodeKubeCluster(
    options.kubeconfig ? { kubeconfigPath: options.kubeconfig } : { server: cluster.apiServerUrl, ...(options.token ? { token: options.token } : {}) },
  ));
  const engineLookups = { amiId: (name: string, owner: string) => lookupsFor().amiId(name, owner), instanceType: (t: string) => lookupsFor().instanceType(t) };
  let lastCluster: Cluster | undefined;
  const lookupsFor = () => {
    if (!lastCluster) throw new ConfigError('amiID/instanceType lookups need a cluster context');
    return clusterPorts(lastCluster).lookups;
  };
  // KMS for aws:kms: config items uses CLM's own identity and region, not the assumed role (CLM §10.5).
  const ownClients = createAwsClients({ region: options.region, ...(options.endpoint ? { endpoint: options.endpoint } : {}) });
  return {
    registry: options.registry,
    sources: options.sources,
    progress: options.progress,
    artifacts: options.artifacts,
    clock: { now: () => Date.now() },
    templates: new HandlebarsTemplateEngine({ lookups: engineLookups }),
    secrets: new KmsSecretDecrypter(ownClients.kms),
    forCluster(cluster) {
      lastCluster = cluster;
      let kube = kubes.get(cluster.id);
      if (!kube) {
        kube = kubeFor(cluster);
        kubes.set(cluster.id, kube);
      }
      return { ...clusterPorts(cluster), kube };
    },
  };
}
