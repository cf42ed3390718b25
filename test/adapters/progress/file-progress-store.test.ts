import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROGRESS_FILE, openFileProgressStore } from '../../../lambdas/adapters/progress/file-progress-store';
import { LeaseHeldError } from '../../../lambdas/shared/errors';

describe('openFileProgressStore', () => {
  it('keeps leases, runs and status across processes through progress.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-progress-'));
    const first = openFileProgressStore(dir);
    await first.store.acquireLease('c1', 'cli:host:c1', 60_000, 1000);
    await first.store.putStatus('c1', {
      currentVersion: 'v1',
      lastVersion: '',
      nextVersion: '',
      problems: [],
      updatedAt: 1000,
    });
    first.save();
    expect(JSON.parse(readFileSync(join(dir, PROGRESS_FILE), 'utf8')).leases.c1.holder).toBe('cli:host:c1');

    const second = openFileProgressStore(dir);
    expect((await second.store.getStatus('c1'))?.currentVersion).toBe('v1');
    await expect(second.store.acquireLease('c1', 'someone-else', 60_000, 2000)).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(second.store.acquireLease('c1', 'cli:host:c1', 60_000, 2000)).resolves.toMatchObject({
      expiresAt: 62_000,
    });
  });
});
