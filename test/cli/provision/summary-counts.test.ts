import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../lambdas/cli/main';
import { captureIo } from '../../support/cli-io';

const ROOT = resolve(__dirname, '../../..');
const KUBE_TEST = 'aws:123456789012:eu-central-1:kube-test';

interface Summary {
  readonly status: string;
  readonly nodesReplaced: number;
}

async function provision(dir: string, config: string): Promise<Summary> {
  const io = captureIo(dir);
  const args = ['provision', '--simulate', '--registry', join(ROOT, 'examples/clusters.yaml'), '--directory', config];
  const code = await main([...args, '--state', 'state', '--cluster', KUBE_TEST, '--output', 'json'], io);
  expect({ code, err: io.err }).toEqual({ code: 0, err: '' });
  return (JSON.parse(io.out) as { clusters: Summary[] }).clusters[0]!;
}

describe('clm provision summary', () => {
  it('counts the nodes this run replaced: a run with nothing to do replaced none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-summary-'));
    try {
      // Arrange: kube-test created, then its worker image changed
      await provision(dir, join(ROOT, 'examples/config'));
      const config = join(dir, 'config');
      cpSync(join(ROOT, 'examples/config'), config, { recursive: true });
      const stack = join(config, 'cluster/node-pools/worker-default/stack.yaml');
      writeFileSync(
        stack,
        readFileSync(stack, 'utf8').replace('ImageId: {{NodePool.ConfigItems.ami_id}}', 'ImageId: ami-0feedface0001'),
      );

      // Act
      const rolled = await provision(dir, config);
      const again = await provision(dir, config);

      // Assert
      expect(rolled).toMatchObject({ status: 'succeeded', nodesReplaced: 2 });
      expect(again).toMatchObject({ status: 'unchanged', nodesReplaced: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
