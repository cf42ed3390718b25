/**
 * What each task function may touch, in one table (plain data; infra/constructs/cloud-access.ts turns it into IAM).
 * Every task reads and writes the table (lease, run progress, status); the rest is granted only where needed.
 * `tokens` and `cloud` follow from the ports each task's handler wires (lambdas/adapters/wiring/task-ports.ts); the
 * test test/infra/task-permissions.test.ts keeps the two tables in step, both ways.
 */
import type { TaskFunctionName } from './state-machine-substitutions';

/**
 * Access to the cluster's AWS account. With `assumedRoleName` set the tasks only get `sts:AssumeRole` on that role
 * in the registry's accounts (or the organisation's), and the role (ClmClusterAccess in each cluster account) carries
 * the rights; otherwise the same statements are granted directly in this account (constructs/cluster-access-policies.ts).
 * - `stacks-read`: describe stacks and their outputs.
 * - `stacks-write`: create/update/delete stacks and change sets (through the CloudFormation service role).
 * - `lookups`: read-only EC2 lookups for templates (AMIs, AZs, subnets, instance types).
 * - `nodes-write`: roll nodes: update node-pool Auto Scaling groups, terminate instances through them; implies reading.
 * - `decrypt`: KMS Decrypt of `aws:kms:` config items, always in CLM's own account.
 */
export type CloudAccess = 'stacks-read' | 'stacks-write' | 'lookups' | 'nodes-write' | 'decrypt';

export interface TaskNeeds {
  /** Rendered artefacts in S3: renderers write, everyone else reads. */
  readonly artifacts: 'read' | 'write';
  /** Reads the token secret (git, registry, cluster API). */
  readonly tokens: boolean;
  readonly cloud: readonly CloudAccess[];
  /** @default 512 */
  readonly memorySize?: number;
  /** @default 60 */
  readonly timeoutSeconds?: number;
  readonly description: string;
}

export const TASK_NEEDS: { readonly [K in TaskFunctionName]: TaskNeeds } = {
  Prepare: {
    artifacts: 'write',
    tokens: true,
    cloud: [],
    description: 'Reads the cluster and config version, takes the lease, decides what to do',
  },
  RenderConfig: {
    artifacts: 'write',
    tokens: true,
    cloud: ['lookups', 'decrypt'],
    memorySize: 1024,
    description: 'Renders the main stack and validates deletions',
  },
  RenderClusterResources: {
    artifacts: 'write',
    tokens: false,
    cloud: ['lookups', 'decrypt'],
    memorySize: 1024,
    timeoutSeconds: 120,
    description: 'Renders node pool stacks, cf-manifests and manifests',
  },
  DeployStacks: {
    artifacts: 'read',
    tokens: false,
    cloud: ['stacks-write'],
    description: 'Creates or updates CloudFormation stacks and reports their progress',
  },
  WaitForApiServer: { artifacts: 'read', tokens: true, cloud: [], description: 'Checks that the API server answers' },
  RollNodePool: {
    artifacts: 'read',
    tokens: true,
    cloud: ['nodes-write'],
    description: 'Takes one step of a node pool roll',
  },
  ApplyManifests: {
    artifacts: 'read',
    tokens: true,
    cloud: ['stacks-write'],
    memorySize: 1024,
    timeoutSeconds: 120,
    description: 'Applies manifests and declarative deletions (CloudFormation stacks too)',
  },
  RemoveDeletedPools: {
    artifacts: 'read',
    tokens: true,
    cloud: ['stacks-write', 'nodes-write'],
    description: 'Drains and deletes removed node pools',
  },
  ScaleDownControllers: {
    artifacts: 'read',
    tokens: true,
    cloud: [],
    description: 'Scales down controllers before decommissioning',
  },
  DeleteStacks: {
    artifacts: 'read',
    tokens: false,
    cloud: ['stacks-write'],
    description: 'Deletes cluster stacks (decommission)',
  },
  Finalize: {
    artifacts: 'read',
    tokens: true,
    cloud: [],
    description: 'Writes the new version and status, releases the lease',
  },
  RecordProblem: {
    artifacts: 'read',
    tokens: true,
    cloud: [],
    description: 'Records a failure as a cluster problem, releases the lease',
  },
};
