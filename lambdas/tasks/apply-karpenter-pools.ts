import { EC2NODECLASS_API_VERSION, NODEPOOL_API_VERSION } from '../core/karpenter/karpenter-objects';
import { controllerRef, controllerTimeoutMs } from '../core/karpenter/controller-items';
import type { Cluster, ConfigItems } from '../core/model/cluster';
import { clusterRef } from '../core/model/cluster-ref';
import { operationWaitSeconds } from '../core/schedule/operation-wait';
import { StepOutput } from '../contracts/cluster-update';
import type { KubeCluster, KubeObject } from '../ports/kube-cluster';
import { KubeApiError } from '../shared/errors';
import { FIELD_MANAGER } from './apply-manifests';
import { defineTask, type PortsFor } from './define-task';
import { KarpenterPoolBackend } from './karpenter/karpenter-pool-backend';
import { openStep } from './step/open-step';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { assertNotHeld } from './step/hold-gate';

const PORTS = {
  kube: 'write',
  pools: 'read',
  registry: 'read',
  progress: 'write',
  artifacts: 'read',
  clock: 'read',
} as const;
type KarpenterPorts = PortsFor<typeof PORTS>;

/** Progress keys in the run record's `manifestPhases` (ms since the epoch). */
export const KARPENTER_WAIT = 'karpenter-pools:waiting';
export const KARPENTER_APPLIED = 'karpenter-pools:applied';
export const KARPENTER_CHANGED = 'karpenter-pools:changed';

/** A controller Deployment usually takes this long to start after the manifests are applied. */
const CONTROLLER_START_MS = 60_000;
/** After a NodePool or EC2NodeClass changed, Karpenter's hash controller needs a moment before drift shows. */
export const KARPENTER_SETTLE_SECONDS = 30;

/**
 * CLM §6.2 step 21, after the manifests (the Karpenter controller is one of them): wait — bounded by
 * `karpenter_controller_timeout`, one Wait state per check — until the API server serves `karpenter.sh/v1` NodePool and
 * `karpenter.k8s.aws/v1` EC2NodeClass (or the versions the provisioners objects use) and the controller Deployment (item `karpenter_controller`, default
 * `kube-system/karpenter`) has all its replicas ready; then apply every Karpenter pool's provisioners.yaml objects
 * (server-side apply, our field manager, as the manifests); then, once Karpenter had time to hash the changed objects,
 * answer DONE with the pools that have drifted nodes or an unfinished roll (RollKarpenterPools). Reentrant: what is
 * done is in the run record (`manifestPhases`), so a resumed execution applies nothing twice.
 */
export async function applyKarpenterPools(
  ref: RunRef,
  ports: KarpenterPorts,
  rollable: readonly string[] = [],
): Promise<StepOutput> {
  const { run, cluster, resources, main, now } = await openStep(ports, ref, { artifacts: ['resources', 'main'] });
  await assertNotHeld(ports, cluster, 'ApplyKarpenterPools');
  const cp = ports.forCluster(cluster);
  const pools = resources.karpenterPools ?? [];
  const phases = run.manifestPhases;
  if (phases[KARPENTER_APPLIED] === undefined) {
    const applied = await waitThenApply(ports, ref, { cluster, items: main.configItems, pools, now, phases }, rollable);
    if (applied) return applied;
  }
  const changedAt = phases[KARPENTER_CHANGED];
  if (changedAt !== undefined && rollable.length && now - changedAt < KARPENTER_SETTLE_SECONDS * 1000)
    return {
      status: 'IN_PROGRESS',
      waitSeconds: Math.max(1, Math.ceil((changedAt + KARPENTER_SETTLE_SECONDS * 1000 - now) / 1000)),
      message: 'Letting Karpenter hash the changed NodePools and EC2NodeClasses',
    };
  const backend = new KarpenterPoolBackend(cp.kube, cp.pools);
  const rollPools: string[] = [];
  // One listing of the nodes for every pool's view.
  const nodes = rollable.length ? await cp.kube.listNodes() : [];
  for (const name of rollable) {
    const unfinished = run.pools[name] !== undefined && run.pools[name]!.status !== 'done';
    const view = unfinished ? undefined : await backend.view(name, nodes, clusterRef(cluster));
    if (unfinished || view?.state.instances.some((i) => i.outdated && i.lifecycleState !== 'Terminating'))
      rollPools.push(name);
  }
  return {
    status: 'DONE',
    waitSeconds: 1,
    rollPools,
    rollPoolCount: rollPools.length,
    message: `Karpenter pools applied (${pools.map((p) => p.name).join(', ')}); ${rollPools.length ? `to roll: ${rollPools.join(', ')}` : 'no drifted nodes'}`,
  };
}

interface ApplyInput {
  readonly cluster: Cluster;
  readonly items: ConfigItems;
  readonly pools: readonly { readonly name: string; readonly provisioners: readonly KubeObject[] }[];
  readonly now: number;
  readonly phases: Readonly<Record<string, number>>;
}

/**
 * Wait for the controller (bounded), then apply every pool's objects once. A StepOutput while the step must be polled
 * again (waiting, or letting Karpenter hash the changes), undefined when it may go on to the roll decision.
 */
async function waitThenApply(
  ports: KarpenterPorts,
  ref: RunRef,
  { cluster, items, pools, now, phases }: ApplyInput,
  rollable: readonly string[],
): Promise<StepOutput | undefined> {
  const cp = ports.forCluster(cluster);
  const objects = pools.flatMap((p) => p.provisioners);
  if (objects.length) {
    const waiting = await controllerNotReady(cp.kube, items, cluster.id, objects);
    if (waiting) {
      const since = phases[KARPENTER_WAIT] ?? now;
      if (phases[KARPENTER_WAIT] === undefined)
        await updateRun(ports, ref, (r) => ({
          ...r,
          manifestPhases: { ...r.manifestPhases, [KARPENTER_WAIT]: now },
        }));
      const timeout = controllerTimeoutMs(items, cluster.id);
      if (now - since > timeout)
        throw new KubeApiError(
          `the Karpenter controller was not ready ${Math.round(timeout / 60_000)} minutes after the manifests were applied: ${waiting}; the provisioners of ${pools.map((p) => p.name).join(', ')} were not applied (raise karpenter_controller_timeout or fix the controller)`,
          { location: { clusterId: cluster.id, field: 'config_items.karpenter_controller' } },
        );
      return {
        status: 'IN_PROGRESS',
        waitSeconds: operationWaitSeconds(since, CONTROLLER_START_MS, now),
        message: `Waiting for the Karpenter controller (${Math.round((now - since) / 1000)} s): ${waiting}`,
      };
    }
  }
  const counts = { created: 0, configured: 0, unchanged: 0 };
  if (objects.length)
    for (const result of await cp.kube.apply(objects, { fieldManager: FIELD_MANAGER })) counts[result.action]++;
  const changed = counts.created + counts.configured > 0;
  await updateRun(ports, ref, (r) => ({
    ...r,
    phase: 'ApplyKarpenterPools',
    manifestPhases: {
      ...r.manifestPhases,
      [KARPENTER_APPLIED]: now,
      ...(changed ? { [KARPENTER_CHANGED]: now } : {}),
    },
  }));
  const applied = `Applied ${objects.length} Karpenter object(s) of ${pools.length} pool(s): ${counts.created} created, ${counts.configured} configured, ${counts.unchanged} unchanged`;
  if (changed && rollable.length)
    return {
      status: 'IN_PROGRESS',
      waitSeconds: KARPENTER_SETTLE_SECONDS,
      message: `${applied}; letting Karpenter hash the changes (${KARPENTER_SETTLE_SECONDS} s)`,
    };
  return undefined;
}

/**
 * What the controller still lacks, or undefined when it is ready: the API serves NodePool and EC2NodeClass at the
 * versions the provisioners use (karpenter.sh/v1 and karpenter.k8s.aws/v1 when they use none of those kinds; older
 * configs such as KoA's of 2024 use v1beta1), and the controller Deployment has all its replicas ready.
 */
async function controllerNotReady(
  kube: KubeCluster,
  items: ConfigItems,
  clusterId: string,
  objects: readonly KubeObject[],
): Promise<string | undefined> {
  const missing: string[] = [];
  const wanted = new Map([
    ['NodePool', NODEPOOL_API_VERSION],
    ['EC2NodeClass', EC2NODECLASS_API_VERSION],
  ]);
  for (const o of objects) if (wanted.has(o.kind)) wanted.set(o.kind, o.apiVersion);
  for (const [kind, apiVersion] of wanted)
    if (!(await kube.servesKind(kind, apiVersion))) missing.push(`${apiVersion} ${kind} is not served`);
  const { namespace, name } = controllerRef(items, clusterId);
  const readiness = await kube.workloadReadiness({ kind: 'Deployment', namespace, name });
  if (!readiness) missing.push(`Deployment ${namespace}/${name} does not exist`);
  else if (readiness.desired < 1 || readiness.ready < readiness.desired)
    missing.push(`Deployment ${namespace}/${name} has ${readiness.ready}/${readiness.desired} replicas ready`);
  return missing.length ? missing.join('; ') : undefined;
}

export const task = defineTask({
  name: 'ApplyKarpenterPools',
  description:
    'Waits for the Karpenter controller, then applies the Karpenter pools\u2019 NodePools and EC2NodeClasses',
  input: clusterUpdatePayload(),
  output: StepOutput,
  ports: PORTS,
  lambda: { timeoutSeconds: 120 },
  step: (payload, ports) =>
    applyKarpenterPools(runRef(payload), ports, payload.state.resources?.rollKarpenterPools ?? []),
});
