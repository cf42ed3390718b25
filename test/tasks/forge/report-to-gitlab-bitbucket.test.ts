// Commit statuses on GitLab and Bitbucket Cloud through the ReportToForge task (its contract, only its ports): each
// config source's commit goes to the forge of its URL's host, against fakes of the three forges on loopback that keep
// state and refuse what the real APIs refuse.
import { parseForgeSecret } from '../../../lambdas/adapters/forge/forge-secret';
import { forgesFromSecret } from '../../../lambdas/adapters/forge/forges-from-secret';
import type { ConfigSource } from '../../../lambdas/ports/config-source';
import type { Ports } from '../../../lambdas/ports/ports';
import { factoriesOf, restrictPorts } from '../../../lambdas/runtime/restrict-ports';
import { runTask } from '../../../lambdas/runtime/run-task';
import { findTask } from '../../../lambdas/tasks/catalogue';
import type { AnyTask } from '../../../lambdas/tasks/define-task';
import { fleetCluster, settings } from '../../core/dispatch/fleet-fixtures';
import { FleetWorld } from '../../support/fleet/fleet-world';
import { FakeBitbucket } from '../../support/forge/fake-bitbucket';
import { FakeGithub } from '../../support/forge/fake-github';
import { FakeGitlab } from '../../support/forge/fake-gitlab';

const GL_PROJECT = 'acme/platform/cluster-config';
const BB_REPO = 'acme/cluster-config';
const GH_REPO = 'acme/stacks';
const GL_SHA = '1'.repeat(40);
const BB_SHA = '2'.repeat(40);
const GH_SHA = '3'.repeat(40);
const TOKENS = { github: 'ghp_routing_token', gitlab: 'glpat-routing-token', bitbucket: 'bb-routing-token' };
const ARN = 'arn:aws:states:eu-central-1:123456789012:execution:clm-cluster-update:';
const ID = (name: string) => `aws:123456789012:eu-central-1:${name}`;

let gitlab: FakeGitlab;
let bitbucket: FakeBitbucket;
let github: FakeGithub;
beforeEach(async () => {
  gitlab = new FakeGitlab({ tokens: [TOKENS.gitlab], projects: { [GL_PROJECT]: new Set([GL_SHA]) } });
  bitbucket = new FakeBitbucket({ tokens: [TOKENS.bitbucket], repositories: { [BB_REPO]: new Set([BB_SHA]) } });
  github = new FakeGithub({ tokens: [TOKENS.github], repositories: { [GH_REPO]: new Set([GH_SHA]) } });
  await Promise.all([gitlab.listen(), bitbucket.listen(), github.listen()]);
});
afterEach(() => Promise.all([gitlab.close(), bitbucket.close(), github.close()]));

function world(secret: Record<string, unknown>, locations: Record<string, string>) {
  const w = new FleetWorld([fleetCluster('test-1'), fleetCluster('test-2')], settings());
  const sources: ConfigSource[] = Object.entries(locations).map(([name, location]) => ({
    ...w.source,
    name,
    location,
  }));
  const forge = forgesFromSecret(parseForgeSecret(JSON.stringify(secret), 'secret clm/forge'));
  const ports: Ports = { ...w.ports, sources, forge };
  const task = findTask('ReportToForge') as AnyTask;
  return (name: string, status: string, input: unknown) =>
    runTask(
      task,
      { name, status, executionArn: `${ARN}${name}`, input: JSON.stringify(input) },
      restrictPorts(task.name, task.ports, factoriesOf(ports)),
    ) as Promise<any>;
}

const ALL = {
  github: { token: TOKENS.github, apiUrl: '' },
  gitlab: { token: TOKENS.gitlab, apiUrl: '' },
  bitbucket: { token: TOKENS.bitbucket, apiUrl: '' },
};
const allForges = () => ({
  github: { ...ALL.github, apiUrl: github.url },
  gitlab: { ...ALL.gitlab, apiUrl: gitlab.apiUrl },
  bitbucket: { ...ALL.bitbucket, apiUrl: bitbucket.apiUrl },
});
const update = (cluster: string, targetVersion: string) => ({
  clusterId: ID(cluster),
  action: 'provision',
  targetVersion,
});

describe('ReportToForge: commit statuses on the forge of each config source', () => {
  it('sets pending then success or failure on GitLab, Bitbucket and GitHub sources of one update', async () => {
    // Arrange: three sources, one per forge, in one config version
    const run = world(allForges(), {
      gl: `https://gitlab.com/${GL_PROJECT}.git`,
      bb: `git@bitbucket.org:${BB_REPO}.git`,
      gh: `https://github.com/${GH_REPO}.git`,
    });
    const version = `gl=${GL_SHA};bb=${BB_SHA};gh=${GH_SHA}#h`;

    // Act
    const started = await run('u-1', 'RUNNING', update('test-1', version));
    await run('u-2', 'RUNNING', update('test-2', version));
    const midway = { gitlab: gitlab.statusesOf(GL_PROJECT, GL_SHA), bitbucket: bitbucket.statusesOf(BB_REPO, BB_SHA) };
    const done = await run('u-1', 'SUCCEEDED', update('test-1', version));
    await run('u-2', 'FAILED', update('test-2', version));

    // Assert
    expect(started.problems).toEqual([]);
    expect(started.statuses.map((s: { repository: string }) => s.repository)).toEqual([
      'platform/cluster-config',
      BB_REPO,
      GH_REPO,
    ]);
    expect(midway.gitlab).toEqual([
      ['clm/test-1', 'running'],
      ['clm/test-2', 'running'],
    ]);
    expect(midway.bitbucket.map((s) => [s.key, s.state])).toEqual([
      ['clm/test-1', 'INPROGRESS'],
      ['clm/test-2', 'INPROGRESS'],
    ]);
    expect(done.problems).toEqual([]);
    expect(gitlab.statusesOf(GL_PROJECT, GL_SHA)).toEqual([
      ['clm/test-1', 'success'],
      ['clm/test-2', 'failed'],
    ]);
    expect(bitbucket.statusesOf(BB_REPO, BB_SHA).map((s) => [s.key, s.state, s.url])).toEqual([
      ['clm/test-1', 'SUCCESSFUL', expect.stringContaining(`${ARN}u-1`)],
      ['clm/test-2', 'FAILED', expect.stringContaining(`${ARN}u-2`)],
    ]);
    expect(github.latestStatuses(GH_REPO, GH_SHA)).toEqual({ 'clm/test-1': 'success', 'clm/test-2': 'failure' });
  });

  it('sends a self-hosted GitLab host named in "hosts" to GitLab; a start reported twice is no problem', async () => {
    const run = world(
      { gitlab: { token: TOKENS.gitlab, apiUrl: gitlab.apiUrl, hosts: ['git.example.com'] } },
      { main: `https://git.example.com/${GL_PROJECT}` },
    );

    const first = await run('u-1', 'RUNNING', update('test-1', `${GL_SHA}#h`));
    const again = await run('u-1', 'RUNNING', update('test-1', `${GL_SHA}#h`));
    const aborted = await run('u-1', 'ABORTED', update('test-1', `${GL_SHA}#h`));

    expect([first.problems, again.problems, aborted.problems]).toEqual([[], [], []]);
    expect(again.statuses).toHaveLength(1);
    expect(gitlab.requests.map((r) => r.status)).toEqual([201, 400, 201]);
    expect(gitlab.statusesOf(GL_PROJECT, GL_SHA)).toEqual([['clm/test-1', 'canceled']]);
  });

  it("says which forge's credentials a source lacks, and what a forge refused; the others still get theirs", async () => {
    const run = world(
      { gitlab: { token: 'glpat-not-known', apiUrl: gitlab.apiUrl }, bitbucket: { ...allForges().bitbucket } },
      {
        gl: `https://gitlab.com/${GL_PROJECT}.git`,
        bb: `https://bitbucket.org/${BB_REPO}.git`,
        gh: `https://github.com/${GH_REPO}.git`,
        own: 'https://git.internal.example/acme/config.git',
      },
    );

    const report = await run(
      'u-1',
      'RUNNING',
      update('test-1', `gl=${GL_SHA};bb=${BB_SHA};gh=${GH_SHA};own=${'4'.repeat(40)}#h`),
    );

    expect(report.problems).toEqual([
      expect.stringContaining('HTTP 401 401 Unauthorized'),
      `github.com/${GH_REPO}: no GitHub credentials; add a "github" entry to the forge credentials to report there`,
      'git.internal.example/acme/config: no forge serves host "git.internal.example"; name it in "hosts" of the forge credentials\' github, gitlab or bitbucket entry',
    ]);
    expect(report.statuses.map((s: { repository: string }) => s.repository)).toEqual([BB_REPO]);
    expect(bitbucket.statusesOf(BB_REPO, BB_SHA).map((s) => s.state)).toEqual(['INPROGRESS']);
    expect(github.requests).toEqual([]);
  });
});
