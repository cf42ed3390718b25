import type { Cluster } from '../core/model/cluster';
import { newRunRecord, type NodeRollRequest, type RunRecord } from '../core/model/run';
import { describeNodeRoll, nodeRollHistory, nodeRollRequest } from './renewal/node-roll-request';
import { blockedReason, isDecommission, nothingToDo, runTargetVersion } from '../core/model/update-decision';
import { learnStackDurations } from '../core/stacks/stack-durations';
import { resolveClusterConfigVersion } from '../core/version/resolve-config-version';
import { PrepareOutput } from '../contracts/cluster-update';
import type { ClusterUpdateInput } from '../contracts/cluster-update';
import type { ClusterArtifact } from '../contracts/artifacts';
import { LeaseHeldError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { describeLayerPlan } from '../core/cluster-stacks/layer-changes';
import { putJson, runArtifactKey } from './step/artifacts';
import { checkoutClusterConfig, decideStackLayers, type StackDecision } from './cluster-stacks/cluster-stack';
import { loadCluster, writeStatus } from './step/cluster-status';
import { clusterUpdatePayload } from './step/payloads';
import { LEASE_TTL_MS } from './step/run-record';
import { CONTROL_PLANE } from '../contracts/status';
import { GENERAL_ERROR_TYPE } from '../core/status/problems';
import { updateStarted } from '../core/events/update-events';
import { announce } from './events/announce';

const PORTS = {
  registry: 'write',
  sources: 'read',
  progress: 'write',
  artifacts: 'write',
  clock: 'read',
  // The Kubernetes upgrade rules read the API server's and the nodes' versions before anything is written.
  kube: 'read',
  events: 'write',
} as const;
type PreparePorts = PortsFor<typeof PORTS>;

/**
 * Decide what this execution does for one cluster, and claim it: compute the target version, skip blocked
 * or paused clusters, take the lease, create (or resume) the run record, and mark `next_version`.
 */
export async function prepare(input: ClusterUpdateInput, holder: string, ports: PreparePorts): Promise<PrepareOutput> {
  const cluster = await loadCluster(ports, input.clusterId);
  const previousVersion = cluster.status.currentVersion;
  const answer = (decision: PrepareOutput['decision'], message: string, targetVersion = ''): PrepareOutput => ({
    decision,
    targetVersion,
    previousVersion,
    holder,
    message,
    ...(cluster.provider === 'zalando-eks' ? { controlPlane: CONTROL_PLANE.EKS } : {}),
  });
  if (input.action === 'plan') {
    // A plan claims nothing: no lease, no run record, no status; a paused cluster can be planned too.
    const target = await planTarget(input, cluster, ports);
    return answer('PLAN', `Planning ${cluster.id} at ${target} (nothing is changed)`, target);
  }
  const decommission = isDecommission(input.action, cluster);
  const blocked = blockedReason(cluster, await ports.progress.getControls(cluster.id), decommission);
  if (blocked) return answer('SKIP', blocked);

  const resolved = await resolveClusterConfigVersion(cluster, ports.sources);
  const target = runTargetVersion(resolved.id, cluster, decommission);
  const existing = await ports.progress.getRun(cluster.id, target);
  const noop = nothingToDo(cluster, target, decommission, existing, input.options.applyOnly);
  const { request: nodeRoll, notes } = (await renewalOf(ports, input, cluster, existing, noop, decommission)) ?? {};
  if (noop && !nodeRoll) return answer('NOOP', await withNotes(ports, cluster.id, noop, notes), target);

  const sourceVersions = Object.fromEntries(resolved.sources.map((s) => [s.name, s.version]));
  // A pinned cluster stack: which layers change, and the Kubernetes upgrade rules, before anything is written.
  const layers = decommission
    ? undefined
    : await decideStackLayers(
        ports,
        cluster,
        await checkoutClusterConfig(cluster, ports.sources, sourceVersions, ports.artifacts),
        sourceVersions,
        input.options.applyOnly,
      );
  try {
    await ports.progress.acquireLease(cluster.id, holder, LEASE_TTL_MS, ports.clock.now(), ports.clock.kind);
  } catch (error) {
    if (error instanceof LeaseHeldError) return answer('SKIP', error.message, target);
    throw error;
  }
  const pinned: ClusterArtifact = {
    cluster,
    configVersion: resolved.id,
    sourceVersions,
    ...(layers ? { stack: layers.stack, layerPlan: layers.layerPlan } : {}),
  };
  await putJson(ports.artifacts, runArtifactKey(cluster.id, target, 'cluster'), pinned);
  const claim = { cluster, target, holder, decommission, existing, applyOnly: input.options.applyOnly, nodeRoll };
  const resumed = await claimRun(ports, claim);
  if (!decommission) await writeStatus(ports, cluster, { ...cluster.status, nextVersion: target });

  const message = await announceStart(
    ports,
    { cluster, target, holder, decommission, resumed, layers, nodeRoll },
    input,
  );
  return answer(decommission ? 'DECOMMISSION' : 'UPDATE', message, target);
}

/** Say what this execution does (Prepare's message), and send UpdateStarted with it. */
async function announceStart(
  ports: PreparePorts,
  start: Pick<Claim, 'cluster' | 'target' | 'holder' | 'decommission' | 'nodeRoll'> & {
    readonly resumed: boolean;
    readonly layers: StackDecision | undefined;
  },
  input: ClusterUpdateInput,
): Promise<string> {
  const { cluster, target, holder, decommission, resumed, layers, nodeRoll } = start;
  const previousVersion = cluster.status.currentVersion;
  const verb = decommission ? 'Decommissioning' : previousVersion ? 'Updating' : 'Creating';
  const from = previousVersion && !decommission ? ` from ${previousVersion}` : '';
  const note = resumed ? ' (resuming an unfinished run)' : '';
  const stack = layers ? `; ${stackMessage(layers)}` : '';
  const message = `${verb} ${cluster.id}${from} to ${target}${note}${stack}${describeNodeRoll(nodeRoll)}`;
  const action = decommission ? 'decommission' : 'provision';
  const ref = { clusterId: cluster.id, targetVersion: target, holder };
  const fields = { action, previousVersion, resumed, trigger: input.trigger, message } as const;
  await announce(ports, ref, [updateStarted({ ...ref, now: ports.clock.now() }, fields)]);
  return message;
}

/** The node roll this run carries, if any (never in a decommission): tasks/renewal/node-roll-request.ts. */
function renewalOf(
  ports: PreparePorts,
  input: ClusterUpdateInput,
  cluster: Cluster,
  existing: RunRecord | undefined,
  noop: string | undefined,
  decommission: boolean,
) {
  if (decommission) return Promise.resolve(undefined);
  return nodeRollRequest(input, cluster, existing, noop !== undefined, ports, ports.clock.now());
}

/** Up to date, but a cap holds node repair back (or Karpenter repairs): recorded as problems, and said. */
async function withNotes(
  ports: PreparePorts,
  clusterId: string,
  message: string,
  notes: readonly string[] | undefined,
): Promise<string> {
  for (const title of notes ?? [])
    await ports.progress.recordProblem(clusterId, { type: GENERAL_ERROR_TYPE, title }, ports.clock.now());
  return notes?.length ? `${message}; ${notes.join('; ')}` : message;
}

/** The upgrade (with the versions it was checked against), the changed layers and the skipped steps. */
function stackMessage(layers: StackDecision): string {
  const upgrade = layers.upgrade ? [layers.upgrade, layers.kubernetes] : [];
  return [...upgrade, describeLayerPlan(layers.layerPlan)].join('; ');
}

interface Claim {
  readonly cluster: Cluster;
  readonly target: string;
  readonly holder: string;
  readonly decommission: boolean;
  readonly existing: RunRecord | undefined;
  readonly applyOnly: boolean;
  readonly nodeRoll: NodeRollRequest | undefined;
}

/** Start a fresh run record, or take over an unfinished one (true: resumed). */
async function claimRun(ports: PreparePorts, claim: Claim): Promise<boolean> {
  const { cluster, target, holder, existing } = claim;
  const now = ports.clock.now();
  if (existing && existing.completedAt === undefined) {
    // Resuming an --apply-only run without the flag: this run rolls the nodes, so it no longer leaves them behind.
    const rollsNow = existing.applyOnly === true && !claim.applyOnly;
    const nodeRoll = claim.nodeRoll && existing.nodeRoll !== claim.nodeRoll ? { nodeRoll: claim.nodeRoll } : {};
    if (existing.holder !== holder || rollsNow || 'nodeRoll' in nodeRoll)
      await ports.progress.putRun({
        ...existing,
        holder,
        updatedAt: now,
        ...(rollsNow ? { applyOnly: false } : {}),
        ...nodeRoll,
      });
    return true;
  }
  const previousVersion = cluster.status.currentVersion;
  const action = claim.decommission ? 'decommission' : 'provision';
  const fresh = {
    ...newRunRecord({ clusterId: cluster.id, targetVersion: target, action, holder, previousVersion }, now),
    ...(await learnedDurations(ports, cluster.id, previousVersion)),
    ...(claim.applyOnly && !claim.decommission ? { applyOnly: true } : {}),
    ...(claim.nodeRoll ? { nodeRoll: claim.nodeRoll } : {}),
    ...nodeRollHistory(existing),
  };
  await ports.progress.putRun(existing ? { ...fresh, revision: existing.revision } : fresh);
  return false;
}

/**
 * Boot times and stack operation durations the previous run learned (and those it inherited), so this run need not
 * learn them again: its waits start at what the cluster's nodes and stacks really take.
 */
async function learnedDurations(
  ports: PreparePorts,
  clusterId: string,
  previousVersion: string,
): Promise<Pick<RunRecord, 'learnedBootMs' | 'learnedStackMs'>> {
  if (!previousVersion) return {};
  const previous = await ports.progress.getRun(clusterId, previousVersion);
  if (!previous) return {};
  const learned: Record<string, number> = { ...(previous.learnedBootMs ?? {}) };
  for (const [pool, progress] of Object.entries(previous.pools)) {
    if (progress.bootEstimateMs !== undefined) learned[pool] = progress.bootEstimateMs;
  }
  const stacks = learnStackDurations(previous);
  return {
    ...(Object.keys(learned).length ? { learnedBootMs: learned } : {}),
    ...(Object.keys(stacks).length ? { learnedStackMs: stacks } : {}),
  };
}

/** What a plan plans: the version its channels resolve to, or a pull request's head (`input.pullRequest`). */
async function planTarget(input: ClusterUpdateInput, cluster: Cluster, ports: PreparePorts): Promise<string> {
  const pinned = input.pullRequest?.configVersion;
  return runTargetVersion(pinned ?? (await resolveClusterConfigVersion(cluster, ports.sources)).id, cluster, false);
}

export const task = defineTask({
  name: 'Prepare',
  description: 'Reads the cluster and config version, takes the lease, decides what to do',
  input: clusterUpdatePayload(),
  output: PrepareOutput,
  ports: PORTS,
  step: (payload, ports) => prepare(payload.state, payload.executionId, ports),
});
