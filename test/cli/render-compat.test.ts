/**
 * What a real CLM config repository needs from `clm render`: inputs CLM accepts (a key repeated in a manifest,
 * unquoted numbers as config items), AWS lookups answered by --values offline, Values.InstanceInfo, and JSON
 * output that keeps YAML scalars as written.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import { captureIo } from '../support/cli-io';

const ROOT = resolve(__dirname, '../..');
const TEST = 'aws:123456789012:eu-central-1:kube-test';

describe('clm render: CLM compatibility', () => {
  let tmp: string;
  let config: string;
  let registry: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'clm-compat-'));
    config = join(tmp, 'config');
    registry = join(tmp, 'clusters.yaml');
    cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
    cpSync(join(ROOT, 'examples/clusters.yaml'), registry);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  async function render(...extra: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIo(ROOT);
    const code = await main(
      ['render', '--registry', registry, '--directory', config, '--cluster', TEST, '--output', 'json', ...extra],
      io,
    );
    return { code, out: io.out, err: io.err };
  }

  it('keeps the last value of a key repeated in a manifest and warns naming the file, line and key', async () => {
    // Arrange
    writeFileSync(
      join(config, 'cluster/manifests/01-namespaces/twice.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: twice\n  namespace: web\ndata:\n  mode: first\n  mode: second\n',
    );

    // Act
    const { code, out, err } = await render();

    // Assert
    expect(code).toBe(0);
    const file = JSON.parse(out).clusters[0].manifests.find((m: any) => m.file === 'twice.yaml');
    expect(file.objects[0].data).toEqual({ mode: 'second' });
    expect(err).toContain(
      `warning: ${TEST}: main/cluster/manifests/01-namespaces/twice.yaml:8: duplicate key "mode": the last value wins (as in CLM)`,
    );
  });

  it('takes an unquoted number as a config item value as its text, with a warning naming file, line and field', async () => {
    // Arrange
    const text = readFileSync(registry, 'utf8').replace('      cost_center: "1001"', '      cost_center: 1001.50');
    writeFileSync(registry, text);

    // Act
    const { code, out, err } = await render();

    // Assert
    expect(code).toBe(0);
    expect(JSON.parse(out).clusters[0].configItems.cost_center).toBe('1001.50');
    expect(err).toMatch(
      /warning: .*clusters\.yaml:\d+: cluster aws:123456789012:eu-central-1:kube-test: config_items\.cost_center: unquoted number taken as the text "1001\.50"/,
    );
  });

  it('answers amiID offline from the values file', async () => {
    // Arrange: the defaults ask EC2 for the node image, as KoA's do
    const defaults = join(config, 'cluster/config-defaults.yaml');
    writeFileSync(defaults, `${readFileSync(defaults, 'utf8')}node_image: {{amiID "node-image-v1" "123456789012"}}\n`);
    const values = join(tmp, 'values.yaml');
    writeFileSync(
      values,
      'lookups:\n  amis:\n    - {name: node-image-v1, owner: "123456789012", id: ami-0123456789abcdef0}\n',
    );

    // Act
    const without = await render();
    const withValues = await render('--values', values);

    // Assert
    expect(without.code).toBe(1);
    expect(JSON.parse(without.out).clusters[0].errors[0].message).toContain(
      'the AMI named node-image-v1 owned by 123456789012 is not known offline: add it to --values under lookups.amis',
    );
    expect(withValues.code).toBe(0);
    expect(JSON.parse(withValues.out).clusters[0].configItems.node_image).toBe('ami-0123456789abcdef0');
  });

  it('gives node-pool templates Values.InstanceInfo from the offline table, and instanceType*Quantity the same facts', async () => {
    // Arrange: kube-test's worker pool has m6i.large and m5.large
    const userdata = join(config, 'cluster/node-pools/worker-default/userdata.yaml');
    writeFileSync(
      userdata,
      `${readFileSync(userdata, 'utf8')}# {{Values.InstanceInfo.VCPU}} {{Values.InstanceInfo.MemoryFraction 50}} {{instanceTypeMemoryQuantity (index NodePool.InstanceTypes 0)}}\n`,
    );

    // Act
    const { code, out } = await render();

    // Assert
    expect(code).toBe(0);
    const worker = JSON.parse(out).clusters[0];
    expect(worker.errors).toEqual([]);
    const io = captureIo(ROOT);
    await main(['render', '--registry', registry, '--directory', config, '--cluster', TEST, '--out', tmp], io);
    const written = readFileSync(
      join(tmp, 'aws_123456789012_eu-central-1_kube-test/node-pools/default-worker/userdata.yaml'),
      'utf8',
    );
    expect(written).toContain('# 2 4294967296 8Gi\n');
  });

  it('keeps YAML scalars as written in JSON output: an unquoted date stays a string', async () => {
    // Arrange
    const stack = join(config, 'cluster/cluster.yaml');
    writeFileSync(
      stack,
      readFileSync(stack, 'utf8').replace(
        'AWSTemplateFormatVersion: "2010-09-09"',
        'AWSTemplateFormatVersion: 2010-09-09',
      ),
    );
    writeFileSync(
      join(config, 'cluster/manifests/01-namespaces/dated.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dated, namespace: web}\ndata: {since: 2024-01-31}\n',
    );

    // Act
    const { code, out } = await render();

    // Assert
    expect(code).toBe(0);
    const cluster = JSON.parse(out).clusters[0];
    expect(cluster.stacks[0].template.AWSTemplateFormatVersion).toBe('2010-09-09');
    const dated = cluster.manifests.find((m: any) => m.file === 'dated.yaml');
    expect(dated.objects[0].data.since).toBe('2024-01-31');
  });
});
