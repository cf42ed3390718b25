// What a new instance needs to become a node, end to end in the simulated world (`clm provision --simulate`): the files
// bundle in CLM's bucket of the cluster's account, a tar.gz whose secrets are KMS ciphertexts; nodes that join only
// after they fetched and decrypted it as their role; and a roll held by the health gate, then failed, when the pool's
// role may not read it.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dump, load } from 'js-yaml';
import { readUstar } from '../../lambdas/core/archive/ustar';
import {
  ROOT,
  TEST,
  clm,
  configWithNewImage,
  copyState,
  createKubeTest,
  loadWorld,
  tempDir,
} from './support/clm-session';

const BUCKET = 'cluster-lifecycle-manager-123456789012-eu-central-1';
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** kube-test's instances with what their bootstrap recorded. */
function instancesOf(state: string) {
  return Object.values(loadWorld(state).snapshot().accounts['123456789012/eu-central-1']!.instances).filter(
    (i) => i.tags[`kubernetes.io/cluster/${TEST}`] === 'owned',
  );
}

/** `clm provision --simulate` of kube-test with this registry, config and state. */
function provisionKubeTest(registry: string, config: string, state: string) {
  return clm([
    'provision',
    '--simulate',
    '--registry',
    registry,
    '--directory',
    config,
    '--state',
    state,
    '--cluster',
    TEST,
  ]);
}

/** A worker roll's first new node held NotReady at the health gate: its line in the run's output. */
const heldAtHealthGate = (out: string) => out.split('\n').find((l) => l.includes('blocked by health gate: new node'));

/** examples/clusters.yaml with kube-test's config items changed, written into `dir`. */
function registryWith(dir: string, items: Record<string, string>): string {
  const doc = load(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8')) as {
    clusters: { id: string; config_items: Record<string, string> }[];
  };
  Object.assign(doc.clusters.find((c) => c.id === TEST)!.config_items, items);
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, dump(doc));
  return file;
}

describe('node files end to end (simulated)', () => {
  let base: string;
  beforeAll(async () => {
    base = tempDir('node-files');
    temps.push(base);
    await createKubeTest(base);
  }, 120_000);

  it("puts every pool's bundle into CLM's bucket of the cluster account as a tar.gz with its secret encrypted", () => {
    const world = loadWorld(base).snapshot();
    const account = world.accounts['123456789012/eu-central-1']!;
    expect(Object.keys(account.buckets ?? {})).toEqual([BUCKET]);
    const objects = Object.values(account.objects ?? {}).filter((o) => o.key.startsWith('kube-test/'));
    expect(objects.map((o) => o.key.replace(/[0-9a-f]{128}/, '<sha512>')).sort()).toEqual([
      'kube-test/master/<sha512>.userdata',
      'kube-test/worker/<sha512>.userdata',
    ]);
    const worker = objects.find((o) => o.key.startsWith('kube-test/worker/'))!;
    const entries = readUstar(gunzipSync(Buffer.from(worker.body, 'base64')));
    expect(entries.map((e) => [e.path, e.mode])).toEqual([
      ['/etc/kubernetes/cluster-info', 0o644],
      ['/etc/kubernetes/secrets/node-bootstrap-id.enc', 0o400],
    ]);
    // files.yaml's worker secret is the sha256 of "<cluster id>/<pool>": never in clear in the object
    const secret = createHash('sha256').update(`${TEST}/default-worker`).digest('hex');
    const ciphertext = entries[1]!.content;
    expect(Buffer.from(ciphertext).includes(Buffer.from(secret))).toBe(false);
    expect(Buffer.from(loadWorld(base).kmsDecrypt(ciphertext)).toString()).toBe(secret);
  });

  it('boots every node from the bundle its user data names, fetched and decrypted as its role', () => {
    const instances = instancesOf(base);
    expect(instances).toHaveLength(3);
    for (const instance of instances) {
      expect(instance.bootstrap).toEqual({
        ok: true,
        detail: expect.stringMatching(
          new RegExp(`^s3://${BUCKET}/kube-test/(master|worker)/[0-9a-f]{128}\\.userdata: [23] files, 1 decrypted$`),
        ),
      });
    }
  });

  it('registers every node with the labels and taints its user data gives its kubelet', () => {
    const kube = Object.values(loadWorld(base).snapshot().kube).find((k) => k.clusterId.endsWith(TEST))!;
    const nodes = Object.values(kube.nodes);
    const masters = nodes.filter((n) => n.role === 'master');
    const workers = nodes.filter((n) => n.role === 'worker');
    expect(masters).toHaveLength(1);
    expect(workers).toHaveLength(2);
    for (const master of masters) {
      expect(master.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
      expect(master.labels).toMatchObject({ 'node.kubernetes.io/role': 'master', 'lifecycle-status': 'ready' });
    }
    for (const worker of workers) {
      expect(worker.taints).toEqual([]);
      expect(worker.labels).toMatchObject({ 'node.kubernetes.io/distro': 'ubuntu' });
    }
  });

  it("holds the roll when the pool's user data gives its kubelet a label it refuses to start with", async () => {
    const state = copyState(base, 'node-files-labels');
    const config = configWithNewImage();
    temps.push(state, config);
    const userdata = join(config, 'cluster/node-pools/worker-default/userdata.yaml');
    const text = readFileSync(userdata, 'utf8');
    expect(text).toContain('node.kubernetes.io/role=worker,');
    writeFileSync(
      userdata,
      text.replace('node.kubernetes.io/role=worker,', 'node.kubernetes.io/role=worker,kubernetes.io/role=worker,'),
    );
    const file = registryWith(state, { update_health_timeout: '10m' });

    const run = await provisionKubeTest(file, config, state);

    expect(run.code).not.toBe(0);
    const held = heldAtHealthGate(run.out);
    expect(held).toMatch(
      /is NotReady \(KubeletFailedToStart: kubelet refused to start: --node-labels kubernetes\.io\/role=worker: a kubelet may not set labels in the kubernetes\.io\/k8s\.io namespaces/,
    );
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 120_000);

  it('rolls the workers: every replacement fetched and decrypted its bundle before it joined', async () => {
    const state = copyState(base, 'node-files-roll');
    const config = configWithNewImage();
    temps.push(state, config);
    const before = instancesOf(state).map((i) => i.id);

    const run = await clm([
      'provision',
      '--simulate',
      '--registry',
      'examples/clusters.yaml',
      '--directory',
      config,
      '--state',
      state,
      '--cluster',
      TEST,
    ]);

    expect(run.code).toBe(0);
    expect(run.out).toMatch(/nodes replaced 2, PDB violations 0/);
    const fresh = instancesOf(state).filter((i) => !before.includes(i.id) && i.state === 'InService');
    expect(fresh).toHaveLength(2);
    for (const instance of fresh)
      expect(instance.bootstrap).toMatchObject({ ok: true, detail: expect.stringContaining('1 decrypted') });
  }, 120_000);

  it('holds the roll at the health gate while the role may not read the bundle, then fails naming why', async () => {
    const state = copyState(base, 'node-files-denied');
    const config = configWithNewImage();
    temps.push(state, config);
    // The worker role loses its read of the files bundle.
    const stack = join(config, 'cluster/cluster.yaml');
    const text = readFileSync(stack, 'utf8');
    const grant = / {14}# The worker nodes' files bundle.*\n.*\n.*\n.*\/worker\/\*"\n/;
    expect(text).toMatch(grant);
    writeFileSync(stack, text.replace(grant, ''));
    const file = registryWith(state, { update_health_timeout: '10m' });
    const before = instancesOf(state)
      .filter((i) => i.state === 'InService')
      .map((i) => i.id);

    const run = await provisionKubeTest(file, config, state);

    expect(run.code).not.toBe(0);
    const held = heldAtHealthGate(run.out);
    expect(held).toMatch(
      new RegExp(
        `is NotReady \\(FilesBundleUnavailable: files bundle s3://${BUCKET}/kube-test/worker/[0-9a-f]{128}\\.userdata: AccessDenied: s3:GetObject on arn:aws:s3:::${BUCKET}/kube-test/worker/[0-9a-f]{128}\\.userdata: no policy of arn:aws:iam::123456789012:role/kube-test-worker allows it`,
      ),
    );
    expect(run.out).toMatch(/failed\s+\S+kube-test .*nodes replaced 0/);
    const status = await clm(['status', '--registry', file, '--state', state, '--cluster', TEST, '--output', 'json']);
    expect(status.out).toMatch(
      /health gate: new node ip-\S+ is NotReady \(FilesBundleUnavailable: .*AccessDenied.*update_health_timeout 600s/,
    );
    // No old node was touched: the roll stopped before draining any.
    const alive = instancesOf(state)
      .filter((i) => i.state === 'InService')
      .map((i) => i.id);
    expect(alive).toEqual(expect.arrayContaining(before));
    expect(loadWorld(state).invariants()).toMatchObject({ pdbViolations: 0, nodesTerminatedTwice: 0 });
  }, 120_000);
});
