import type { AccountState, ClusterInfo, FaultUse, KubeState, SimEvent, WorldState } from './world-state';

/**
 * The world split by cluster, as `--state DIR` keeps it: every cluster's own part (its registration, its Kubernetes
 * API, its stacks with the launch templates, Auto Scaling groups, instances and exports they made, and the events
 * about them) in a shard of its own, and the rest (clock, counters, scenario, the accounts' VPCs) in a common part.
 * Clusters do not share resources, so a process working on one cluster can write that cluster's shard without
 * touching another's (persistence.ts). Pure functions: `joinWorld(splitWorld(s))` equals `s`.
 */

/** The shard of resources no cluster owns (stacks deployed without a cluster, e.g. in unit tests). */
export const NO_CLUSTER = '';

export type AccountBase = Pick<AccountState, 'key' | 'accountId' | 'region' | 'vpc' | 'subnets' | 'ipCounters'>;
export type AccountPart = Pick<AccountState, 'stacks' | 'launchTemplates' | 'asgs' | 'instances' | 'exports'> &
  Required<Pick<AccountState, 'cloudResources' | 'buckets' | 'objects'>>;

export interface WorldShard {
  readonly clusterId: string;
  info?: ClusterInfo;
  kube?: KubeState;
  events: SimEvent[];
  accounts: Record<string, AccountPart>;
}

/** What every process shares; merged, not replaced, when saved (mergeCommon). */
export interface WorldCommon extends Omit<WorldState, 'format' | 'events' | 'clusters' | 'accounts' | 'kube'> {
  readonly format: 2;
  accounts: Record<string, AccountBase>;
}

export const emptyPart = (): AccountPart => ({
  stacks: {},
  launchTemplates: {},
  asgs: {},
  instances: {},
  exports: {},
  cloudResources: {},
  buckets: {},
  objects: {},
});

/** Who owns each resource of an account: stacks by the cluster that deployed them, the rest by their stack. */
function accountOwners(account: AccountState) {
  const ofStack = (name: string | undefined): string =>
    (name !== undefined && account.stacks[name]?.cluster) || NO_CLUSTER;
  const templates = new Map<string, string>();
  for (const stack of Object.values(account.stacks))
    for (const resource of Object.values(stack.resources))
      if (resource.type === 'AWS::EC2::LaunchTemplate') templates.set(resource.physicalId, stack.cluster ?? NO_CLUSTER);
  const ofInstance = (id: string): string => {
    const instance = account.instances[id];
    return instance?.cluster ?? ofStack(instance ? account.asgs[instance.asg]?.stack : undefined);
  };
  return { ofStack, ofTemplate: (id: string) => templates.get(id) ?? NO_CLUSTER, ofInstance };
}

function ownerOfEvent(state: WorldState, event: SimEvent): string {
  if ('cluster' in event) return event.cluster;
  const account = state.accounts[event.account];
  if (!account) return NO_CLUSTER;
  const owners = accountOwners(account);
  return event.type === 'stack-done' ? owners.ofStack(event.stack) : owners.ofInstance(event.instanceId);
}

export function splitWorld(state: WorldState): { common: WorldCommon; shards: Map<string, WorldShard> } {
  const shards = new Map<string, WorldShard>();
  const shard = (clusterId: string): WorldShard => {
    let found = shards.get(clusterId);
    if (!found) shards.set(clusterId, (found = { clusterId, events: [], accounts: {} }));
    return found;
  };
  const part = (clusterId: string, key: string): AccountPart => (shard(clusterId).accounts[key] ??= emptyPart());
  for (const [id, info] of Object.entries(state.clusters)) shard(id).info = info;
  for (const [id, kube] of Object.entries(state.kube)) shard(id).kube = kube;
  const accounts: Record<string, AccountBase> = {};
  for (const [key, account] of Object.entries(state.accounts)) {
    const {
      stacks,
      launchTemplates,
      asgs,
      instances,
      exports,
      cloudResources = {},
      buckets = {},
      objects = {},
      ...base
    } = account;
    accounts[key] = base;
    const owners = accountOwners(account);
    for (const [name, stack] of Object.entries(stacks)) part(owners.ofStack(name), key).stacks[name] = stack;
    for (const [id, lt] of Object.entries(launchTemplates)) part(owners.ofTemplate(id), key).launchTemplates[id] = lt;
    for (const [name, asg] of Object.entries(asgs)) part(owners.ofStack(asg.stack), key).asgs[name] = asg;
    for (const [id, instance] of Object.entries(instances)) part(owners.ofInstance(id), key).instances[id] = instance;
    for (const [name, exp] of Object.entries(exports)) part(owners.ofStack(exp.stack), key).exports[name] = exp;
    for (const [id, resource] of Object.entries(cloudResources))
      part(resource.cluster, key).cloudResources[id] = resource;
    // Buckets and objects CLM made outside the stacks: in the shard of the cluster whose ports made them.
    for (const [name, bucket] of Object.entries(buckets)) part(bucket.cluster, key).buckets[name] = bucket;
    for (const [id, object] of Object.entries(objects)) part(object.cluster, key).objects[id] = object;
  }
  for (const event of state.events) shard(ownerOfEvent(state, event)).events.push(event);
  const { format: _format, events: _events, clusters: _clusters, kube: _kube, accounts: _accounts, ...rest } = state;
  return { common: { ...rest, format: 2, accounts }, shards };
}

export function joinWorld(common: WorldCommon, shards: Iterable<WorldShard>): WorldState {
  const { format: _format, accounts: bases, ...rest } = common;
  const state: WorldState = { ...rest, format: 1, events: [], clusters: {}, accounts: {}, kube: {} };
  for (const [key, base] of Object.entries(bases)) state.accounts[key] = { ...base, ...emptyPart() };
  for (const shard of [...shards].sort((a, b) => (a.clusterId < b.clusterId ? -1 : 1))) {
    if (shard.info) state.clusters[shard.clusterId] = shard.info;
    if (shard.kube) state.kube[shard.clusterId] = shard.kube;
    state.events.push(...shard.events);
    for (const [key, part] of Object.entries(shard.accounts)) {
      const account = state.accounts[key];
      if (!account) throw new Error(`world shard ${shard.clusterId || '(no cluster)'}: unknown account ${key}`);
      for (const name of Object.keys(part) as (keyof AccountPart)[]) Object.assign((account[name] ??= {}), part[name]);
    }
  }
  state.events.sort((a, b) => a.at - b.at || a.seq - b.seq);
  return state;
}

const MAX_DETAILS = 200;

function addDelta(disk: number, mine: number, base: number): number {
  return disk + Math.max(0, mine - base);
}

function mergeFaultUses(
  disk: WorldCommon['faultUses'],
  mine: WorldCommon['faultUses'],
  base: WorldCommon['faultUses'],
) {
  const use = (list: FaultUse[], i: number): FaultUse => list[i] ?? { seen: 0, thrown: 0 };
  const apiErrors = Array.from({ length: Math.max(disk.apiErrors.length, mine.apiErrors.length) }, (_, i) => ({
    seen: addDelta(use(disk.apiErrors, i).seen, use(mine.apiErrors, i).seen, use(base.apiErrors, i).seen),
    thrown: addDelta(use(disk.apiErrors, i).thrown, use(mine.apiErrors, i).thrown, use(base.apiErrors, i).thrown),
  }));
  const stackFailures = Array.from({ length: Math.max(disk.stackFailures.length, mine.stackFailures.length) }, (_, i) =>
    addDelta(disk.stackFailures[i] ?? 0, mine.stackFailures[i] ?? 0, base.stackFailures[i] ?? 0),
  );
  return { apiErrors, stackFailures };
}

/**
 * The common part after this process's save: what is on disk plus what this process added since `base` (its
 * common part when it last loaded or saved). Counters add up, the clock and sequence take the later value, IP
 * counters the higher one per zone, and the scenario and PRNG are this process's when it changed them.
 */
export function mergeCommon(disk: WorldCommon, mine: WorldCommon, base: WorldCommon): WorldCommon {
  const apiCalls = { ...disk.apiCalls };
  for (const [name, count] of Object.entries(mine.apiCalls))
    apiCalls[name] = addDelta(apiCalls[name] ?? 0, count, base.apiCalls[name] ?? 0);
  const added =
    mine.invariants.pdbViolations +
    mine.invariants.nodesTerminatedTwice -
    base.invariants.pdbViolations -
    base.invariants.nodesTerminatedTwice;
  const accounts = { ...disk.accounts };
  for (const [key, account] of Object.entries(mine.accounts)) {
    const other = accounts[key];
    accounts[key] = other
      ? { ...other, ipCounters: other.ipCounters.map((n, i) => Math.max(n, account.ipCounters[i] ?? 0)) }
      : account;
  }
  return {
    ...disk,
    now: Math.max(disk.now, mine.now),
    seq: Math.max(disk.seq, mine.seq),
    rng: mine.rng !== base.rng ? mine.rng : disk.rng,
    scenario: JSON.stringify(mine.scenario) !== JSON.stringify(base.scenario) ? mine.scenario : disk.scenario,
    apiCalls,
    faultUses: mergeFaultUses(disk.faultUses, mine.faultUses, base.faultUses),
    ...mergedIncidents(disk.nodeIncidentsDone, mine.nodeIncidentsDone),
    invariants: {
      pdbViolations: addDelta(
        disk.invariants.pdbViolations,
        mine.invariants.pdbViolations,
        base.invariants.pdbViolations,
      ),
      nodesTerminatedTwice: addDelta(
        disk.invariants.nodesTerminatedTwice,
        mine.invariants.nodesTerminatedTwice,
        base.invariants.nodesTerminatedTwice,
      ),
      details: [...disk.invariants.details, ...(added > 0 ? mine.invariants.details.slice(-added) : [])].slice(
        -MAX_DETAILS,
      ),
    },
    accounts,
  };
}

/** The node incidents that happened, by either process (sim/kube/node-incidents.ts). */
function mergedIncidents(disk?: readonly number[], mine?: readonly number[]): Pick<WorldCommon, 'nodeIncidentsDone'> {
  const done = [...new Set([...(disk ?? []), ...(mine ?? [])])].sort((a, b) => a - b);
  return done.length ? { nodeIncidentsDone: done } : {};
}
