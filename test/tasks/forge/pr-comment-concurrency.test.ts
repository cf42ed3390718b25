// Plans of one pull request ending at the same moment: one comment, every cluster's section, with the comment
// record kept in the in-memory store (its conditional-write rules) and in a real DynamoDB Local.
import { DynamoDbFleetStore } from '../../../lambdas/adapters/fleet/dynamodb-fleet-store';
import { GithubForge } from '../../../lambdas/adapters/forge/github-forge';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import { commentMarker } from '../../../lambdas/core/forge/pr-comment';
import type { FleetStore } from '../../../lambdas/ports/fleet-store';
import type { Ports } from '../../../lambdas/ports/ports';
import { factoriesOf, restrictPorts } from '../../../lambdas/runtime/restrict-ports';
import { runTask } from '../../../lambdas/runtime/run-task';
import { findTask } from '../../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../../lambdas/tasks/define-task';
import { COMMIT_A, COMMIT_B, fleetCluster, settings } from '../../core/dispatch/fleet-fixtures';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../support/dynamodb-local';
import { MemoryArtifactStore } from '../../support/fakes/memory-artifact-store';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { FakeGithub } from '../../support/forge/fake-github';
import { pullRequestPlanInput } from './pull-request-plan-input';

const REPO = 'acme/cluster-config';
const TOKEN = 'ghp_reporting';
const CLUSTERS = Array.from({ length: 6 }, (_, i) => `aws:123456789012:eu-central-1:test-${i + 1}`);
const PLAN_KEY = 'runs/p/plan-x.json';
const PLAN = {
  clusterId: CLUSTERS[0],
  targetVersion: `${COMMIT_B}#h`,
  configItems: [],
  stacks: [],
  objects: [],
  deletions: [],
  pools: [{ pool: 'default-worker', nodes: 3, batches: 3, estimatedMinutes: 30 }],
  problems: [],
  notes: [],
};
const PLANNED = {
  plan: {
    targetVersion: PLAN.targetVersion,
    digest: 'x',
    planKey: PLAN_KEY,
    summary: 's',
    changes: true,
    problems: [],
  },
};

let local: DynamoDbLocal;
let tables = 0;
let github: FakeGithub;
beforeAll(async () => {
  local = await startDynamoDbLocal();
}, 60_000);
afterAll(() => local?.stop());
beforeEach(async () => {
  github = new FakeGithub({
    tokens: [TOKEN],
    repositories: { [REPO]: new Set([COMMIT_A, COMMIT_B]) },
    pulls: { [REPO]: [7] },
  });
  await github.listen();
});
afterEach(() => github.close());

/** A store whose reads answer only after everything else due has run: concurrent reports all read before any writes. */
function lagging(store: FleetStore): FleetStore {
  return Object.assign(Object.create(store) as FleetStore, {
    getPullRequestComment: async (repository: string, number: number) => {
      const record = await store.getPullRequestComment(repository, number);
      await new Promise((done) => setImmediate(done));
      return record;
    },
  });
}

const stores: [string, () => Promise<FleetStore>][] = [
  ['memory', async () => lagging(new MemoryFleetStore({ settings: settings() }))],
  [
    'dynamodb-local',
    async () => {
      const name = `pr-comments-${++tables}`;
      await local.createTable(name);
      return new DynamoDbFleetStore(local.client, name, settings());
    },
  ],
];

async function reporter(fleet: FleetStore) {
  const w = new FleetWorld(
    CLUSTERS.map((id) => fleetCluster(id.split(':').at(-1)!, 'test', { current: COMMIT_A })),
    settings(),
  );
  const artifacts = new MemoryArtifactStore();
  await artifacts.put(PLAN_KEY, JSON.stringify(PLAN));
  const ports: Ports = {
    ...w.ports,
    fleet,
    artifacts,
    forge: new GithubForge({ apiUrl: github.url, token: async () => TOKEN }),
  };
  const task = findTask('ReportToForge') as AnyTask;
  return (change: object) =>
    runTask(task, change, restrictPorts(task.name, task.ports, factoriesOf(ports))) as Promise<any>;
}

const planOf = (clusterId: string, head = COMMIT_B) => pullRequestPlanInput(clusterId, CLUSTERS, head);
const ended = (i: number, head = COMMIT_B) =>
  i % 2
    ? {
        name: `plan-${i}`,
        status: 'FAILED',
        error: 'ConfigError',
        cause: `broken ${i}`,
        input: JSON.stringify(planOf(CLUSTERS[i]!, head)),
      }
    : {
        name: `plan-${i}`,
        status: 'SUCCEEDED',
        output: JSON.stringify(PLANNED),
        input: JSON.stringify(planOf(CLUSTERS[i]!, head)),
      };

const posts = () => github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments')).length;

describe.each(stores)('the plan comment of plans ending at once (%s)', (_kind, create) => {
  it('is created once and carries every cluster’s section', async () => {
    const report = await reporter(await create());

    const results = await Promise.all(CLUSTERS.map((_, i) => report(ended(i))));

    const comments = github.commentsOf(REPO, 7);
    expect({ comments: comments.length, posts: posts() }).toEqual({ comments: 1, posts: 1 });
    const body = comments[0]!.body;
    expect(body.split(commentMarker(7))).toHaveLength(2);
    expect(body).not.toContain('⏳ planning');
    for (let i = 1; i < CLUSTERS.length; i += 2) expect(body).toContain(`ConfigError: broken ${i}`);
    expect(body.match(/pools to roll/g)).toHaveLength(CLUSTERS.length / 2);
    expect(results.filter((r) => /plan comment created/.test(r.message))).toHaveLength(1);
  });

  it('starts over with a later push; a late end of the earlier head changes nothing', async () => {
    const report = await reporter(await create());
    await Promise.all([report(ended(0)), report(ended(1))]);

    await Promise.all([report(ended(2, COMMIT_A)), report(ended(3, COMMIT_A))]);
    const late = await report(ended(4));

    const body = github.commentsOf(REPO, 7)[0]!.body;
    expect(github.commentsOf(REPO, 7)).toHaveLength(1);
    expect(body).toContain(`### CLM plan for ${COMMIT_A.slice(0, 12)}`);
    expect(body).toContain('ConfigError: broken 3');
    expect(body).not.toContain('ConfigError: broken 1');
    expect(late.message).toContain('superseded by a later push');
  });
});
