import type { AnyTask, PortAccess, PortName } from '../lambdas/tasks/define-task';
import type { CloudAccess } from './constructs/cloud-access';

/**
 * What a task may touch, derived from the ports it declares (lambdas/tasks/<task>.ts): one row per port and
 * access, never a table per task, so a new task needs no entry here.
 */
const CLOUD_ACCESS: { readonly [K in PortName]: { readonly [A in PortAccess]: readonly CloudAccess[] } } = {
  stacks: { read: ['stacks-read'], write: ['stacks-write'] },
  pools: { read: ['lookups'], write: ['nodes-write'] },
  lookups: { read: ['lookups'], write: ['lookups'] },
  values: { read: ['lookups'], write: ['lookups'] },
  templates: { read: ['lookups'], write: ['lookups'] },
  secrets: { read: ['decrypt'], write: ['decrypt'] },
  kube: { read: [], write: [] },
  registry: { read: [], write: [] },
  sources: { read: [], write: [] },
  progress: { read: [], write: [] },
  artifacts: { read: [], write: [] },
  clock: { read: [], write: [] },
};

/** Ports that authenticate with a token of the tokens secret (registry, git, the clusters' API servers). */
const TOKEN_PORTS: ReadonlySet<PortName> = new Set<PortName>(['registry', 'sources', 'kube']);

export interface TaskGrants {
  /** Reads and writes the progress table (lease, runs, status). */
  readonly table: boolean;
  /** Rendered artefacts in S3: renderers write, everyone else reads. */
  readonly artifacts?: PortAccess;
  /** Reads the tokens secret. */
  readonly tokens: boolean;
  readonly cloud: readonly CloudAccess[];
}

export function taskGrants(task: AnyTask): TaskGrants {
  const ports = Object.entries(task.ports) as [PortName, PortAccess][];
  const cloud = new Set(ports.flatMap(([port, access]) => CLOUD_ACCESS[port][access]));
  return {
    table: task.ports.progress !== undefined,
    ...(task.ports.artifacts ? { artifacts: task.ports.artifacts } : {}),
    tokens: ports.some(([port]) => TOKEN_PORTS.has(port)),
    cloud: [...cloud].sort(),
  };
}
