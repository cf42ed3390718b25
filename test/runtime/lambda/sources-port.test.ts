// The config sources of a warm Lambda container: a push that arrives right after another pass in the same container
// must be resolved from the repository as it is now, not from the mirror the previous invocation fetched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';
import { sourcesFactory } from '../../../lambdas/runtime/lambda/ports/sources';
import { createBareRepo, startGitServer, type GitServer } from '../../support/git-server';

describe('the Lambda config sources port', () => {
  let root: string;
  let server: GitServer;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'clm-sources-port-'));
    server = await startGitServer({ projectRoot: root });
  });

  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('resolves a channel to the commit pushed since the previous resolve, however soon after', async () => {
    // Arrange
    const repo = createBareRepo(root, 'config');
    const first = repo.commit({ 'cluster/cluster.yaml': 'a: 1\n' }, 'first');
    const env = lambdaEnvironment({
      AWS_REGION: 'eu-central-1',
      CLM_CONFIG_SOURCES: `main:git:${server.url}/config.git`,
    });
    const [source] = sourcesFactory(env, {})();
    const before = await source.resolveVersion('main');

    // Act: a push lands, and the next pass in this container resolves the channel at once
    const second = repo.commit({ 'cluster/cluster.yaml': 'a: 2\n' }, 'second');
    const after = await source.resolveVersion('main');

    // Assert
    expect({ before, after }).toEqual({ before: first, after: second });
  });
});
