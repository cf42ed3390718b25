import { booleanItem } from '../../core/config/boolean-item';
import type { ConfigItems } from '../../core/model/cluster';
import type { RenderedStack } from '../../core/render/render-stack';
import { nextWindowOpening, parseMaintenanceWindows, windowOpen } from '../../core/schedule/maintenance-windows';
import { instanceReplacement } from '../../core/stacks/instance-replacement';
import type { StackDeployer } from '../../ports/stack-deployer';

/** Lets updates that replace no instance run outside the maintenance windows (only node replacement waits then). */
export const MANIFESTS_ANYTIME_ITEM = 'maintenance_windows_manifests_anytime';

export interface WindowWait {
  /** When the next window opens (ISO 8601): the Wait state's timestamp. */
  readonly resumeAt: string;
  readonly message: string;
}

/**
 * Whether the update must wait before its first write: outside every window of the cluster's `maintenance_windows`,
 * yes — unless `maintenance_windows_manifests_anytime: "true"`, and then only when a stack's change set replaces
 * instances (`stacks()` gives the stacks rendered as they would deploy now; only existing ones are planned).
 */
export async function windowBeforeFirstWrite(
  clusterId: string,
  items: ConfigItems,
  now: number,
  stacks: () => Promise<readonly RenderedStack[]>,
  deployer: Pick<StackDeployer, 'describe' | 'plan'>,
): Promise<WindowWait | undefined> {
  const text = items.maintenance_windows;
  if (!text) return undefined;
  const windows = parseMaintenanceWindows(text, `cluster ${clusterId}: config item maintenance_windows`);
  const anytime = booleanItem(items, MANIFESTS_ANYTIME_ITEM, clusterId);
  if (windowOpen(windows, now)) return undefined;
  const resumeAt = new Date(nextWindowOpening(windows, now)).toISOString();
  if (!anytime)
    return { resumeAt, message: `outside the maintenance windows (${text}): the update waits until ${resumeAt}` };
  for (const stack of await stacks()) {
    if (!(await deployer.describe(stack.name))) continue;
    const { changes } = await deployer.plan({ name: stack.name, templateBody: stack.template, tags: stack.tags });
    const replaced = instanceReplacement(changes);
    if (replaced)
      return {
        resumeAt,
        message: `outside the maintenance windows (${text}), and stack ${stack.name} would replace instances (${replaced.resourceType} ${replaced.logicalId}): the update waits until ${resumeAt}`,
      };
  }
  return undefined;
}
