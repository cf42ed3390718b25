import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  FileProgressStore,
  LEGACY_PROGRESS_FILE,
  PROGRESS_DIR,
  openFileProgressStore,
  readProgressDir,
} from '../../../lambdas/adapters/progress/file-progress-store';
import { emptyProgressData } from '../../../lambdas/adapters/progress/memory-progress-store';
import { newRunRecord } from '../../../lambdas/core/model/run';
import { ConfigError, LeaseHeldError } from '../../../lambdas/shared/errors';
import { processHolder, processStartTime } from '../../../lambdas/shared/process-identity';

const C1 = 'aws:123456789012:eu-central-1:kube-1';
const C2 = 'aws:123456789012:eu-central-1:kube-2';
const status = (version: string) => ({
  currentVersion: version,
  lastVersion: '',
  nextVersion: '',
  problems: [],
  updatedAt: 1,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'clm-progress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileProgressStore', () => {
  it('keeps each cluster in its own file, so two stores on one directory never lose each other’s clusters', async () => {
    const a = new FileProgressStore(dir);
    const b = new FileProgressStore(dir);
    await a.putStatus(C1, status('v1'));
    await b.putStatus(C2, status('v2'));
    await a.putRun(
      newRunRecord({ clusterId: C1, targetVersion: 'v1', action: 'provision', holder: 'a', previousVersion: '' }, 0),
    );
    a.save();
    b.save();

    expect((await b.getStatus(C1))?.currentVersion).toBe('v1');
    expect((await a.getStatus(C2))?.currentVersion).toBe('v2');
    expect((await b.getRun(C1, 'v1'))?.revision).toBe(1);
    expect(readdirSync(join(dir, PROGRESS_DIR)).sort()).toEqual(
      [C1, C2].map((id) => `${encodeURIComponent(id)}.json`).sort(),
    );
    expect(readdirSync(dir).filter((name) => name !== PROGRESS_DIR)).toEqual([]); // no lock, no temp file left
    expect(Object.keys(readProgressDir(dir).statuses).sort()).toEqual([C1, C2]);
  });

  it('hands out copies of unsaved entries: changing what a read returned changes nothing stored', async () => {
    const store = new FileProgressStore(dir);
    await store.putStatus(C1, status('v1'));
    await store.putRun(
      newRunRecord({ clusterId: C1, targetVersion: 'v1', action: 'provision', holder: 'a', previousVersion: '' }, 0),
    );
    const read = (await store.getStatus(C1))!;
    (read as { currentVersion: string }).currentVersion = 'changed by a reader';
    const run = (await store.getRun(C1, 'v1'))!;
    (run as { holder: string }).holder = 'changed by a reader';
    expect((await store.getStatus(C1))?.currentVersion).toBe('v1');
    expect((await store.getRun(C1, 'v1'))?.holder).toBe('a');
    store.save();
    expect(JSON.stringify(readProgressDir(dir))).not.toContain('changed by a reader');
  });

  it('writes leases at once and everything else on save(), over what other processes wrote meanwhile', async () => {
    const a = new FileProgressStore(dir);
    const b = new FileProgressStore(dir);
    await a.acquireLease(C1, 'a', 60_000, 0);
    await a.putStatus(C1, status('v1'));

    await expect(b.acquireLease(C1, 'b', 60_000, 1)).rejects.toBeInstanceOf(LeaseHeldError);
    expect(await b.getStatus(C1)).toBeUndefined();
    expect((await a.getStatus(C1))?.currentVersion).toBe('v1'); // its own unsaved write
    await b.putControls(C1, { paused: true });
    b.save();
    a.save();

    const c = new FileProgressStore(dir);
    expect((await c.getStatus(C1))?.currentVersion).toBe('v1');
    expect(await c.getControls(C1)).toEqual({ paused: true });
    expect((await c.getLease(C1))?.holder).toBe('a');
  });

  it('reads a legacy progress.json and splits it into per-cluster files on the first write', async () => {
    const legacy = emptyProgressData();
    legacy.statuses[C1] = status('old-1');
    legacy.statuses[C2] = status('old-2');
    legacy.leases[C2] = { clusterId: C2, holder: 'someone', expiresAt: 10 };
    writeFileSync(join(dir, LEGACY_PROGRESS_FILE), JSON.stringify(legacy));
    const { store } = openFileProgressStore(dir);

    expect((await store.getStatus(C2))?.currentVersion).toBe('old-2');
    await store.putStatus(C1, status('new-1'));

    expect(existsSync(join(dir, LEGACY_PROGRESS_FILE))).toBe(false);
    store.save();
    const reopened = new FileProgressStore(dir);
    expect((await reopened.getStatus(C1))?.currentVersion).toBe('new-1');
    expect((await reopened.getStatus(C2))?.currentVersion).toBe('old-2');
    expect((await reopened.getLease(C2))?.holder).toBe('someone');
  });

  it.each([
    ['null', 'not progress: expected a JSON object, got null'],
    ['[]', 'not progress: expected a JSON object, got a list'],
    ['"progress"', 'not progress: expected a JSON object, got string'],
    ['{"statuses": null}', 'not progress: "statuses" is null, expected an object'],
    ['{"runs": [1]', 'cannot read progress: '],
  ])('refuses a progress file holding %s, naming the file, for reads and writes alike', async (text, message) => {
    for (const file of [join(dir, LEGACY_PROGRESS_FILE), join(dir, PROGRESS_DIR, `${encodeURIComponent(C1)}.json`)]) {
      rmSync(join(dir, PROGRESS_DIR), { recursive: true, force: true });
      rmSync(join(dir, LEGACY_PROGRESS_FILE), { force: true });
      mkdirSync(join(dir, PROGRESS_DIR));
      writeFileSync(file, text);
      const { store } = openFileProgressStore(dir);

      await expect(store.getStatus(C1)).rejects.toThrow(ConfigError);
      await expect(store.getStatus(C1)).rejects.toThrow(`${file}: ${message}`);
      await expect(store.putStatus(C1, status('v'))).rejects.toThrow(`${file}: ${message}`);
      expect(() => readProgressDir(dir)).toThrow(`${file}: ${message}`);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('reads a progress file without some entries as empty ones', async () => {
    writeFileSync(join(dir, LEGACY_PROGRESS_FILE), JSON.stringify({ statuses: { [C1]: status('v1') } }));

    expect(await new FileProgressStore(dir).getStatus(C1)).toEqual(status('v1'));
    expect(await new FileProgressStore(dir).getLease(C1)).toBeUndefined();
  });

  it('takes over at once a lease whose holder is a CLI process known to be gone, and waits for a live one', async () => {
    const store = new FileProgressStore(dir);
    const parent = { host: hostname(), pid: process.ppid, startedAt: processStartTime(process.ppid) ?? 0 };
    const dead = { host: hostname(), pid: 2 ** 22 + 17, startedAt: 1 }; // above any pid_max: never running
    const elsewhere = { host: `${hostname()}-other`, pid: 2 ** 22 + 17, startedAt: 1 };
    const reused = { ...parent, startedAt: parent.startedAt - 60_000 };

    await store.acquireLease(C1, processHolder(dead), 60_000, 0);
    await expect(store.acquireLease(C1, 'cli:me:1:1', 60_000, 1)).resolves.toMatchObject({ holder: 'cli:me:1:1' });

    await store.acquireLease(C2, processHolder(parent), 60_000, 0);
    await expect(store.acquireLease(C2, 'cli:me:1:1', 60_000, 1)).rejects.toThrow(processHolder(parent));
    await store.releaseLease(C2, processHolder(parent));
    await store.acquireLease(C2, processHolder(elsewhere), 60_000, 0);
    await expect(store.acquireLease(C2, 'cli:me:1:1', 60_000, 1)).rejects.toBeInstanceOf(LeaseHeldError);
    await store.releaseLease(C2, processHolder(elsewhere));
    if (processStartTime(process.ppid) !== undefined) {
      await store.acquireLease(C2, processHolder(reused), 60_000, 0);
      await expect(store.acquireLease(C2, 'cli:me:1:1', 60_000, 1)).resolves.toBeDefined();
    }
  });

  it('gives a lease to exactly one of several processes racing for it', async () => {
    const script = join(dir, 'race.ts');
    const module = resolve(__dirname, '../../../lambdas/adapters/progress/file-progress-store.ts');
    writeFileSync(
      script,
      `import { FileProgressStore } from ${JSON.stringify(module)};
const store = new FileProgressStore(${JSON.stringify(dir)});
store.acquireLease('c', 'holder-' + process.argv[2], 60_000, 0).then(
  () => console.log('won'),
  (error) => console.log(error.name),
);`,
    );
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(
        (n) =>
          new Promise<string>((done, fail) => {
            const child = spawn(process.execPath, ['--import', 'tsx', script, String(n)], {
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
            child.on('error', fail);
            child.on('close', () => done(out.trim()));
          }),
      ),
    );

    expect(outputs.filter((o) => o === 'won')).toHaveLength(1);
    expect(outputs.filter((o) => o === 'LeaseHeldError')).toHaveLength(3);
    const winner = JSON.parse(readFileSync(join(dir, PROGRESS_DIR, 'c.json'), 'utf8')).leases.c.holder;
    expect(winner).toMatch(/^holder-[1-4]$/);
  }, 60_000);
});
