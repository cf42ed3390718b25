// End to end in the simulator: the health check after apply fails an update whose pods never become ready and halts
// the next wave; the drift check of a dispatcher pass reports (manifest_drift: report) or repairs (repair) a
// Deployment someone edited, naming the object and the field.
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DispatchReport } from '../../lambdas/contracts/dispatch-report';
import type { FleetEvent } from '../../lambdas/contracts/fleet-events';
import { EXAMPLES, ROOT, TEST, clm, kubeTestArgs, loadWorld, tempDir } from './support/clm-session';

interface DispatchJson {
  readonly report: DispatchReport;
  readonly updates: { clusterId: string; status: string; error?: string }[];
  readonly events: FleetEvent[];
}

/** examples/config with extra config-defaults lines, and the web Deployment's pod template annotated as given. */
function config(defaults: string, podAnnotation?: string): string {
  const dir = tempDir('config');
  cpSync(join(ROOT, 'examples/config'), dir, { recursive: true });
  appendFileSync(join(dir, 'cluster/config-defaults.yaml'), `\n${defaults}\n`);
  if (podAnnotation) {
    const file = join(dir, 'cluster/manifests/20-web/deployment.yaml');
    const text = readFileSync(file, 'utf8');
    const anchor = '        config/hash: "{{manifestHash "configmap.yaml"}}"';
    if (!text.includes(anchor)) throw new Error(`${file} has no "${anchor}" line`);
    writeFileSync(file, text.replace(anchor, `${anchor}\n        ${podAnnotation}`));
  }
  return dir;
}

async function dispatch(configDir: string, state: string, only?: string): Promise<DispatchJson & { code: number }> {
  const args = ['dispatch', '--simulate', ...EXAMPLES, '--directory', configDir, '--state', state, '-o', 'json'];
  const run = await clm([...args, ...(only ? ['--cluster', only] : [])]);
  return { code: run.code, ...(JSON.parse(run.out) as DispatchJson) };
}

/** Someone runs `kubectl edit deployment -n web web` and sets 5 replicas, a minute from now. */
function editWebReplicas(state: string): void {
  const world = loadWorld(state);
  const startedAt = Date.parse(world.snapshot().scenario.startTime);
  world.addLiveEdits([
    {
      atSeconds: (world.now - startedAt) / 1000 + 60,
      cluster: TEST,
      kind: 'deployment',
      namespace: 'web',
      name: 'web',
      patch: { spec: { replicas: 5 } },
    },
  ]);
  world.advance(120_000);
  world.save(state);
}

function webReplicas(state: string): number {
  const stored = loadWorld(state).snapshot().kube[TEST]!.objects['apps/Deployment/web/web']!;
  return (stored.obj.spec as { replicas: number }).replicas;
}

describe('health after apply', () => {
  it('fails the update of a Deployment whose pods never become Ready, naming it, and halts the next wave', async () => {
    // Arrange: web's pods never pass their readiness probe; a short timeout
    const cfg = config('manifest_health_timeout: 3m', "simulate.clm.io/never-ready: 'true'");
    const state = tempDir('health');

    // Act: the first pass starts the test wave (kube-test) and runs it; the second pass judges the waves
    const first = await dispatch(cfg, state);
    const second = await dispatch(cfg, state);

    // Assert
    expect(first.report.starts.map((s) => s.clusterId)).toEqual([TEST]);
    expect(first.code).not.toBe(0);
    expect(first.updates).toEqual([expect.objectContaining({ clusterId: TEST, status: 'FAILED' })]);
    const error = first.updates[0]!.error ?? '';
    expect(error).toContain('WorkloadsUnhealthyError');
    expect(error).toContain('Deployment web/web: 0/2 available, 2/2 updated (pods: 2 Running, not Ready)');
    expect(error).toContain('not healthy 3m after the apply');
    expect(second.report.starts).toEqual([]);
    expect(second.report.halts).toEqual([
      expect.objectContaining({ failed: [expect.objectContaining({ clusterId: TEST })] }),
    ]);
  });
});

describe('manifest drift', () => {
  it('reports an edited Deployment under manifest_drift: report, naming object, field and editor, and changes nothing', async () => {
    // Arrange
    const cfg = config('');
    const state = tempDir('drift-report');
    expect((await clm(kubeTestArgs('provision', cfg, state))).code).toBe(0);
    editWebReplicas(state);

    // Act
    const pass = await dispatch(cfg, state, TEST);
    const status = await clm(['status', ...EXAMPLES, '--state', state, '--cluster', TEST]);

    // Assert
    expect(pass.code).toBe(0);
    expect(pass.updates).toEqual([]);
    expect(pass.report.drift).toEqual({
      checked: 1,
      clusters: [
        {
          clusterId: TEST,
          mode: 'report',
          repaired: false,
          objects: 1,
          message: 'Deployment web/web: spec.replicas (by kubectl-edit)',
        },
      ],
    });
    expect(pass.events.filter((e) => e.type === 'ManifestDrift')).toHaveLength(1);
    expect(status.out).toContain('Deployment web/web: spec.replicas (by kubectl-edit)');
    expect(webReplicas(state)).toBe(5);
  });

  it('repairs an edited Deployment under manifest_drift: repair without an execution, and a quiet cluster costs no more', async () => {
    // Arrange
    const cfg = config('manifest_drift: repair');
    const state = tempDir('drift-repair');
    expect((await clm(kubeTestArgs('provision', cfg, state))).code).toBe(0);
    editWebReplicas(state);

    // Act
    const repair = await dispatch(cfg, state, TEST);
    const quiet = await dispatch(cfg, state, TEST);

    // Assert
    expect(repair.updates).toEqual([]);
    expect(repair.report.drift?.clusters).toEqual([
      expect.objectContaining({ clusterId: TEST, mode: 'repair', repaired: true, objects: 1 }),
    ]);
    expect(repair.report.drift?.clusters[0]!.message).toBe(
      'repaired Deployment web/web: spec.replicas (by kubectl-edit)',
    );
    expect(webReplicas(state)).toBe(2);
    expect(quiet.report.drift).toEqual({ checked: 1, clusters: [] });
    expect(quiet.updates).toEqual([]);
  });
});
