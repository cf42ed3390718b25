import type { StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { StateMachineKey } from '../../lambdas/runtime/asl-files';
import type { AnyTask } from '../../lambdas/tasks/define-task';

/** What ClmWorkflowStack is given: the stateful resources, the registry and sources, cross-account access, triggers. */
export interface ClmWorkflowStackProps extends StackProps {
  /** The progress table (ClmStatefulStack). */
  readonly table: ITable;
  /** The artefact bucket (ClmStatefulStack). */
  readonly artifactBucket: IBucket;
  /**
   * `CLM_REGISTRY` of every task.
   * @default - unset (synth warns; Prepare fails naming the variable)
   */
  readonly registryUri?: string;
  /**
   * `CLM_CONFIG_SOURCES`, `NAME:git:URL` entries in order.
   * @default - none (synth warns)
   */
  readonly configSources?: readonly string[];
  /**
   * Role assumed in each cluster's account.
   * @default - same-account mode (see ClusterCloudAccess)
   */
  readonly assumedRoleName?: string;
  /**
   * Cross-account mode: the cluster accounts (the registry's), where the tasks may assume `assumedRoleName`.
   * @default - none (`organizationId` is then required)
   */
  readonly clusterAccountIds?: readonly string[];
  /**
   * Cross-account mode: assume `assumedRoleName` in any account of this organisation.
   * @default - only `clusterAccountIds`
   */
  readonly organizationId?: string;
  /**
   * Cross-account mode: the ExternalId the cluster accounts' role requires.
   * @default - none sent
   */
  readonly externalId?: string;
  /**
   * Name prefix of the per-cluster API token secrets (config item `kube_token_secret`) the tasks may read.
   * @default - none readable
   */
  readonly clusterTokenSecretPrefix?: string;
  /**
   * Same-account mode: names of the stacks CLM may write.
   * @default ['nodepool-*', 'kube-*']
   */
  readonly clusterStackNamePatterns?: readonly string[];
  /**
   * Same-account mode: names the cluster templates give their resources, when not the stacks' names.
   * @default clusterStackNamePatterns
   */
  readonly clusterResourceNamePatterns?: readonly string[];
  /**
   * Same-account mode: other stacks whose resources the cluster templates may change.
   * @default []
   */
  readonly sharedStackNamePatterns?: readonly string[];
  /**
   * ARN of the Secrets Manager secret with the git, registry and cluster tokens.
   * @default - no secret
   */
  readonly tokenSecretArn?: string;
  /**
   * Minutes between scheduled dispatcher passes.
   * @default 5
   */
  readonly dispatchIntervalMinutes?: number;
  /**
   * Secrets Manager secret with the GitHub webhook secret.
   * @default - a secret with a random value is created
   */
  readonly webhookSecretArn?: string;
  /**
   * Secrets Manager secret with the forge credentials of commit statuses (GitHub, GitLab, Bitbucket Cloud) and pull
   * request plans (GitHub).
   * @default - nothing is reported
   */
  readonly forgeSecretArn?: string;
  /**
   * GitHub's API URL.
   * @default https://api.github.com
   */
  readonly githubApiUrl?: string;
  /**
   * An e-mail address subscribed to the alarm topic.
   * @default - none
   */
  readonly alarmEmail?: string;
  /**
   * The dispatcher's settings (docs/fleet.md), passed as JSON.
   * @default {} (the defaults)
   */
  readonly fleetSettings?: Readonly<Record<string, unknown>>;
  /**
   * Concurrent executions reserved for each function of the node roll (RollNodePool): rolls then neither starve the
   * account's other functions nor wait for them (docs/scale.md sizes it: ~0.1 per cluster rolling at once).
   * @default - unreserved
   */
  readonly rollReservedConcurrency?: number;
  /**
   * The tasks to deploy, one function each.
   * @default TASK_CATALOGUE (lambdas/tasks/catalogue.ts)
   */
  readonly tasks?: readonly AnyTask[];
  /**
   * ASL texts that replace the committed files (tests).
   * @default - statemachines/*.asl.json
   */
  readonly definitions?: Partial<Readonly<Record<StateMachineKey, string>>>;
}
