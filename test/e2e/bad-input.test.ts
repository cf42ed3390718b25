// Bad input through `clm` as a user gives it (issue 13): each refused with a message naming the file, line, fault or
// host, before it costs anything, and the state left as it was. kube-test is created once (from the default
// scenario); every test works on a copy of that state.
import { createServer } from 'node:net';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EXAMPLES,
  ROOT,
  TEST,
  clm,
  copyState,
  kubeTestArgs,
  loadProgress,
  loadWorld,
  tempDir,
} from './support/clm-session';

const DEFAULT_SCENARIO = join(ROOT, 'examples/scenarios/default.yaml');
const temps: string[] = [];
const track = (dir: string): string => {
  temps.push(dir);
  return dir;
};

/** Every file under a state directory with its content, to show a refused command changed nothing. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => existsSync(join(dir, name)) && name.endsWith('.json'))
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

function configCopy(): string {
  const dir = track(tempDir('config'));
  cpSync(join(ROOT, 'examples/config'), dir, { recursive: true });
  return dir;
}

let created: string;
beforeAll(async () => {
  created = track(tempDir('bad-input'));
  const run = await clm([...kubeTestArgs('provision', 'examples/config', created), '--scenario', DEFAULT_SCENARIO]);
  if (run.code !== 0) throw new Error(`creating kube-test failed: ${run.out}${run.err}`);
});
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('clm refuses bad input before it costs anything', () => {
  it('a scenario fault on an unknown call or cluster: exit 2 naming the file, the fault and the choices; no state', async () => {
    const dir = track(tempDir('scenario'));
    const scenario = join(dir, 'typo.yaml');
    writeFileSync(
      scenario,
      'faults:\n  apiErrors:\n    - { on: stacks.deploy, error: throttle, cluster: aws:123456789012:eu-central-1:kube-tset }\n',
    );

    const run = await clm([
      ...kubeTestArgs('provision', 'examples/config', join(dir, 'state')),
      '--scenario',
      scenario,
    ]);

    expect(run.code).toBe(2);
    expect(run.err).toContain(
      `${scenario}:3: faults.apiErrors[0].cluster: a fault on unknown cluster "aws:123456789012:eu-central-1:kube-tset" (it would never apply); the registry's clusters: aws:123456789012:eu-central-1:kube-test, aws:123456789012:eu-central-1:kube-staging, aws:210987654321:eu-west-1:kube-prod`,
    );
    writeFileSync(scenario, 'faults:\n  apiErrors:\n    - { on: kube.evictPods, error: throttle }\n');
    const call = await clm([
      ...kubeTestArgs('provision', 'examples/config', join(dir, 'state')),
      '--scenario',
      scenario,
    ]);
    expect(call.code).toBe(2);
    expect(call.err).toContain(`${scenario}:3: faults.apiErrors[0].on: unknown call "kube.evictPods"`);
    expect(call.err).toMatch(/the calls of kube: ready, serverVersion, apply, .*\bevictPod\b/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('--scenario for a world created from another one: exit 2 naming both and how to start fresh; the same one goes on', async () => {
    const state = track(copyState(created, 'scenario-state'));
    const before = snapshot(state);
    const other = join(ROOT, 'examples/scenarios/pdb-blocks.yaml');

    const refused = await clm([...kubeTestArgs('provision', 'examples/config', state), '--scenario', other]);
    const same = await clm([...kubeTestArgs('provision', 'examples/config', state), '--scenario', DEFAULT_SCENARIO]);

    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `--scenario ${other}: the simulated world in ${state} was created earlier from the scenario ${DEFAULT_SCENARIO}`,
    );
    expect(refused.err).toContain(`remove ${state} or give another --state`);
    expect(same.code).toBe(0);
    expect(same.out).toContain(`unchanged ${TEST}`);
    expect(snapshot(state)).toEqual(before);
  });

  it('a config symlink pointing outside the directory: refused naming link and target, the target never read', async () => {
    const config = configCopy();
    const outside = join(track(tempDir('outside')), 'secret.yaml');
    writeFileSync(outside, 'apiVersion: v1\nkind: Secret\nmetadata: {name: leaked, namespace: default}\n');
    symlinkSync(outside, join(config, 'cluster/manifests/20-web/secret.yaml'));

    const run = await clm(['render', ...EXAMPLES, '--directory', config, '--cluster', TEST, '--output', 'json']);

    expect(run.code).not.toBe(0);
    expect(`${run.out}${run.err}`).toContain(
      `cluster/manifests/20-web/secret.yaml is a symlink to ${outside}, outside the directory; refused`,
    );
    expect(`${run.out}${run.err}`).not.toContain('leaked');
  });

  it('a progress file holding null or garbage: clm status says which file, exit 1, no stack trace', async () => {
    const state = track(copyState(created, 'progress'));
    const file = join(state, 'progress', `${encodeURIComponent(TEST)}.json`);
    expect(existsSync(file)).toBe(true);

    for (const text of ['null', '{"statuses": {"x"']) {
      writeFileSync(file, text);
      const run = await clm(['status', ...EXAMPLES, '--state', state]);

      expect(run.code).toBe(1);
      expect(run.out).toBe('');
      expect(run.err).toContain(`error: ${file}: `);
      expect(run.err).not.toContain('    at ');
    }
  });

  it('a 5 MB garbage line in the registry: the file and line, not "Maximum call stack size exceeded"', async () => {
    const registry = join(track(tempDir('registry')), 'clusters.yaml');
    const text = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
    writeFileSync(registry, `${text}    ${'[{'.repeat(2_500_000)}\n`);

    const run = await clm(['render', '--registry', registry, '--directory', 'examples/config']);

    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      new RegExp(`${registry}:${text.split('\n').length}:\\d+: lists or mappings nested more than 1000 deep`),
    );
    expect(run.err).not.toContain('Maximum call stack');
  });

  it('a registry refusing connections: the error names host and port', async () => {
    const port = await closedPort();

    const run = await clm(['render', '--registry', `http://127.0.0.1:${port}`, '--directory', 'examples/config']);

    expect(run.code).not.toBe(0);
    expect(run.err).toContain(`network error reaching 127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
  });

  it('a 10 MB ConfigMap: the update fails before the first write, naming file and limit, keeping lifecycleStatus', async () => {
    const state = track(copyState(created, 'huge'));
    const config = configCopy();
    const huge = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: huge, namespace: default}\ndata:\n  blob: "${'x'.repeat(10 * 1024 * 1024)}"\n`;
    writeFileSync(join(config, 'cluster/manifests/20-web/huge.yaml'), huge);
    const calls = loadWorld(state).apiCalls();

    const run = await clm([...kubeTestArgs('provision', config, state), '--output', 'json']);

    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /main\/cluster\/manifests\/20-web\/huge\.yaml: ConfigMap default\/huge is 1048\d{4} bytes, over the limit of 1048576 bytes/,
    );
    const after = loadWorld(state).apiCalls();
    for (const write of ['stacks.deploy', 'stacks.delete', 'kube.apply', 'kube.delete', 'pools.terminate'])
      expect([write, after[write] ?? 0]).toEqual([write, calls[write] ?? 0]);
    expect(loadProgress(state).statuses[TEST]).toMatchObject({
      lifecycleStatus: 'ready',
      problems: [expect.objectContaining({ title: expect.stringContaining('over the limit of 1048576 bytes') })],
    });
    const status = await clm(['status', ...EXAMPLES, '--state', state, '--cluster', TEST, '--output', 'json']);
    expect(JSON.parse(status.out).clusters[0]).toMatchObject({ id: TEST, lifecycleStatus: 'ready' });
  });
});

/** A loopback port nothing listens on (bound, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
