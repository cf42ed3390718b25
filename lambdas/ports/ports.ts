import type { Cluster } from '../core/model/cluster';
import type { ArtifactStore } from './artifact-store';
import type { Clock } from './clock';
import type { ConfigSource } from './config-source';
import type { KubeCluster } from './kube-cluster';
import type { NodePoolBackend } from './node-pool-backend';
import type { ProgressStore } from './progress-store';
import type { Registry } from './registry';
import type { SecretDecrypter } from './secrets';
import type { StackDeployer } from './stack-deployer';
import type { CloudLookups, TemplateEngine } from './template-engine';
import type { ValuesProvider } from './values-provider';

/** The ports that act on one cluster's AWS account/region and its API server. */
export interface ClusterPorts {
  readonly stacks: StackDeployer;
  readonly pools: NodePoolBackend;
  readonly kube: KubeCluster;
  readonly lookups: CloudLookups;
  readonly values: ValuesProvider;
}

/** Everything a task needs, wired once per process (real AWS, or the simulated world). */
export interface Ports {
  readonly registry: Registry;
  /** In `--config-source` order; the first is the "main" source (CLM §3.1). */
  readonly sources: readonly ConfigSource[];
  readonly artifacts: ArtifactStore;
  readonly progress: ProgressStore;
  readonly clock: Clock;
  readonly templates: TemplateEngine;
  readonly secrets: SecretDecrypter;
  forCluster(cluster: Cluster): ClusterPorts;
}
