import type { ProgressStore } from './progress-store';
import type { Cluster } from '../core/model/cluster';
import type { Rehearsal } from '../core/rehearsal/rehearsal-report';
import type { Clock } from './clock';
import type { ArtifactStore } from './artifact-store';
import type { ConfigSource } from './config-source';
import type { AccountQuotas } from './account-quotas';
import type { KubeCluster } from './kube-cluster';
import type { NodePoolBackend } from './node-pool-backend';
import type { SecretDecrypter } from './secrets';
import type { StackDeployer } from './stack-deployer';

export interface RehearsalOptions {
  /** Runs with varied timings. @default 5 */
  readonly runs?: number;
  /** The first run's seed; run i uses seed + i. @default 1 */
  readonly seed?: number;
  /** How far each run's timings vary around the learned ones (± fraction). @default 0.15 */
  readonly jitter?: number;
}

/**
 * What a rehearsal reads of the live installation, and only reads: the snapshot's lists, groups and stack events,
 * the config sources, the stored artefacts of the version the cluster runs, and the secrets' decryption.
 */
export interface RehearsalReads {
  readonly clock: Clock;
  readonly sources: readonly ConfigSource[];
  readonly artifacts: ArtifactStore;
  readonly secrets: SecretDecrypter;
  /** CLM's records of the cluster's last runs (how long its PDBs blocked); without it that history is unknown. */
  readonly progress?: Pick<ProgressStore, 'getRuns'>;
  forCluster(cluster: Cluster): {
    readonly kube: KubeCluster;
    readonly pools: NodePoolBackend;
    readonly stacks: StackDeployer;
    readonly quotas: AccountQuotas;
  };
}

/**
 * Rehearses an update in a twin of the live cluster (the simulator, run in process): `clm plan --rehearse`, the
 * deployed `action: plan` with `rehearse: true`, and the approval request of `update_requires_approval`.
 */
export interface Rehearsals {
  rehearse(cluster: Cluster, live: RehearsalReads, options?: RehearsalOptions): Promise<Rehearsal>;
}
