import * as z from '../shared/zod';
import { DispatchReport } from '../contracts/dispatch-report';
import { RegistryChanges } from '../contracts/triggers';
import { registryStreamChanges } from '../core/dispatch/registry-changes';
import { defineTask } from './define-task';
import { PASS_PORTS, passMetrics, runFleetPass, type PassPorts } from './fleet/fleet-pass';

export const RegistryChangedOutput = z.object({
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  /** Records that changed nothing hashed: our own status writes, alias or owner edits. */
  ignored: z.number().check(z.int()),
  /** Items that are not valid clusters (the pass that follows reports them on the cluster). */
  issues: z.array(z.string()),
  /** The pass over the changed clusters; absent when nothing hashed changed. */
  report: z.optional(DispatchReport),
});
export type RegistryChangedOutput = z.infer<typeof RegistryChangedOutput>;

const LISTED_CHANGES = 100;

/**
 * A batch of our DynamoDB registry's changes: a pass over exactly the clusters whose hash changed (inserted or
 * modified); removed clusters are forgotten and start nothing (CLM decommissions only on `lifecycle_status`). A
 * batch of status writes (the executions' own) changes no hash and runs no pass.
 */
export async function registryChanged(input: RegistryChanges, ports: PassPorts): Promise<RegistryChangedOutput> {
  const changes = registryStreamChanges(input.changes);
  const summary = {
    ...changes,
    changed: [...changes.changed],
    removed: [...changes.removed],
    issues: [...changes.issues],
  };
  if (!changes.changed.length) {
    if (changes.removed.length) await ports.fleet.forgetClusters(changes.removed);
    return summary;
  }
  const inserted = new Set(input.changes.filter((c) => c.eventName === 'INSERT').map((c) => c.clusterId));
  const added = changes.changed.filter((id) => inserted.has(id)).length;
  const scope = new Set(changes.changed);
  const { report } = await runFleetPass(ports, {
    trigger: 'registry',
    scope: () => scope,
    forget: changes.removed,
    registry: {
      added,
      modified: changes.changed.length - added,
      removed: changes.removed.length,
      ignored: changes.ignored,
      changed: changes.changed.slice(0, LISTED_CHANGES),
    },
  });
  return { ...summary, report };
}

export const task = defineTask({
  name: 'RegistryChanged',
  description: 'A pass over the clusters a registry change touched (the registry table stream)',
  input: RegistryChanges,
  output: RegistryChangedOutput,
  ports: PASS_PORTS,
  lambda: { memoryMb: 1024, timeoutSeconds: 300 },
  triggers: [{ kind: 'registry-stream' }],
  metrics: (output) => (output.report ? passMetrics(output.report) : []),
  step: registryChanged,
});
