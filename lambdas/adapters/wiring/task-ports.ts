/**
 * Which ports each Lambda task touches, in one table (plain data). A handler builds exactly these (lazy-ports.ts), so
 * its bundle and its first invocation load only what its task uses; anything else throws "not wired".
 *
 * test/adapters/wiring/task-ports.test.ts runs every task over the simulated world with only these members and checks
 * that each member listed is really touched; test/infra ties the table to the IAM grants in infra/task-permissions.ts.
 */
import type { ClusterPorts, Ports } from '../../ports/ports';
import type { TaskName } from '../../tasks/cluster-update-tasks';

/** The members of Ports shared by every cluster (built once per container). */
export type PortName = Exclude<keyof Ports, 'forCluster'>;
/** The members of `forCluster(cluster)` (built once per cluster and container). */
export type ClusterPortName = keyof ClusterPorts;

export interface PortSelection {
  readonly ports: readonly PortName[];
  readonly cluster: readonly ClusterPortName[];
}

/** Lease and run progress (DynamoDB), the run's artefacts (S3) and the time: every task but RecordProblem. */
const STORES = ['progress', 'artifacts', 'clock'] as const;

/**
 * Template lookups (`amiID`, `instanceType*`) go through `templates`, which reaches EC2 itself; no task reads
 * `forCluster(...).lookups` directly.
 */
export const TASK_PORTS = {
  Prepare: { ports: ['registry', 'sources', ...STORES], cluster: [] },
  RenderConfig: { ports: ['sources', 'templates', 'secrets', ...STORES], cluster: ['values'] },
  RenderClusterResources: { ports: ['templates', 'secrets', ...STORES], cluster: ['values'] },
  DeployStacks: { ports: [...STORES], cluster: ['stacks'] },
  WaitForApiServer: { ports: [...STORES], cluster: ['kube'] },
  ApplyManifests: { ports: [...STORES], cluster: ['stacks', 'kube'] },
  RemoveDeletedPools: { ports: [...STORES], cluster: ['stacks', 'pools', 'kube'] },
  ScaleDownControllers: { ports: [...STORES], cluster: ['kube'] },
  DeleteStacks: { ports: [...STORES], cluster: ['stacks'] },
  Finalize: { ports: ['registry', ...STORES], cluster: [] },
  RecordProblem: { ports: ['registry', 'progress', 'clock'], cluster: [] },
  RollNodePool: { ports: [...STORES], cluster: ['pools', 'kube'] },
} as const satisfies { readonly [N in TaskName]: PortSelection };

export type TaskPorts = typeof TASK_PORTS;
