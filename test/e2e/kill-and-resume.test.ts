// Kill `clm provision --simulate` (a child process) with SIGKILL at points spread over an update that
// rolls both pools of kube-test (new master and worker images), then run the same command again: it must
// finish the same work without repeating what was done — no node terminated twice, every outdated node
// replaced exactly once, no PDB violation, no finished stack deployed again.
import { rmSync } from 'node:fs';
import { runClm } from './support/clm-process';
import {
  TEST,
  clm,
  configWithNewImage,
  copyState,
  latestRun,
  loadProgress,
  loadWorld,
  poolInstances,
  tempDir,
  type PoolInstances,
  createKubeTest,
  kubeTestArgs,
} from './support/clm-session';

const POOLS = ['master-default', 'default-worker'];
let base: string;
let config: string;
let reference: { lines: number; targetVersion: string; stacks: number; progress: string[] };
const temps: string[] = [];

const args = (state: string): string[] => kubeTestArgs('provision', config, state);

beforeAll(async () => {
  base = tempDir('kill-base');
  config = configWithNewImage(['master-default', 'worker-default']);
  temps.push(base, config);
  await createKubeTest(base);
  // The same update uninterrupted (in process): how many progress lines and stacks it has.
  const state = copyState(base, 'kill-reference');
  temps.push(state);
  const run = await clm(args(state));
  if (run.code !== 0) throw new Error(`the reference update failed: ${run.out}`);
  const record = latestRun(state, TEST);
  const progress = run.out.split('\n').filter((l) => l.startsWith('  ['));
  reference = {
    lines: progress.length,
    progress,
    targetVersion: record.targetVersion,
    stacks: Object.keys(record.stacks).length,
  };
});

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

interface KillPoint {
  readonly lines: number;
  /** Stacks the saved run record knew (deploying or done) when the process died. */
  readonly knownStacks: number;
  /** Stacks done by then, with their CloudFormation operation counter. */
  readonly doneStacks: Record<string, number>;
  readonly deployCalls: number;
}

function stackTokens(state: string): Record<string, number> {
  return Object.fromEntries(
    Object.values(loadWorld(state).snapshot().accounts).flatMap((a) =>
      Object.values(a.stacks).map((s) => [s.name, s.token]),
    ),
  );
}

function afterKill(state: string, lines: number): KillPoint {
  const record = loadProgress(state).runs[`${TEST}|${reference.targetVersion}`];
  const tokens = stackTokens(state);
  const done = Object.entries(record?.stacks ?? {})
    .filter(([, s]) => s.status === 'done')
    .map(([name]) => name);
  return {
    lines,
    knownStacks: Object.keys(record?.stacks ?? {}).length,
    doneStacks: Object.fromEntries(done.map((name) => [name, tokens[name]!])),
    deployCalls: loadWorld(state).apiCalls()['stacks.deploy'] ?? 0,
  };
}

/** Kill after each number of progress lines in turn (each a new run of the same command), then finish. */
async function killAndResume(killAfter: readonly number[]): Promise<{
  state: string;
  before: Record<string, PoolInstances>;
  kills: KillPoint[];
  final: Awaited<ReturnType<typeof runClm>>;
}> {
  const state = copyState(base, 'kill');
  temps.push(state);
  const before = poolInstances(loadWorld(state), TEST);
  const kills: KillPoint[] = [];
  for (const n of killAfter) {
    const killed = await runClm(args(state), n);
    expect([n, killed.signal]).toEqual([n, 'SIGKILL']);
    kills.push(afterKill(state, killed.progressLines));
  }
  const final = await runClm(args(state));
  return { state, before, kills, final };
}

function expectExactlyOnce(state: string, before: Record<string, PoolInstances>): void {
  const world = loadWorld(state);
  const after = poolInstances(world, TEST);
  expect(world.invariants()).toEqual({ pdbViolations: 0, nodesTerminatedTwice: 0, details: [] });
  const run = loadProgress(state).runs[`${TEST}|${reference.targetVersion}`]!;
  expect(run.completedAt).toBeDefined();
  for (const pool of POOLS) {
    const old = before[pool]!.alive;
    // Every node of the old image is gone and the pool is back at its size (nodes launched during the update
    // and gone are the extras added for same-zone pairing, drained away at the end).
    expect([pool, after[pool]!.gone.filter((id) => old.includes(id))]).toEqual([pool, old]);
    expect([pool, after[pool]!.alive.length]).toEqual([pool, old.length]);
    expect(after[pool]!.alive.filter((id) => old.includes(id))).toEqual([]);
    expect([pool, run.pools[pool]!.replaced, run.pools[pool]!.total]).toEqual([pool, old.length, old.length]);
  }
}

function expectNoFinishedStackRedeployed(state: string, last: KillPoint): void {
  // The resumed run deploys only stacks the saved progress did not know yet; finished ones keep their operation counter.
  const deploys = (loadWorld(state).apiCalls()['stacks.deploy'] ?? 0) - last.deployCalls;
  expect(deploys).toBeLessThanOrEqual(reference.stacks - last.knownStacks);
  const tokens = stackTokens(state);
  for (const [name, token] of Object.entries(last.doneStacks)) expect([name, tokens[name]]).toEqual([name, token]);
}

/** The number of progress lines of the reference update up to and including the first one matching `pattern`. */
function linesThrough(pattern: RegExp): number {
  const index = reference.progress.findIndex((l) => pattern.test(l));
  if (index < 0) throw new Error(`no progress line of the reference update matches ${pattern}`);
  return index + 1;
}

describe('SIGKILL clm provision --simulate and run it again', () => {
  // Kill points found in the reference update's progress lines (their number depends on how long each wait is).
  it.each([
    ['after rendering, before the master pool stack finished', () => [linesThrough(/RenderClusterResources/)]],
    ['in the middle of the master roll', () => [linesThrough(/RollStep: master-default: 1\//)]],
    ['in the worker roll, after its first node was replaced', () => [linesThrough(/RollStep: default-worker: 1\//)]],
    [
      'twice: at the worker stack, then again 6 lines into the resumed run',
      () => [linesThrough(/DeployWorkerPoolStacks/), 6],
    ],
  ])('killed %s: resumes to success, each outdated node replaced exactly once', async (_when, points) => {
    // Act
    const { state, before, kills, final } = await killAndResume(points());

    // Assert
    for (const kill of kills) expect(kill.lines).toBeLessThan(reference.lines);
    expect(final.err).toBe('');
    expect(final.code).toBe(0);
    expect(final.out).toMatch(/resuming an unfinished run/);
    expect(final.out).toMatch(new RegExp(`succeeded +${TEST} `));
    expectExactlyOnce(state, before);
    expectNoFinishedStackRedeployed(state, kills.at(-1)!);
  });
});

describe('the kill sweep: SIGKILL after each progress line of the update, then the same command again', () => {
  // Every 4th line by default (bounded work for CI); CLM_KILL_SWEEP=all kills after every line.
  it('resumes to success from every kill point: each outdated node replaced exactly once, no finished stack redeployed', async () => {
    const stride = process.env.CLM_KILL_SWEEP === 'all' ? 1 : 4;
    const points = Array.from({ length: reference.lines - 1 }, (_, i) => i + 1).filter(
      (n) => n % stride === 0 || n === 1,
    );
    const anomalies: string[] = [];
    for (const n of points) {
      try {
        const { state, before, kills, final } = await killAndResume([n]);
        expect(final.err).toBe('');
        expect(final.code).toBe(0);
        expect(final.out).toMatch(new RegExp(`succeeded +${TEST} `));
        expectExactlyOnce(state, before);
        expectNoFinishedStackRedeployed(state, kills.at(-1)!);
      } catch (error) {
        anomalies.push(
          `killed after line ${n} (${reference.progress[n - 1]?.trim()}): ${String(error).split('\n')[0]}`,
        );
      }
    }
    process.stdout.write(
      `kill sweep: ${points.length} kill points of ${reference.lines} lines, ${anomalies.length} anomalies\n`,
    );
    expect(anomalies).toEqual([]);
  });
});
