import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decideApproval } from '../../lambdas/cli/commands/approval-run';
import type { CliIo } from '../../lambdas/cli/io';
import { main } from '../../lambdas/cli/main';
import { openFileProgressStore } from '../../lambdas/adapters/progress/file-progress-store';
import type { ApprovalRecord } from '../../lambdas/core/approval/approval';
import type { TaskTokens } from '../../lambdas/ports/task-tokens';

const ROOT = resolve(__dirname, '../..');
const CLUSTER = 'aws:123456789012:eu-central-1:kube-test';

function io(): CliIo & { out: string; err: string } {
  const io: CliIo & { out: string; err: string } = {
    out: '',
    err: '',
    cwd: ROOT,
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
  };
  return io;
}

const PENDING: ApprovalRecord = {
  status: 'PENDING',
  targetVersion: 'abc#def',
  planDigest: '0123456789abcdef',
  planKey: 'runs/kube-test/v/plan-0123456789abcdef.json',
  summary: 'abc#def: 2 node replacements',
  requestedAt: 1,
};

/** Task tokens that record what was sent; `over` says the wait had ended already. */
function recordingTokens(over = false): TaskTokens & { sent: unknown[][] } {
  const sent: unknown[][] = [];
  return {
    sent,
    succeed: async (token, output) => (sent.push(['success', token, output]), !over),
    fail: async (token, error, cause) => (sent.push(['failure', token, error, cause]), !over),
  };
}

describe('clm approve and clm reject', () => {
  let state: string;
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'clm-approval-'));
  });
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  async function seed(record: ApprovalRecord, extra: object = {}): Promise<void> {
    const { store, save } = openFileProgressStore(state);
    await store.putControls(CLUSTER, { ...extra, approval: record });
    save();
  }
  const stored = async () => (await openFileProgressStore(state).store.getControls(CLUSTER))!;

  it('sends a deployed execution its task token back: success with the decision, and drops the token', async () => {
    await seed({ ...PENDING, taskToken: 'AAAA-token' });
    const tokens = recordingTokens();
    const out = io();
    await decideApproval(CLUSTER, 'APPROVED', { state, reason: 'CAB-7' }, out, async () => tokens);
    expect(tokens.sent).toEqual([
      ['success', 'AAAA-token', expect.objectContaining({ status: 'APPROVED', digest: PENDING.planDigest })],
    ]);
    expect((await stored()).approval).toEqual(
      expect.objectContaining({ status: 'APPROVED', reason: 'CAB-7', by: expect.stringMatching(/@/) }),
    );
    expect((await stored()).approval!.taskToken).toBeUndefined();
    expect(out.out).toContain('the waiting execution goes on');
  });

  it('fails the waiting state with UpdateRejectedError on reject, and says so when the wait was over', async () => {
    await seed({ ...PENDING, taskToken: 'BBBB-token' });
    const tokens = recordingTokens(true);
    const out = io();
    await decideApproval(CLUSTER, 'REJECTED', { state, reason: 'not now' }, out, async () => tokens);
    expect(tokens.sent).toEqual([['failure', 'BBBB-token', 'UpdateRejectedError', expect.stringContaining('not now')]]);
    expect(out.out).toContain('no longer waits');
  });

  it('keeps the approval when paused and resumed, and refuses what cannot be decided', async () => {
    await seed(PENDING);
    expect(await main(['pause', CLUSTER, '--state', state, '--registry', 'examples/clusters.yaml'], io())).toBe(0);
    expect(await main(['resume', CLUSTER, '--state', state, '--registry', 'examples/clusters.yaml'], io())).toBe(0);
    expect((await stored()).approval).toEqual(PENDING);
    const wrong = io();
    expect(await main(['approve', CLUSTER, '--state', state, '--plan', 'ffff'], wrong)).toBe(2);
    expect(wrong.err).toContain('the pending plan is 0123456789abcdef');
    expect(await main(['approve', CLUSTER, '--state', state], io())).toBe(0);
    const again = io();
    expect(await main(['approve', CLUSTER, '--state', state], again)).toBe(2);
    expect(again.err).toContain('already approved');
    const none = io();
    expect(await main(['reject', 'aws:123456789012:eu-central-1:other', '--state', state], none)).toBe(2);
    expect(none.err).toContain('no update awaits approval');
  });
});
