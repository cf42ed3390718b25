// `clm serve --simulate` shows node repair and manifest drift (README "Node repair, forced rolls and node age",
// "Manifest drift"): the controller's first scheduled pass finds kube-test's lost node due and starts a renewal run
// that replaces it, reports the Deployment someone edited on kube-staging (manifest_drift: report, the default) and
// re-applies the one edited on kube-prod (manifest_drift: repair). Bounded by work: /healthz says when it is done;
// Ctrl-C stops it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROD, STAGING, TEST, clm, latestRun, loadWorld, poolInstances, tempDir } from './support/clm-session';
import { elapsed, nodesOf, provision, registryWith, replacedBy, scenario } from './support/renewal-world';
import { interrupt, settled, startServe, type ServeProcess } from './support/serve-process';

const HOUR = 3600;
/** kube-test loses a node 6 h into the world; the controller's first pass comes 20 minutes later. */
const LOST_AT = 6 * HOUR;
const PASS_AT = LOST_AT + 20 * 60;
const PROD_ITEMS = '      cost_center: "2002"\n';

function webReplicas(state: string, cluster: string): number {
  const stored = loadWorld(state).snapshot().kube[cluster]!.objects['apps/Deployment/web/web']!;
  return (stored.obj.spec as { replicas: number }).replicas;
}

describe('clm serve --simulate: node repair and manifest drift', () => {
  const state = tempDir('serve-heal');
  let serve: ServeProcess | undefined;
  afterAll(() => {
    serve?.child.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  });

  it('repairs the lost node, reports one edited Deployment and repairs the other, in its scheduled pass', async () => {
    // Arrange: the three example clusters; kube-test's default-worker asks for repair, kube-prod for drift repair.
    const registry = registryWith(state, { node_repair: 'true' });
    const text = readFileSync(registry, 'utf8');
    expect(text).toContain(PROD_ITEMS);
    writeFileSync(registry, text.replace(PROD_ITEMS, `${PROD_ITEMS}      manifest_drift: repair\n`));
    const incident = `nodeIncidents:\n  - { kind: unreachable, cluster: ${TEST}, pool: default-worker, atSeconds: ${LOST_AT} }\n`;
    const created = await clm([
      ...['provision', '--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
      ...['--scenario', scenario(state, incident), '--output', 'json'],
    ]);
    expect(created.code).toBe(0);
    await provision(registry, state); // kube-test, once more: up to date, nothing due yet
    expect(elapsed(state)).toBeLessThan(LOST_AT);
    const replicas = { staging: webReplicas(state, STAGING), prod: webReplicas(state, PROD) };
    const world = loadWorld(state);
    const editAt = elapsed(state) + 60;
    const edit = (cluster: string) => ({
      atSeconds: editAt,
      cluster,
      kind: 'deployment',
      namespace: 'web',
      name: 'web',
      patch: { spec: { replicas: 5 } },
    });
    world.addLiveEdits([edit(STAGING), edit(PROD)]);
    world.save(state);
    const lost = poolInstances(loadWorld(state), TEST)['default-worker']!.alive;

    // Act: the controller's first pass moves the simulated clock one --interval (an hour) on, to PASS_AT.
    const advance = `${Math.ceil(PASS_AT - HOUR - elapsed(state))}s`;
    const secret = join(state, 'hook-secret');
    writeFileSync(secret, 'e2e-webhook-secret\n');
    serve = startServe([
      '--simulate',
      ...['--state', state, '--registry', registry, '--directory', 'examples/config'],
      ...['--port', '0', '--webhook-secret-file', secret, '--interval', String(HOUR), '--sim-advance', advance],
    ]);
    const health = await settled(await serve.port, 1);
    const code = await interrupt(serve);

    // Assert: the output
    expect(code).toBe(130);
    expect(health.updatesRun).toBe(1);
    const log = serve.log();
    expect(log).toContain('3 clusters: 3 up to date, 0 behind target, 1 started');
    expect(log).toMatch(new RegExp(`start ${TEST}: .*node renewal: 1 node\\(s\\) due: 1 repair`));
    expect(log).toContain(`${STAGING} (report): reported: Deployment web/web: spec.replicas (by kubectl-edit)`);
    expect(log).toContain(`${PROD} (repair): repaired Deployment web/web: spec.replicas (by kubectl-edit)`);
    expect(log).toContain('clm serve: stopped');

    // Assert: the state — the lost node replaced, the reported Deployment left as edited, the repaired one restored
    const [gone] = replacedBy(state);
    expect(lost).toContain(gone);
    expect(poolInstances(loadWorld(state), TEST)['default-worker']!.gone).toContain(gone);
    expect(nodesOf(state).every((n) => n.ready)).toBe(true);
    expect(latestRun(state, TEST).nodeRoll).toMatchObject({ kind: 'renew', reason: expect.stringContaining('repair') });
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
    expect(webReplicas(state, STAGING)).toBe(5);
    expect(webReplicas(state, PROD)).toBe(replicas.prod);
    const status = await clm(['status', '--registry', registry, '--state', state, '--cluster', STAGING]);
    expect(status.out).toContain('Deployment web/web: spec.replicas (by kubectl-edit)');
    expect(replicas.staging).not.toBe(5);
  });
});
