// The maintenance-window gate before the first write, run locally over fake tasks: RenderConfig answering a
// resumeAt sends the update into one Wait (TimestampPath) and then renders again; without one it goes straight on.
import type { RenderConfigOutput } from '../../lambdas/contracts/cluster-update';
import { runClusterUpdate } from './local-harness';
import { INPUT, provisionTasks, recorder } from './fake-tasks';
import { loadSubstitutedAsl } from './asl-graph';

describe('the maintenance-window gate before the first write, run locally', () => {
  it('waits in WaitForMaintenanceWindow until resumeAt, renders again, then deploys', async () => {
    const rec = recorder();
    const render = rec.task((_p, call): RenderConfigOutput => ({
      artifactKey: 'render/x',
      message: call === 1 ? 'outside the windows' : 'rendered',
      approvalRequired: false,
      ...(call === 1 ? { resumeAt: '2026-01-01T12:00:00.000Z' } : {}),
    }));
    const run = await runClusterUpdate(INPUT, { tasks: provisionTasks(rec, {}, { RenderConfig: render }) });
    expect(run.error).toBeUndefined();
    expect(run.entered.slice(2, 8)).toEqual([
      'RenderConfig',
      'BeforeFirstWrite',
      'WaitForMaintenanceWindow',
      'RenderConfig',
      'BeforeFirstWrite',
      'DeployMainStack',
    ]);
    expect(run.entered.at(-1)).toBe('Updated');
  });

  it('waits on the timestamp RenderConfig gave, in one Wait state', () => {
    const machine = loadSubstitutedAsl('clusterUpdate') as { States: Record<string, Record<string, unknown>> };
    expect(machine.States.WaitForMaintenanceWindow).toEqual(
      expect.objectContaining({ Type: 'Wait', TimestampPath: '$.render.resumeAt', Next: 'RenderConfig' }),
    );
  });
});
