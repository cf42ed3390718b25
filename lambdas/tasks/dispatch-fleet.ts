import { DispatchReport } from '../contracts/dispatch-report';
import { PassRequest } from '../contracts/triggers';
import { clustersFollowing } from '../core/webhook/push-match';
import { defineTask } from './define-task';
import { PASS_PORTS, passMetrics, runFleetPass, type PassOptions, type PassPorts } from './fleet/fleet-pass';

/**
 * The dispatcher: one pass over the fleet (lambdas/tasks/fleet/fleet-pass.ts; the decisions are in
 * lambdas/core/dispatch/). What asked for it decides which clusters may start:
 * - `schedule` (every N minutes) and `cli`: the whole fleet, recording the registry's cluster hashes (the poll of
 *   registries without a change stream); `changesOnly` starts only the clusters the registry changed;
 * - `webhook` (a PushAccepted event): the clusters that follow the pushed ref;
 * - `execution` (a cluster-update execution ended): the whole fleet, so the next wave starts at once.
 * Waves and the concurrency cap are always judged on the whole fleet.
 */
export async function dispatchFleet(request: PassRequest, ports: PassPorts): Promise<DispatchReport> {
  return (await runFleetPass(ports, passOptions(request, ports))).report;
}

function passOptions(request: PassRequest, ports: PassPorts): PassOptions {
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
  ports: PASS_PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 300 },
  triggers: [{ kind: 'schedule' }, { kind: 'execution-events' }, { kind: 'push-events' }],
  metrics: passMetrics,
  step: dispatchFleet,
});
