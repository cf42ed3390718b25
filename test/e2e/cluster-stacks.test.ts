// A cluster pinning a cluster stack, upgraded in the simulated world across two stack versions (v2 changes only the
// cluster-addon layer, v3 only the node-image layer) and one Kubernetes minor (1-30 → 1-31): each run does the steps
// of the changed layers only, and a skipped minor (1-30 → 1-32) is refused before anything is written.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, clm, clusterLines, loadProgress, loadWorld, poolInstances, tempDir } from './support/clm-session';

const CLUSTER = 'aws:123456789012:eu-central-1:kube-stack';
const STACKS = 'examples/cluster-stacks';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function registryFor(stack: string): string {
  const dir = tempDir('stack-registry');
  temps.push(dir);
  const text = readFileSync(join(ROOT, 'examples/stack-clusters.yaml'), 'utf8');
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, text.replace('cluster_stack: aws/default/1-30', `cluster_stack: ${stack}`));
  return file;
}

/** Every stack of the cluster with its operation counter: a deployed stack's counter moves. */
function stackTokens(state: string): Record<string, number> {
  const tokens: Record<string, number> = {};
  for (const account of Object.values(loadWorld(state).snapshot().accounts))
    for (const stack of Object.values(account.stacks))
      if (stack.name.includes('kube-stack')) tokens[stack.name] = stack.token;
  return tokens;
}

async function provision(state: string, config: string, registry = 'examples/stack-clusters.yaml', ...extra: string[]) {
  const args = ['provision', '--simulate', '--registry', registry, '--directory', config, '--state', state, ...extra];
  const text = await clm(args);
  const lines = clusterLines(text.out, CLUSTER);
  const summary = text.out
    .split('\n')
    .find((l) => l.startsWith(`succeeded ${CLUSTER}`) || l.startsWith(`failed ${CLUSTER}`));
  const transitions = Number(/state transitions (\d+)/.exec(summary ?? '')?.[1] ?? NaN);
  const nodes = Number(/nodes replaced (\d+)/.exec(summary ?? '')?.[1] ?? NaN);
  return { code: text.code, out: text.out, err: text.err, lines, transitions, nodes };
}

describe('cluster stacks: the changed layers decide the steps', () => {
  it('upgrades across two stack versions and one Kubernetes minor', async () => {
    const state = tempDir('stacks');
    temps.push(state);
    const created = await provision(state, `${STACKS}/v1`);
    expect(created.code).toBe(0);
    expect(created.lines.join('\n')).toContain('stack=aws/default/1-30@v1');
    const workers = poolInstances(loadWorld(state), CLUSTER);
    const initialNodes = Object.values(workers).flatMap((p) => p.alive);
    expect(initialNodes).toHaveLength(3);

    // clm plan says which layers v2 changes and which steps it skips
    const plan = await clm([
      'plan',
      '--simulate',
      '--registry',
      'examples/stack-clusters.yaml',
      '--directory',
      `${STACKS}/v2`,
      '--state',
      state,
    ]);
    expect(plan.code).toBe(0);
    expect(plan.out).toContain(
      'cluster stack aws/default/1-30@v1 → aws/default/1-30@v2: layers changed: cluster-addon; steps skipped: main stack, cf-manifest stacks, node pool stacks, node rolls',
    );
    expect(plan.out).not.toMatch(/^\s+stack /m);
    expect(plan.out).not.toMatch(/^\s+roll /m);

    // v2: addon only — no stack deployed, no node rolled, only the apply
    const before = stackTokens(state);
    const addon = await provision(state, `${STACKS}/v2`);
    expect(addon.code).toBe(0);
    const addonText = addon.lines.join('\n');
    expect(addonText).toContain(
      'DeployMainStack: skipped: layer cluster-class unchanged (aws/default/1-30@v1 → aws/default/1-30@v2)',
    );
    expect(addonText).toContain('DeployWorkerPoolStacks: skipped: layers cluster-class and node-image unchanged');
    expect(addonText).toMatch(/ApplyManifests: Applied 12 object\(s\): 0 created, [1-9]\d* configured/);
    expect(addonText).not.toContain('RollStep');
    expect(addon.nodes).toBe(0);
    expect(stackTokens(state)).toEqual(before);
    expect(poolInstances(loadWorld(state), CLUSTER)).toEqual(workers);

    // v3: node image only — the pool stacks and every node, no manifests, main stack untouched
    const image = await provision(state, `${STACKS}/v3`);
    expect(image.code).toBe(0);
    const imageText = image.lines.join('\n');
    expect(imageText).toContain('ApplyManifests: skipped: layers cluster-addon and cluster-class unchanged');
    expect(imageText).toContain('PreApplyDeletions: skipped');
    expect(imageText).toContain('DeployMainStack: skipped');
    expect(image.nodes).toBe(3);
    const afterImage = stackTokens(state);
    const mainStack = 'kube-stack';
    expect(afterImage[mainStack]).toBe(before[mainStack]);
    expect(afterImage['kube-stack-alerts']).toBe(before['kube-stack-alerts']);
    const poolStacks = Object.keys(before).filter((n) => n.startsWith('nodepool-'));
    for (const name of poolStacks) expect(afterImage[name]).toBeGreaterThan(before[name]);
    // the addon-only run skips the pools' steps: well under the node-image run's transitions (which roll every pool)
    expect(addon.transitions).toBeLessThan(30);
    expect(image.transitions - addon.transitions).toBeGreaterThan(20);

    // 1-30 → 1-32 skips a minor: refused before anything is written
    const skipping = tempDir('stacks-132');
    temps.push(skipping);
    cpSync(join(ROOT, STACKS, 'v3'), skipping, { recursive: true, dereference: true });
    const dir131 = join(skipping, 'providers/aws/default/1-31');
    const dir132 = join(skipping, 'providers/aws/default/1-32');
    cpSync(dir131, dir132, { recursive: true });
    writeFileSync(
      join(dir132, 'metadata.yaml'),
      readFileSync(join(dir131, 'metadata.yaml'), 'utf8').replace('v1.31.2', 'v1.32.0'),
    );
    const nodesBefore = poolInstances(loadWorld(state), CLUSTER);
    const refused = await provision(state, skipping, registryFor('aws/default/1-32'));
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toContain('Kubernetes 1.30 → 1.32: one minor at a time: upgrade to 1.31 first');
    expect(stackTokens(state)).toEqual(afterImage);
    expect(poolInstances(loadWorld(state), CLUSTER)).toEqual(nodesBefore);

    // 1-30 → 1-31: every layer, the control plane's pool before the workers'
    const upgrade = await provision(state, `${STACKS}/v3`, registryFor('aws/default/1-31'));
    expect(upgrade.code).toBe(0);
    const upgradeText = upgrade.lines.join('\n');
    expect(upgradeText).toContain(
      'Kubernetes upgrade 1.30 → 1.31: control plane (master pools) first, then the workers',
    );
    expect(upgradeText).toContain('stack=aws/default/1-31@v1');
    const firstMaster = upgrade.lines.findIndex((l) => l.includes('RollStep: master-default'));
    const firstWorker = upgrade.lines.findIndex((l) => l.includes('RollStep: default-worker'));
    const lastMaster = upgrade.lines.map((l) => l.includes('RollStep: master-default')).lastIndexOf(true);
    expect(firstMaster).toBeGreaterThanOrEqual(0);
    expect(lastMaster).toBeLessThan(firstWorker);
    expect(upgrade.nodes).toBe(3);
    expect(upgrade.out).toMatch(/PDB violations 0/);
  });

  it('rolls the nodes an --apply-only run left behind, even when no layer changed since', async () => {
    const state = tempDir('stacks-apply-only');
    temps.push(state);
    expect((await provision(state, `${STACKS}/v1`)).code).toBe(0);
    const applied = await provision(state, `${STACKS}/v3`, 'examples/stack-clusters.yaml', '--apply-only');
    expect(applied).toMatchObject({ code: 0, nodes: 0 });
    const rolled = await provision(state, `${STACKS}/v3`);
    expect(rolled.code).toBe(0);
    expect(rolled.lines.join('\n')).toContain('an --apply-only run left the nodes behind');
    expect(rolled.nodes).toBe(3);
  });

  it('checks the skew against the nodes the cluster runs: a node left two minors behind blocks the next minor', async () => {
    // Kubernetes 1.26 → 1.27 (before 1.28 a kubelet may be two minors behind): the workers run kubelet 1.24, as an
    // interrupted upgrade can leave them. The recorded stack (1.26) allows the upgrade; the live nodes do not.
    const config = tempDir('stacks-126');
    temps.push(config);
    cpSync(join(ROOT, STACKS, 'v3'), config, { recursive: true, dereference: true });
    const stacks = join(config, 'providers/aws/default');
    for (const [dir, kubernetes] of [
      ['1-26', '1.26.15'],
      ['1-27', '1.27.16'],
    ]) {
      cpSync(join(stacks, '1-30'), join(stacks, dir), { recursive: true });
      const metadata = join(stacks, dir, 'metadata.yaml');
      writeFileSync(metadata, readFileSync(metadata, 'utf8').replace('v1.30.5', `v${kubernetes}`));
      const defaults = join(stacks, dir, 'node-image/config-defaults.yaml');
      writeFileSync(defaults, readFileSync(defaults, 'utf8').replace('1.30.5', kubernetes));
    }
    const registry = (stack: string) => {
      const file = registryFor(stack);
      const text = readFileSync(file, 'utf8').replace(
        '        min_size: 2\n        max_size: 2\n',
        '        min_size: 2\n        max_size: 2\n        config_items:\n          kubernetes_version: "1.24.17"\n',
      );
      writeFileSync(file, text);
      return file;
    };
    const state = tempDir('stacks-skew');
    temps.push(state);
    expect((await provision(state, config, registry('aws/default/1-26'))).code).toBe(0);
    const kube = loadWorld(state).snapshot().kube[CLUSTER];
    const workers = Object.values(kube.nodes)
      .filter((n) => n.role === 'worker')
      .map((n) => n.name)
      .sort();
    expect(
      Object.values(kube.nodes)
        .map((n) => `${n.role} ${n.kubeletVersion}`)
        .sort(),
    ).toEqual(['master v1.26.15', 'worker v1.24.17', 'worker v1.24.17']);

    // clm plan shows the versions it read and the refusal
    const upgradeRegistry = registry('aws/default/1-27');
    const plan = await clm([
      'plan',
      '--simulate',
      '--registry',
      upgradeRegistry,
      '--directory',
      config,
      '--state',
      state,
    ]);
    expect(plan.out).toContain(`Kubernetes checked live: API server v1.26.15; kubelets v1.26.15 (`);
    expect(plan.out).toContain(`v1.24.17 (${workers.join(', ')})`);
    const refusal = `nodes ${workers.join(', ')} (kubelet 1.24) would be 3 minors behind the API server 1.27 (at most 2 before Kubernetes 1.28)`;
    expect(plan.out).toContain(refusal);

    // the upgrade is refused before anything is written: no stack, no node, no run, no status
    const stacksBefore = stackTokens(state);
    const nodesBefore = poolInstances(loadWorld(state), CLUSTER);
    const progressBefore = loadProgress(state);
    const refused = await provision(state, config, upgradeRegistry);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toContain(`Kubernetes 1.26 → 1.27: ${refusal}`);
    expect(refused.out + refused.err).toContain('config_items.cluster_stack');
    expect(stackTokens(state)).toEqual(stacksBefore);
    expect(poolInstances(loadWorld(state), CLUSTER)).toEqual(nodesBefore);
    // only the problem is recorded (as every failed execution does): no lease, no run, no new version
    const { statuses: after, ...progressAfter } = loadProgress(state);
    const { statuses: before, ...unchanged } = progressBefore;
    expect(progressAfter).toEqual(unchanged);
    expect({ ...after[CLUSTER], problems: [] }).toEqual(before[CLUSTER]);
    expect(after[CLUSTER].problems.map((p) => p.title)).toEqual([expect.stringContaining(refusal)]);
  });

  it('pins released stacks by digest: exactly the released content, two releases mapped by layer, a bad digest refused', async () => {
    // v2 and v3 released into a directory; the config source stays at v1 all along.
    const releases = tempDir('stack-releases');
    temps.push(releases);
    const digests: Record<string, string> = {};
    for (const version of ['v2', 'v3']) {
      const args = ['stack', 'release', '--directory', `${STACKS}/${version}`, '--stack', 'aws/default/1-30'];
      const released = await clm([...args, '--to', releases]);
      expect(released.code).toBe(0);
      digests[version] = /cluster_stack_version: (v\d@sha256:[0-9a-f]{64})/.exec(released.out)![1];
    }
    const pinning = (pin: string) => {
      const file = registryFor('aws/default/1-30');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('cluster_stack_version: latest', `cluster_stack_version: ${pin}`),
      );
      return file;
    };
    const state = tempDir('stacks-released');
    temps.push(state);
    const greeting = () =>
      JSON.stringify(loadWorld(state).snapshot().kube[CLUSTER].objects).match(/"GREETING":"([^"]*)"/)?.[1];

    const created = await provision(state, `${STACKS}/v1`, pinning(digests.v2), '--stack-releases', releases);
    expect(created.code).toBe(0);
    expect(created.lines.join('\n')).toContain('stack=aws/default/1-30@v2');
    expect(greeting()).toBe('Hi from kube-stack'); // v2's addon, not the v1 tree's "Hello from"

    // v2 → v3 (both released): node image only, as between tree versions
    const image = await provision(state, `${STACKS}/v1`, pinning(digests.v3), '--stack-releases', releases);
    expect(image.code).toBe(0);
    const imageText = image.lines.join('\n');
    expect(imageText).toContain('layers changed: node-image');
    expect(imageText).toContain(
      'ApplyManifests: skipped: layers cluster-addon and cluster-class unchanged (aws/default/1-30@v2 → aws/default/1-30@v3)',
    );
    expect(imageText).toContain('DeployMainStack: skipped');
    expect(image.nodes).toBe(3);

    // a tarball that is not the pinned release: refused before anything is written, naming cluster, pin and location
    const tarball = join(releases, 'aws/default/1-30/v3.tar.gz');
    const other = `v3@sha256:${'0'.repeat(64)}`;
    const stacksBefore = stackTokens(state);
    const progressBefore = loadProgress(state);
    const refused = await provision(state, `${STACKS}/v1`, pinning(other), '--stack-releases', releases);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toContain(
      `cluster ${CLUSTER}, field config_items.cluster_stack_version: pins cluster stack aws/default/1-30 ${other}: the tarball at ${tarball} is ${digests.v3.slice(3)}, not the pinned digest`,
    );
    expect(stackTokens(state)).toEqual(stacksBefore);
    expect(loadProgress(state).runs).toEqual(progressBefore.runs);
    expect(loadProgress(state).leases).toEqual(progressBefore.leases);
  });
});
