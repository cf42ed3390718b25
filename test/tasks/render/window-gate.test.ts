import type { RenderedStack } from '../../../lambdas/core/render/render-stack';
import type { StackChange } from '../../../lambdas/ports/stack-deployer';
import { windowBeforeFirstWrite } from '../../../lambdas/tasks/render/window-gate';

const CLUSTER = 'aws:123456789012:eu-central-1:kube-1';
const NOON = Date.parse('2026-01-01T12:02:00Z');
const NIGHT = Date.parse('2026-01-01T03:00:00Z');
const WINDOWS = { maintenance_windows: '* 12:00-12:05 UTC' };
const stack: RenderedStack = { name: 'kube-1-worker', kind: 'node-pool', template: 'Resources: {}', tags: {} };

function deployer(changes: StackChange[], exists = true) {
  const planned: string[] = [];
  return {
    planned,
    describe: async (name: string) => (exists ? { name, status: 'UPDATE_COMPLETE', outputs: {}, tags: {} } : undefined),
    plan: async (spec: { name: string }) => (planned.push(spec.name), { exists, changes }),
  };
}

describe('windowBeforeFirstWrite', () => {
  it('lets an update write inside a window, or with no windows at all', async () => {
    const d = deployer([]);
    expect(await windowBeforeFirstWrite(CLUSTER, WINDOWS, NOON, async () => [stack], d)).toBeUndefined();
    expect(await windowBeforeFirstWrite(CLUSTER, {}, NIGHT, async () => [stack], d)).toBeUndefined();
    expect(d.planned).toEqual([]);
  });

  it('makes the whole update wait outside the windows, until the next opens', async () => {
    const wait = await windowBeforeFirstWrite(CLUSTER, WINDOWS, NIGHT, async () => [stack], deployer([]));
    expect(wait).toEqual({
      resumeAt: '2026-01-01T12:00:00.000Z',
      message: expect.stringMatching(/outside the maintenance windows \(\* 12:00-12:05 UTC\): the update waits until/),
    });
  });

  it('with manifests anytime, waits only when a change set replaces or removes instances', async () => {
    const items = { ...WINDOWS, maintenance_windows_manifests_anytime: 'true' };
    const template: StackChange = {
      action: 'Modify',
      logicalId: 'LaunchTemplate',
      resourceType: 'AWS::EC2::LaunchTemplate',
    };
    const group: StackChange = {
      action: 'Modify',
      logicalId: 'AutoScalingGroup',
      resourceType: 'AWS::AutoScaling::AutoScalingGroup',
      replacement: 'Conditional',
    };
    const goesOn = deployer([template]);
    expect(await windowBeforeFirstWrite(CLUSTER, items, NIGHT, async () => [stack], goesOn)).toBeUndefined();
    expect(goesOn.planned).toEqual(['kube-1-worker']);
    const waits = await windowBeforeFirstWrite(CLUSTER, items, NIGHT, async () => [stack], deployer([template, group]));
    expect(waits?.message).toMatch(
      /stack kube-1-worker would replace instances \(AWS::AutoScaling::AutoScalingGroup AutoScalingGroup\)/,
    );
    const fresh = deployer([group], false);
    expect(await windowBeforeFirstWrite(CLUSTER, items, NIGHT, async () => [stack], fresh)).toBeUndefined();
    expect(fresh.planned).toEqual([]);
  });

  it('refuses a malformed setting, naming the cluster and the item', async () => {
    const items = { ...WINDOWS, maintenance_windows_manifests_anytime: 'yes' };
    await expect(windowBeforeFirstWrite(CLUSTER, items, NIGHT, async () => [], deployer([]))).rejects.toThrow(
      /cluster aws:123456789012:eu-central-1:kube-1, field config_items.maintenance_windows_manifests_anytime: must be "true" or "false"/,
    );
  });
});
