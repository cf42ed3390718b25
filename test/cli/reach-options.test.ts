import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../lambdas/cli/main';
import type { CliIo } from '../../lambdas/cli/io';
import { stateTable } from '../../lambdas/cli/state-stores';
import { startRegistryServer } from '../support/registry-server';

const ROOT = resolve(__dirname, '../..');

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

async function clm(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture();
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('clm --version', () => {
  it("prints package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await clm('--version')).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });
});

describe('secrets from the environment', () => {
  const saved = process.env.CLM_TOKEN;
  afterEach(() => {
    if (saved === undefined) delete process.env.CLM_TOKEN;
    else process.env.CLM_TOKEN = saved;
  });

  it('says which variables every reaching flag reads', async () => {
    for (const command of ['provision', 'decommission', 'dispatch', 'serve']) {
      const help = (await clm(command, '--help')).out.replace(/\s+/g, ' ');
      for (const variable of ['CLM_TOKEN', 'CLM_ASSUMED_ROLE', 'CLM_EXTERNAL_ID'])
        expect({ command, variable, listed: help.includes(`env: ${variable}`) }).toEqual({
          command,
          variable,
          listed: true,
        });
    }
    expect((await clm('status', '--help')).out.replace(/\s+/g, ' ')).toContain('env: CLM_TOKEN');
  });

  it('sends CLM_TOKEN to the registry when no --token is given, and --token when it is', async () => {
    const server = await startRegistryServer({ token: 'from-env' });
    const state = mkdtempSync(join(tmpdir(), 'clm-env-'));
    try {
      process.env.CLM_TOKEN = 'from-env';
      const fromEnv = await clm('status', '--registry', server.url, '--state', state);
      expect(fromEnv.code).toBe(0);
      const wrongFlag = await clm('status', '--registry', server.url, '--state', state, '--token', 'from-flag');
      expect(wrongFlag.code).toBe(2);
      const auth = server.requests.map((r) => r.headers.authorization);
      expect(auth).toEqual(expect.arrayContaining(['Bearer from-env', 'Bearer from-flag']));
      expect(wrongFlag.err).not.toContain('from-flag');
    } finally {
      await server.close();
      rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('--state dynamodb://TABLE', () => {
  it('names the deployed table, and refuses what is not one', () => {
    expect(stateTable('dynamodb://clm-progress')).toBe('clm-progress');
    expect(stateTable('.clm-state')).toBeUndefined();
    expect(() => stateTable('dynamodb://')).toThrow('give the deployed progress table as dynamodb://TABLE');
    expect(() => stateTable('dynamodb://a b')).toThrow('dynamodb://TABLE');
  });

  it('is refused with --simulate and by clm dispatch, whose state lives in a directory', async () => {
    const args = ['--registry', 'examples/clusters.yaml', '--directory', 'examples/config', '--simulate'];
    const provision = await clm('provision', ...args, '--state', 'dynamodb://clm-progress');
    expect(provision.code).toBe(2);
    expect(provision.err).toContain('the simulated world lives in a directory');
    const dispatch = await clm('dispatch', ...args, '--state', 'dynamodb://clm-progress');
    expect(dispatch.code).toBe(2);
    expect(dispatch.err).toContain('keep the fleet in a directory');
  });
});
