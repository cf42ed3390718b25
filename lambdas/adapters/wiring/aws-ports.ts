import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { Cluster } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { Ports } from '../../ports/ports';
import type { ProgressStore } from '../../ports/progress-store';
import type { Registry } from '../../ports/registry';
import type { ConfigSource } from '../../ports/config-source';
import type { ArtifactStore } from '../../ports/artifact-store';
import { ConfigError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { awsClusterPortsFactory, clmBucketName } from '../aws/aws-cluster-ports';
import { KmsSecretDecrypter } from '../aws/kms-secret-decrypter';
import { S3ArtifactStore } from '../aws/s3-artifact-store';
import { configSourcesFromFlags } from '../config-source/create-config-sources';
import { ClientNodeKubeCluster } from '../kube/client-node-kube-cluster';
import { DynamoDbProgressStore } from '../progress/dynamodb-progress-store';
import { createRegistry } from '../registry/create-registry';
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

/** Ports against real AWS accounts and API servers (the Lambda tasks and `clm provision` without --simulate). */
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

/** The Lambda tasks' ports, from the environment the CDK app sets (infra/task-environment.ts). */
export function awsPortsFromEnvironment(env: NodeJS.ProcessEnv, _logger: Logger): Ports {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new ConfigError(`environment variable ${name} is not set (it is set by the CDK app)`);
    return value;
  };
  const region = env.AWS_REGION ?? 'us-east-1';
  const endpoint = env.CLM_AWS_ENDPOINT ?? env.AWS_ENDPOINT_URL;
  const dynamo = new DynamoDBClient({ region, ...(endpoint ? { endpoint } : {}) });
  const s3 = new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  return createAwsPorts({
    registry: createRegistry(required('CLM_REGISTRY'), { cwd: '/tmp', ...(env.CLM_REGISTRY_TOKEN ? { token: env.CLM_REGISTRY_TOKEN } : {}) }),
    sources: configSourcesFromFlags({ configSources: required('CLM_CONFIG_SOURCES').split(/[\s,]+/).filter(Boolean) }, { cwd: '/tmp', workdir: '/tmp/clm-workdir', ...(env.CLM_GIT_TOKEN ? { gitToken: env.CLM_GIT_TOKEN } : {}) }),
    progress: new DynamoDbProgressStore(dynamo, required('CLM_TABLE_NAME')),
    artifacts: new S3ArtifactStore(s3, { bucket: required('CLM_ARTIFACT_BUCKET'), region, ...(endpoint ? { endpoint } : {}) }),
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(env.CLM_ASSUMED_ROLE ? { assumedRole: env.CLM_ASSUMED_ROLE } : {}),
    ...(env.CLM_CLUSTER_TOKEN ? { token: env.CLM_CLUSTER_TOKEN } : {}),
  });
}
