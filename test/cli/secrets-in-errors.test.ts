import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { startRegistryServer, type RegistryServer } from '../support/registry-server';

// What `clm` prints when the registry refuses it: never the token (given by flag or CLM_TOKEN), never a URL's password.
const ROOT = resolve(__dirname, '../..');
const TOKEN = 'tok-cli-4b1c9e02';
const PASSWORD = 'pw-cli-77d0aa13';

async function clm(args: string[]): Promise<{ code: number; text: string }> {
  const io: CliIo & { text: string } = {
    text: '',
    cwd: ROOT,
    stdout: (t) => void (io.text += t),
    stderr: (t) => void (io.text += t),
  };
  const code = await main(args, io);
  return { code, text: io.text };
}

let server: RegistryServer;
let state: string;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'clm-secrets-'));
});
afterEach(async () => {
  await server?.close();
  rmSync(state, { recursive: true, force: true });
});

describe('clm: secrets in registry errors', () => {
  it('a token the registry echoes back is not printed', async () => {
    server = await startRegistryServer({ token: TOKEN });
    server.fail({}, { kind: 'echoAuthorization', status: 403, plain: true });
    const run = await clm(['status', '--registry', server.url, '--token', TOKEN, '--state', state]);
    expect(run.code).toBe(2);
    expect(run.text).toContain('403');
    expect(run.text).not.toContain(TOKEN);
  });

  it('a registry URL’s user:password@ is not printed', async () => {
    server = await startRegistryServer({ basic: { user: 'ana', password: 'right-password' } });
    const url = server.url.replace('http://', `http://ana:${PASSWORD}@`);
    const run = await clm(['status', '--registry', url, '--state', state]);
    expect(run.code).toBe(2);
    expect(run.text).toContain('401');
    expect(run.text).not.toContain(PASSWORD);
  });
});
