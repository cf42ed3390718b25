import { HttpRegistry } from '../../../lambdas/adapters/registry/http-registry';
import { problemFromError, appendProblem } from '../../../lambdas/core/status/problems';
import { startRegistryServer, type RegistryServer } from '../../support/registry-server';
import { ACCOUNT, wireCluster } from './fixtures';

// Secrets in registry errors: a server that echoes the credential it refused, and a registry URL with user:password@.
const TOKEN = 'tok-91be0c4d-echoed';
const PASSWORD = 'pw-5e2d77a1-in-url';
const noSleep = async () => undefined;

let server: RegistryServer;
afterEach(async () => server?.close());

/** Everything a failed call shows: the message, the serialized error, and the problem recorded from it. */
async function shown(registry: HttpRegistry): Promise<string> {
  const error = (await registry.listClusters().catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(Error);
  const problem = appendProblem([], problemFromError(error));
  return [error.message, error.stack, JSON.stringify(error), JSON.stringify(problem), registry.description].join('\n');
}

describe('HttpRegistry: no secret in what a failure shows', () => {
  it('a bearer token the server echoes in its error body, with or without the scheme', async () => {
    server = await startRegistryServer({ clusters: [wireCluster('kube-1')], token: TOKEN });
    for (const plain of [false, true]) {
      server.fail({}, { kind: 'echoAuthorization', status: 403, plain }, 1);
      const text = await shown(new HttpRegistry({ baseUrl: server.url, token: TOKEN, sleep: noSleep }));
      expect(text).toContain('403');
      expect(text).not.toContain(TOKEN);
    }
  });

  it('a registry URL with user:password@: the credentials are sent as Basic auth and never shown', async () => {
    server = await startRegistryServer({
      clusters: [wireCluster('kube-1')],
      accounts: [{ id: ACCOUNT, name: 'a', owner: 'team/a', lifecycle_status: 'ready' }],
      basic: { user: 'ana', password: PASSWORD },
    });
    const baseUrl = server.url.replace('http://', `http://ana:${PASSWORD}@`);
    const registry = new HttpRegistry({ baseUrl, sleep: noSleep });

    expect((await registry.listClusters()).map((c) => c.id)).toEqual([wireCluster('kube-1').id]);
    expect(registry.description).toBe(server.url.replace('http://', 'http://***@'));
    server.fail({}, { kind: 'echoAuthorization', status: 401 }, 1);
    const text = await shown(registry);
    expect(text).toContain('401');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(`ana:${PASSWORD}`).toString('base64'));
  });
});
