// CLM's etcd stack (step 10) end to end in the simulated world, for a cluster with `manage_etcd_stack: "true"`:
// rendered and deployed before the main stack, its members booting from their own files bundle encrypted with the key
// of alias/etcd-cluster; a clear problem when that key does not exist.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { ROOT, TEST, clm, loadWorld, tempDir } from './support/clm-session';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** examples/clusters.yaml with kube-test managing its etcd stack, written into `dir`. */
function etcdRegistry(dir: string): string {
  const doc = load(readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8')) as {
    clusters: { id: string; config_items: Record<string, string> }[];
  };
  doc.clusters.find((c) => c.id === TEST)!.config_items.manage_etcd_stack = 'true';
  const file = join(dir, 'clusters.yaml');
  writeFileSync(file, dump(doc));
  return file;
}

const provision = (state: string, registry: string, ...extra: string[]) =>
  clm([
    ...['provision', '--simulate', '--registry', registry, '--directory', 'examples/config', '--state', state],
    ...['--cluster', TEST, ...extra],
  ]);

describe('the etcd stack (simulated)', () => {
  it('is deployed before the main stack, and its members boot from their bundle', async () => {
    const state = tempDir('etcd');
    temps.push(state);

    const run = await provision(state, etcdRegistry(state), '--scenario', 'examples/scenarios/etcd-key.yaml');

    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: expect.any(String) });
    const lines = run.out.split('\n');
    const first = lines.findIndex((l) =>
      l.includes('DeployMainStack: 0/2 stacks ready; waiting for etcd-cluster-etcd'),
    );
    const second = lines.findIndex((l) => l.includes('DeployMainStack: 1/2 stacks ready; waiting for kube-test'));
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    const account = loadWorld(state).snapshot().accounts['123456789012/eu-central-1']!;
    expect(account.stacks['etcd-cluster-etcd']).toMatchObject({
      status: 'CREATE_COMPLETE',
      tags: { application: 'kubernetes', component: 'etcd-cluster' },
    });
    // The etcd template saw etcd_instance_type_info (m6i.large: 2 vCPU) and its bundle's path
    const etcdMembers = Object.values(account.instances).filter((i) => i.asg.startsWith('etcd-cluster-etcd-'));
    expect(etcdMembers).toHaveLength(3);
    for (const member of etcdMembers)
      expect(member.bootstrap).toEqual({
        ok: true,
        detail: expect.stringMatching(
          /^s3:\/\/cluster-lifecycle-manager-123456789012-eu-central-1\/kube-test\/etcd\/[0-9a-f]{128}\.userdata: 2 files, 1 decrypted$/,
        ),
      });
  }, 120_000);

  it('fails before anything is deployed when the key of alias/etcd-cluster does not exist', async () => {
    const state = tempDir('etcd-no-key');
    temps.push(state);
    const registry = etcdRegistry(state);

    const run = await provision(state, registry);

    expect(run.code).not.toBe(0);
    const status = await clm([
      'status',
      '--registry',
      registry,
      '--state',
      state,
      '--cluster',
      TEST,
      '--output',
      'json',
    ]);
    expect(status.out).toContain(
      'KMS key alias/etcd-cluster does not exist in 123456789012/eu-central-1 (the etcd stack needs it: create the key and alias first)',
    );
    expect(loadWorld(state).describe(TEST).stacks).toEqual([]);
  }, 120_000);
});
