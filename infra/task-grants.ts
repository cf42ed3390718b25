import type { AnyTask, PortAccess, PortName } from '../lambdas/tasks/define-task';
import type { CloudAccess } from './constructs/cloud-access';

/** What a port needs of CLM's own resources (the stack grants these; cluster accounts are CloudAccess). */
type OwnAccess =
  | 'table'
  | 'artifacts-read'
  | 'artifacts-write'
  | 'tokens'
  | 'executions-read'
  | 'executions-write'
  | 'events'
  | 'webhook-secret'
  | 'forge-secret';

interface PortGrant {
  readonly own?: readonly OwnAccess[];
  readonly cloud?: readonly CloudAccess[];
}

const same = (grant: PortGrant): { readonly read: PortGrant; readonly write: PortGrant } => ({
  read: grant,
  write: grant,
});

/**
 * What a task may touch, derived from the ports it declares (lambdas/tasks/<task>.ts): one row per port and
 * access, never a table per task, so a new task needs no entry here.
 */
const PORT_GRANTS: { readonly [K in PortName]: { readonly [A in PortAccess]: PortGrant } } = {
  stacks: { read: { cloud: ['stacks-read'] }, write: { cloud: ['stacks-write'] } },
  pools: { read: { cloud: ['lookups'] }, write: { cloud: ['nodes-write'] } },
  lookups: same({ cloud: ['lookups'] }),
  // cloudwatch:DescribeAlarms is one of the describe-only actions of `lookups`.
  alarms: same({ cloud: ['lookups'] }),
  // Only decommission's cleanup uses it; listing alone is of no use without deleting.
  leftovers: same({ cloud: ['leftovers-write'] }),
  // eks:DescribeCluster is one of the describe-only actions of `lookups`.
  eks: same({ cloud: ['lookups'] }),
  // servicequotas:GetServiceQuota on the On-Demand vCPU quotas, and EC2 DescribeInstances: the tasks that rehearse.
  quotas: same({ cloud: ['quotas-read'] }),
  values: same({ cloud: ['lookups'] }),
  // Files bundles: CreateBucket/PutObject on CLM's bucket, KMS Encrypt with the cluster's keys (cloud-access.ts).
  nodeFiles: { read: { cloud: ['lookups'] }, write: { cloud: ['node-files-write'] } },
  templates: same({ cloud: ['lookups'] }),
  secrets: same({ cloud: ['decrypt'] }),
  // The registry, git and the API servers authenticate with a token of the tokens secret.
  kube: same({ own: ['tokens'] }),
  registry: same({ own: ['tokens'] }),
  sources: same({ own: ['tokens'] }),
  progress: same({ own: ['table'] }),
  artifacts: { read: { own: ['artifacts-read'] }, write: { own: ['artifacts-read', 'artifacts-write'] } },
  clock: same({}),
  // The fleet's deliveries, commits and states live in the progress table.
  fleet: same({ own: ['table'] }),
  executions: { read: { own: ['executions-read'] }, write: { own: ['executions-read', 'executions-write'] } },
  events: { read: {}, write: { own: ['events'] } },
  webhooks: same({ own: ['webhook-secret'] }),
  // GitHub credentials (a token or a GitHub App's key) in their own secret, when configured.
  forge: same({ own: ['forge-secret'] }),
  // The launch budget's items live in the progress table.
  launches: same({ own: ['table'] }),
  // The twin is simulated in the function itself: what a rehearsal reads of the live cluster goes through the task's
  // other ports (kube, pools, stacks, sources, artifacts, secrets) and their grants.
  rehearsals: same({}),
};

export interface TaskGrants {
  /** Reads and writes the progress table (lease, runs, status, the fleet's items). */
  readonly table: boolean;
  /** Rendered artefacts in S3: renderers write, everyone else reads. */
  readonly artifacts?: PortAccess;
  /** Objects of the artefact bucket a reader may also write (the task's `publishes`: the fleet page). */
  readonly artifactKeys?: readonly string[];
  /** Reads the tokens secret. */
  readonly tokens: boolean;
  readonly cloud: readonly CloudAccess[];
  /** Cluster-update executions: `read` describes and lists them, `write` also starts and redrives. */
  readonly executions?: PortAccess;
  /** Puts events on the default bus. */
  readonly events?: true;
  /** Reads the webhook secret. */
  readonly webhookSecret?: true;
  /** Reads the forge credentials (when configured). */
  readonly forgeSecret?: true;
}

export function taskGrants(task: AnyTask): TaskGrants {
  const grants = (Object.entries(task.ports) as [PortName, PortAccess][]).map(
    ([port, access]) => PORT_GRANTS[port][access],
  );
  const own = new Set(grants.flatMap((g) => g.own ?? []));
  const cloud = new Set(grants.flatMap((g) => g.cloud ?? []));
  const artifacts = own.has('artifacts-write') ? 'write' : own.has('artifacts-read') ? 'read' : undefined;
  const executions = own.has('executions-write') ? 'write' : own.has('executions-read') ? 'read' : undefined;
  return {
    table: own.has('table'),
    ...(artifacts ? { artifacts } : {}),
    ...(task.publishes?.length && artifacts !== 'write' ? { artifactKeys: [...task.publishes] } : {}),
    tokens: own.has('tokens'),
    cloud: [...cloud].sort(),
    ...(executions ? { executions } : {}),
    ...(own.has('events') ? { events: true } : {}),
    ...(own.has('webhook-secret') ? { webhookSecret: true } : {}),
    ...(own.has('forge-secret') ? { forgeSecret: true } : {}),
  };
}
