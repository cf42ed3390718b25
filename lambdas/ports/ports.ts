import type { Cluster } from '../core/model/cluster';
import type { AccountQuotas } from './account-quotas';
import type { ArtifactStore } from './artifact-store';
import type { Clock } from './clock';
import type { ClusterLeftovers } from './cluster-leftovers';
import type { ConfigSource } from './config-source';
import type { EksClusters } from './eks-clusters';
import type { EventSink } from './event-sink';
import type { FleetStore } from './fleet-store';
import type { Forge } from './forge';
import type { HealthAlarms } from './health-alarms';
import type { KubeCluster } from './kube-cluster';
import type { NodeFilesStore } from './node-files';
import type { LaunchBudget } from './launch-budget';
import type { NodePoolBackend } from './node-pool-backend';
import type { ProgressStore } from './progress-store';
import type { Registry } from './registry';
import type { Rehearsals } from './rehearsals';
import type { SecretDecrypter } from './secrets';
import type { StackDeployer } from './stack-deployer';
import type { CloudLookups, TemplateEngine } from './template-engine';
import type { UpdateExecutions } from './update-executions';
import type { ValuesProvider } from './values-provider';
import type { WebhookVerifier } from './webhook-verifier';

/** The ports that act on one cluster's AWS account/region and its API server. */
export interface ClusterPorts {
  readonly stacks: StackDeployer;
  readonly pools: NodePoolBackend;
  readonly kube: KubeCluster;
  readonly lookups: CloudLookups;
  readonly values: ValuesProvider;
  /** Named CloudWatch alarms the roll's health gate reads. */
  readonly alarms: HealthAlarms;
  /** Decommission: what the cluster left outside its stacks (load balancers, security groups, volumes, interfaces). */
  readonly leftovers: ClusterLeftovers;
  /** EKS DescribeCluster in the cluster's account and region (zalando-eks: the control plane). */
  readonly eks: EksClusters;
  /** The files bundles nodes download: S3 and KMS of the cluster's account (CLM §6.4). */
  readonly nodeFiles: NodeFilesStore;
  /** The account's On-Demand vCPU quotas and their use (rehearsals compare a roll's surge with them). Reads only. */
  readonly quotas: AccountQuotas;
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
  /** What the webhook and the dispatcher keep (deliveries, pushed commits, the fleet's states, halts), and its settings. */
  readonly fleet: FleetStore;
  /** The cluster-update executions the dispatcher starts and watches. */
  readonly executions: UpdateExecutions;
  /** Where fleet events go (ClusterUpdateStarted…, WaveHalted, PushAccepted). */
  readonly events: EventSink;
  /** Checks the signature of a webhook delivery. */
  readonly webhooks: WebhookVerifier;
  /** Where commit statuses and pull request plans are reported (GitHub's API). */
  readonly forge: Forge;
  /** The launch budget the rolls of each account and region share. */
  readonly launches: LaunchBudget;
  /** Rehearses an update in a simulated twin of the live cluster (reads the live one only). */
  readonly rehearsals: Rehearsals;
  forCluster(cluster: Cluster): ClusterPorts;
}
