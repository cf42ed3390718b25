import type { Cluster } from '../../core/model/cluster';
import { awsAccountId } from '../../core/model/cluster';
import type { KubeCluster } from '../../ports/kube-cluster';
import type { Ports } from '../../ports/ports';
import type { ProgressStore } from '../../ports/progress-store';
import type { Registry } from '../../ports/registry';
import type { ConfigSource } from '../../ports/config-source';
import type { ArtifactStore } from '../../ports/artifact-store';
import { systemClock } from '../../ports/clock';
import { FULL_AWS_KIT } from '../../adapters/aws/full-aws-kit';
import { cloudFactories } from '../cloud/cloud-factories';
import { kubeFactory } from '../cloud/kube-factory';
import { kubeFor as kubeForCluster } from '../../adapters/kube/kube-for';
import { templatesFactory } from '../cloud/templates-factory';
import type { FleetStore } from '../../ports/fleet-store';
import type { LaunchBudget } from '../../ports/launch-budget';
import { lazyRehearsals } from '../rehearsal/lazy-rehearsals';
import { fleetStandIns, type FleetServices } from './fleet-services';
import { secretsManagerReader } from '../lambda/secrets-manager-reader';

export interface AwsPortsOptions {
  readonly registry: Registry;
  readonly sources: readonly ConfigSource[];
  readonly progress: ProgressStore;
  readonly artifacts: ArtifactStore;
  readonly region: string;
  readonly endpoint?: string;
  readonly assumedRole?: string;
  /** What the cluster accounts' access role requires (`--external-id`, ClmClusterAccess). */
  readonly externalId?: string;
  /** How to reach a cluster's API server. @default kube-for.ts: each cluster's `kube_auth` (docs/credentials.md) */
  readonly kubeFor?: (cluster: Cluster) => KubeCluster;
  /** CLM's `--token`: the bearer token of token-mode clusters without their own secret. */
  readonly token?: string;
  /** `--kubeconfig`: its context is chosen per cluster (never the current context). */
  readonly kubeconfig?: string;
  /** The dispatcher's state (a file under --state for the CLI). */
  readonly fleet: FleetStore;
  /** The launch budget of each account and region (a file under --state, or the deployed table). */
  readonly launches: LaunchBudget;
  /** The execution service, event sink and webhook verifier of `clm serve`/`dispatch`. @default stand-ins */
  readonly services?: Partial<FleetServices>;
}

/**
 * Every port against real AWS accounts and API servers, for `clm provision` without --simulate. The Lambda tasks do
 * not use this: each loads only the port modules of its task (runtime/lambda/ports/). Both build the AWS side of a
 * cluster, the template lookups and the API server clients the same way (runtime/cloud/).
 */
export function createAwsPorts(options: AwsPortsOptions): Ports {
  const aws = cloudFactories(
    {
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.assumedRole ? { assumedRole: options.assumedRole } : {}),
      ...(options.externalId ? { externalId: options.externalId } : {}),
    },
    FULL_AWS_KIT,
  );
  const kubeFor =
    options.kubeFor ??
    kubeFactory(
      {
        ...(options.token ? { token: options.token } : {}),
        ...(options.kubeconfig ? { kubeconfigPath: options.kubeconfig } : {}),
        readSecret: secretsManagerReader({
          region: options.region,
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        }),
        stsFor: aws.stsFor,
      },
      kubeForCluster,
    );
  return {
    registry: options.registry,
    sources: options.sources,
    progress: options.progress,
    artifacts: options.artifacts,
    clock: systemClock,
    // amiID/instanceType ask EC2 in the account and region of the cluster each template renders for.
    templates: templatesFactory(aws.lookupsFor)(),
    secrets: aws.secrets(),
    fleet: options.fleet,
    launches: options.launches,
    rehearsals: lazyRehearsals,
    ...fleetStandIns(options.services),
    forCluster(cluster) {
      return {
        stacks: aws.stacks(cluster),
        pools: aws.pools(cluster),
        values: aws.values(cluster),
        alarms: aws.alarms(cluster),
        leftovers: aws.leftovers(cluster),
        eks: aws.eks(cluster),
        nodeFiles: aws.nodeFiles(cluster),
        quotas: aws.quotas(cluster),
        lookups: aws.lookupsFor(awsAccountId(cluster.infrastructureAccount), cluster.region),
        // Built on first use: a zalando-eks cluster has no CA to connect with before its creation hook ran.
        get kube() {
          return kubeFor(cluster);
        },
      };
    },
  };
}
