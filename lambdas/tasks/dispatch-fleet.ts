import { DispatchReport } from '../contracts/dispatch-report';
import { PassRequest } from '../contracts/triggers';
import { clustersFollowing } from '../core/webhook/push-match';
import { defineTask } from './define-task';
import {
  PASS_PORTS,
  passMetrics,
  runFleetPass,
  type PassOptions,
  type PassPorts,
  type PassResult,
} from './fleet/fleet-pass';
import { publishFleetPage } from './fleet/fleet-page';
import { FLEET_PAGE_KEY } from '../core/fleet-page/fleet-page-object';
import { checkNodes as checkNodesOf } from './fleet/node-checks';
import { DRIFT_PORTS, runDriftPass, type DriftPorts } from './fleet/drift-pass';

/**
 * The dispatcher: one pass over the fleet (lambdas/tasks/fleet/fleet-pass.ts; the decisions are in
 * lambdas/core/dispatch/). What asked for it decides which clusters may start:
 * - `schedule` (every N minutes) and `cli`: the whole fleet, recording the registry's cluster hashes (the poll of
 *   registries without a change stream); `changesOnly` starts only the clusters the registry changed;
 * - `webhook` (a PushAccepted event): the clusters that follow the pushed ref;
 * - `execution` (a cluster-update execution ended): the whole fleet, so the next wave starts at once.
 * Scheduled and `cli` passes then check the manifest drift (fleet/drift-pass.ts), staggered on the schedule.
 * Waves and the concurrency cap are always judged on the whole fleet.
 */
export async function dispatchFleet(request: PassRequest, ports: DispatchPorts): Promise<DispatchReport> {
  const options = passOptions(request, ports);
  // The scheduled pass (and `clm dispatch`) also looks at the nodes of clusters asking for repair or a maximum age,
  // and at the manifests of clusters for drift.
  const looks = request.trigger === 'schedule' || request.trigger === 'cli';
  const checkNodes: PassOptions['checkNodes'] = (candidates, now) =>
    checkNodesOf(ports, candidates, request.trigger, now);
  const { report, clusters, plan, targets } = await runFleetPass(ports, looks ? { ...options, checkNodes } : options);
  const pass =
    request.trigger === 'schedule' || request.trigger === 'cli'
      ? await driftPass(request, ports, { report, clusters, plan })
      : report;
  // Every pass leaves the fleet page as it left the fleet; a failed write keeps the last page and the pass stands.
  const fleetPage = await publishFleetPage(ports, clusters, targets).then(
    (written) => ({ written }),
    (error: Error) => ({ failed: error.message }),
  );
  return { ...pass, fleetPage };
}

/** The drift check of a scheduled or `clm dispatch` pass (fleet/drift-pass.ts), after its starts. */
async function driftPass(
  request: PassRequest & { trigger: 'schedule' | 'cli' },
  ports: DispatchPorts,
  { report, clusters, plan }: Omit<PassResult, 'targets'>,
): Promise<DispatchReport> {
  // A cluster whose update starts now gets its manifests applied anyway; `clm dispatch CLUSTER…` checks only those.
  const starting = new Set(plan.starts.map((s) => s.clusterId));
  const only = request.trigger === 'cli' && request.clusters?.length ? new Set(request.clusters) : undefined;
  const due = clusters.filter((c) => !starting.has(c.id) && (!only || only.has(c.id)));
  const periodMinutes = (request.trigger === 'schedule' ? request.periodMinutes : undefined) ?? 5;
  const { summary, events } = await runDriftPass(ports, due, {
    trigger: request.trigger,
    periodMs: periodMinutes * 60_000,
  });
  await ports.events.publish(events);
  const drifted = summary.drifted.map(({ clusterId, mode, repaired, objects, message }) => ({
    clusterId,
    mode,
    repaired,
    objects: objects.length,
    message,
  }));
  return { ...report, drift: { checked: summary.checked, clusters: drifted } };
}

const DISPATCH_PORTS = { ...PASS_PORTS, ...DRIFT_PORTS } as const;
type DispatchPorts = PassPorts & DriftPorts;

function passOptions(request: PassRequest, ports: DispatchPorts): PassOptions {
  switch (request.trigger) {
    case 'webhook': {
      const { repository, ref } = request.push;
      return {
        trigger: 'webhook',
        scope: (clusters) => new Set(clustersFollowing(repository, ref, ports.sources, clusters).clusters),
      };
    }
    case 'execution':
      return { trigger: 'execution' };
    case 'cli': {
      const only = request.clusters?.length ? new Set(request.clusters) : undefined;
      return {
        trigger: 'cli',
        poll: request.changesOnly ? 'changes' : 'record',
        ...(only ? { scope: () => only } : {}),
      };
    }
    case 'schedule':
      // The whole fleet: also the refs a lost webhook did not announce (heads listed, one request per git source).
      return { trigger: 'schedule', poll: request.changesOnly ? 'changes' : 'record', heads: !request.changesOnly };
  }
}

export const task = defineTask({
  name: 'DispatchFleet',
  description: 'One dispatcher pass: decides which clusters get a cluster-update execution now',
  input: PassRequest,
  output: DispatchReport,
  ports: DISPATCH_PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 300 },
  triggers: [{ kind: 'schedule' }, { kind: 'execution-events' }, { kind: 'push-events' }],
  metrics: passMetrics,
  // The fleet page (fleet/fleet-page.ts): its artefacts port reads, and writes only this object.
  publishes: [FLEET_PAGE_KEY],
  step: dispatchFleet,
});
