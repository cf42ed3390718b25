// Commit statuses and the pull request comment, through the ReportToForge task (its contract, only its ports) against a
// fake GitHub API on loopback that keeps state and refuses what GitHub refuses.
import { generateKeyPairSync } from 'node:crypto';
import { githubTokenProvider } from '../../../lambdas/adapters/forge/github-app-token';
import { GithubForge } from '../../../lambdas/adapters/forge/github-forge';
import type { ExecutionStatusChange } from '../../../lambdas/contracts/triggers';
import { commentMarker } from '../../../lambdas/core/forge/pr-comment';
import type { Ports } from '../../../lambdas/ports/ports';
import { factoriesOf, restrictPorts } from '../../../lambdas/runtime/restrict-ports';
import { runTask } from '../../../lambdas/runtime/run-task';
import { findTask } from '../../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../../lambdas/tasks/define-task';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../../core/dispatch/fleet-fixtures';
import { MemoryArtifactStore } from '../../support/fakes/memory-artifact-store';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { FakeGithub } from '../../support/forge/fake-github';
import { pullRequestPlanInput } from './pull-request-plan-input';

const REPO = 'acme/cluster-config';
const TOKEN = 'ghp_reporting';
const ARN = 'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:';

let github: FakeGithub;
beforeEach(async () => {
  github = new FakeGithub({
    tokens: [TOKEN],
    repositories: { [REPO]: new Set([COMMIT_A, COMMIT_B]) },
    pulls: { [REPO]: [7] },
  });
  await github.listen();
});
afterEach(() => github.close());

function world(token = TOKEN) {
  const w = new FleetWorld(
    [fleetCluster('test-1', 'test', { current: COMMIT_A }), fleetCluster('test-2', 'test', { current: COMMIT_A })],
    settings(),
  );
  w.refs.set('main', COMMIT_B);
  const artifacts = new MemoryArtifactStore();
  const forge = new GithubForge({ apiUrl: github.url, token: async () => token });
  const ports: Ports = { ...w.ports, forge, artifacts };
  const run = (name: string, input: unknown) => {
    const task = findTask(name) as AnyTask;
    return runTask(task, input, restrictPorts(task.name, task.ports, factoriesOf(ports))) as Promise<any>;
  };
  return { w, artifacts, run };
}

const change = (name: string, status: string, input: unknown, extra: Partial<ExecutionStatusChange> = {}) => ({
  name,
  status,
  executionArn: `${ARN}${name}`,
  input: JSON.stringify(input),
  ...extra,
});

describe('ReportToForge: commit statuses', () => {
  it('sets clm/<alias> pending when the dispatcher starts an update, then success or failure at its end', async () => {
    // Arrange: a push starts both clusters
    const { w, run } = world();
    await run('DispatchFleet', {
      trigger: 'webhook',
      push: { repository: REPO, ref: 'refs/heads/main', commit: COMMIT_B },
    });
    const [one, two] = w.executions.started;

    // Act
    for (const e of w.executions.started) await run('ReportToForge', change(e.name, 'RUNNING', e.input));
    const pending = github.latestStatuses(REPO, COMMIT_B);
    w.executions.end(
      one!.name,
      'SUCCEEDED',
      undefined,
      `${COMMIT_B}#${String(one!.input.targetVersion).split('#')[1]}`,
    );
    w.executions.end(two!.name, 'FAILED', {
      error: 'StackFailedError',
      cause: 'stack kube-2 UPDATE_ROLLBACK_COMPLETE',
    });
    const ok = await run('ReportToForge', change(one!.name, 'SUCCEEDED', one!.input));
    await run('ReportToForge', change(two!.name, 'FAILED', two!.input, { error: 'StackFailedError' }));

    // Assert
    expect(pending).toEqual({ 'clm/test-1': 'pending', 'clm/test-2': 'pending' });
    expect(github.statusesOf(REPO, COMMIT_B).map((s) => [s.context, s.state])).toEqual([
      ['clm/test-1', 'pending'],
      ['clm/test-2', 'pending'],
      ['clm/test-1', 'success'],
      ['clm/test-2', 'failure'],
    ]);
    const failure = github.statusesOf(REPO, COMMIT_B).at(-1)!;
    expect(failure.description).toBe(`update failed: StackFailedError · ${two!.name}`);
    expect(failure.target_url).toBe(
      `https://eu-central-1.console.aws.amazon.com/states/home?region=eu-central-1#/v2/executions/details/${ARN}${two!.name}`,
    );
    expect(ok.message).toBe(`clm/test-1 success on ${REPO}@${COMMIT_B.slice(0, 12)}`);
    expect(github.statusesOf(REPO, COMMIT_A)).toEqual([]);
  });

  it('says what GitHub refused (bad credentials, a commit it does not have) and sets nothing', async () => {
    const { run } = world('ghp_wrong');
    const input = {
      clusterId: 'aws:123456789012:eu-central-1:test-1',
      action: 'provision',
      targetVersion: `${COMMIT_B}#h`,
    };
    const unknown = { ...input, targetVersion: `${'c'.repeat(40)}#h` };

    const bad = await run('ReportToForge', change('u-1', 'RUNNING', input));
    const { run: runOk } = world();
    const missing = await runOk('ReportToForge', change('u-2', 'RUNNING', unknown));
    const console = await runOk(
      'ReportToForge',
      change('u-3', 'FAILED', { clusterId: input.clusterId, action: 'provision' }),
    );

    expect(bad.problems).toEqual([expect.stringContaining('HTTP 401 Bad credentials')]);
    expect(missing.problems).toEqual([expect.stringContaining(`HTTP 422 No commit found for SHA: ${'c'.repeat(40)}`)]);
    expect(console).toMatchObject({ statuses: [], message: 'u-3: no commit known (started without a target version)' });
    expect(github.statusesOf(REPO, COMMIT_B)).toEqual([]);
  });

  it('refuses the 1001st status of a commit and context, as GitHub does', async () => {
    const forge = new GithubForge({ apiUrl: github.url, token: async () => TOKEN });
    const status = {
      repository: REPO,
      project: REPO,
      host: 'github.com',
      sha: COMMIT_A,
      state: 'pending' as const,
      context: 'clm/x',
      description: 'd',
    };
    for (let i = 0; i < 1000; i++) await forge.setStatus(status);
    await expect(forge.setStatus(status)).rejects.toThrow(
      'This SHA and context has reached the maximum number of statuses.',
    );
    await expect(forge.setStatus({ ...status, context: 'clm/y' })).resolves.toBeUndefined();
  });

  it('authenticates as a GitHub App with installation tokens minted from its key', async () => {
    // Arrange
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = {
      priv: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      pub: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    await github.close();
    github = new FakeGithub({
      apps: [{ appId: '123', publicKey: pem.pub, installations: [42] }],
      repositories: { [REPO]: new Set([COMMIT_A]) },
    });
    await github.listen();
    const app = (installationId: number) =>
      new GithubForge({
        apiUrl: github.url,
        token: githubTokenProvider({ kind: 'app', appId: '123', privateKey: pem.priv, installationId }, github.url),
      });
    const status = {
      repository: REPO,
      project: REPO,
      host: 'github.com',
      sha: COMMIT_A,
      state: 'success' as const,
      context: 'clm/a',
      description: 'ok',
    };

    // Act
    await app(42).setStatus(status);
    const other = await app(43)
      .setStatus(status)
      .catch((e: Error) => e.message);

    // Assert
    expect(github.latestStatuses(REPO, COMMIT_A)).toEqual({ 'clm/a': 'success' });
    expect(github.requests.filter((r) => r.path.startsWith('/app/')).map((r) => r.status)).toEqual([201, 404]);
    expect(other).toContain('GitHub App 123: no installation token for installation 43');
  });
});

describe('ReportToForge: the plan comment of a pull request', () => {
  const ids = ['aws:123456789012:eu-central-1:test-1', 'aws:123456789012:eu-central-1:test-2'];
  const planInput = (clusterId: string, head = COMMIT_B) => pullRequestPlanInput(clusterId, ids, head);
  const plan = {
    clusterId: ids[0],
    targetVersion: `${COMMIT_B}#h`,
    configItems: [],
    stacks: [{ name: 'kube-1', kind: 'cluster', action: 'update', changes: [{}, {}] }],
    objects: [
      {
        ref: { kind: 'Deployment', namespace: 'kube-system', name: 'coredns' },
        file: 'f',
        action: 'update',
        fields: [],
      },
    ],
    deletions: [{ ref: { kind: 'ConfigMap', namespace: 'default', name: 'old' }, reason: 'prune' }],
    pools: [{ pool: 'default-worker', nodes: 3, batches: 3, estimatedMinutes: 30 }],
    problems: [],
    notes: [],
  };

  const PLAN_KEY = 'runs/p/plan-x.json';
  /** PlanUpdate's output for `plan`, stored under PLAN_KEY. */
  const plannedOutput = () => ({
    plan: {
      targetVersion: plan.targetVersion,
      digest: 'x',
      planKey: PLAN_KEY,
      summary: 's',
      changes: true,
      problems: [],
    },
  });

  it('creates one comment, then updates it as each plan ends; never a second one', async () => {
    // Arrange
    const { artifacts, run } = world();
    await artifacts.put(PLAN_KEY, JSON.stringify(plan));
    const planned = plannedOutput();

    // Act
    const first = await run('ReportToForge', change('plan-1', 'RUNNING', planInput(ids[0]!)));
    const afterStart = github.commentsOf(REPO, 7).map((c) => c.body);
    await run('ReportToForge', change('plan-1', 'SUCCEEDED', planInput(ids[0]!), { output: JSON.stringify(planned) }));
    const last = await run(
      'ReportToForge',
      change('plan-2', 'FAILED', planInput(ids[1]!), {
        error: 'ConfigError',
        cause: 'commit bbbb is not on any branch or tag',
      }),
    );
    const synchronized = await run('ReportToForge', change('plan-3', 'RUNNING', planInput(ids[0]!, COMMIT_A)));

    // Assert
    expect(first.message).toMatch(/^acme\/cluster-config#7: plan comment created/);
    expect(afterStart).toHaveLength(1);
    expect(afterStart[0]).toContain('⏳ planning');
    expect([last.message, synchronized.message]).toEqual([
      expect.stringContaining('updated'),
      expect.stringContaining('updated'),
    ]);
    const comments = github.commentsOf(REPO, 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body.split(commentMarker(7))).toHaveLength(2);
    expect(comments[0]!.body).toContain(`### CLM plan for ${COMMIT_A.slice(0, 12)}`);
    expect(github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments'))).toHaveLength(1);
  });

  it('lists per cluster the stacks, objects created/changed/pruned, pools that roll and why a plan is missing', async () => {
    const { artifacts, run } = world();
    await artifacts.put(PLAN_KEY, JSON.stringify(plan));
    const planned = plannedOutput();

    await run('ReportToForge', change('plan-1', 'SUCCEEDED', planInput(ids[0]!), { output: JSON.stringify(planned) }));
    await run(
      'ReportToForge',
      change('plan-2', 'FAILED', planInput(ids[1]!), {
        error: 'ConfigError',
        cause: 'commit bbbb is not on any branch or tag',
      }),
    );

    const body = github.commentsOf(REPO, 7)[0]!.body;
    expect(body).toContain('📝 changes: 1 stack, 0 created, 1 changed, 1 pruned, 1 pool to roll');
    expect(body).toContain('- stacks: `kube-1 (update, 2 resources)`');
    expect(body).toContain('- changed: `Deployment/kube-system/coredns`');
    expect(body).toContain('- pruned: `ConfigMap/default/old`');
    expect(body).toContain('- pools to roll (about 30 min in all): `default-worker: 3 nodes, ~30 min`');
    expect(body).toContain('❌ no plan: ConfigError: commit bbbb is not on any branch or tag');
    expect(body).toContain('Nothing is applied from a pull request');
  });
});
