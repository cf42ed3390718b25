// `clm provision|decommission --simulate` end to end over stacks CloudFormation leaves where no update can start
// (UPDATE_ROLLBACK_FAILED, ROLLBACK_COMPLETE — moto never produces them, the simulator does, with real event
// shapes), and over decommission's cleanup of what a cluster leaves outside its stacks.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, ROOT, TEST, clm, latestRun, loadWorld, tempDir } from './support/clm-session';

const temps: string[] = [];
const track = (dir: string): string => {
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const args = (command: 'provision' | 'decommission', config: string, state: string, ...extra: string[]) => [
  command,
  '--simulate',
  ...EXAMPLES,
  '--directory',
  config,
  '--state',
  state,
  '--cluster',
  TEST,
  ...extra,
];

function scenario(text: string): string {
  const file = join(track(tempDir('scenario')), 'scenario.yaml');
  writeFileSync(file, text);
  return file;
}

/** examples/config with the main stack's master security group described differently: the main stack updates. */
function configWithChangedMainStack(): string {
  const dir = track(tempDir('config'));
  cpSync(join(ROOT, 'examples/config'), dir, { recursive: true });
  const file = join(dir, 'cluster/cluster.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('Kubernetes API servers of', 'API servers of'));
  return dir;
}

interface Summary {
  status: string;
  message: string;
  problems: { title: string }[];
  stackRecoveries?: { stack: string; action: string; foundStatus: string; cause: string; skipped?: string[] }[];
  leftovers?: { deleted: string[]; kept: string[]; remaining: string[]; unchecked: string[] };
}
const summaryOf = (out: string): Summary => (JSON.parse(out) as { clusters: Summary[] }).clusters[0];

describe('stack recovery in the simulator', () => {
  it('UPDATE_ROLLBACK_FAILED: names the failed resources, continues the rollback skipping only what the operator names, then updates', async () => {
    // Arrange: the main stack's next update fails on MasterSecurityGroup, and rolling it back fails twice
    const state = track(tempDir('rollback-failed'));
    const faults = scenario(`
faults:
  stackFailures:
    - stack: kube-test
      operation: update
      resource: MasterSecurityGroup
      reason: 'Resource handler returned message: "The security group sg-0aa1 is in use"'
      rollbackFailures: 2
      rollbackReason: 'Resource handler returned message: "The security group ingress rule already exists"'
`);
    expect((await clm(args('provision', 'examples/config', state, '--scenario', faults))).code).toBe(0);
    const changed = configWithChangedMainStack();

    // Act
    const failed = await clm(args('provision', changed, state, '--output', 'json'));
    const stillFailing = await clm(args('provision', changed, state, '--output', 'json'));
    const badSkip = await clm(args('provision', changed, state, '--skip-rollback-resources', 'kube-test'));
    const recovered = await clm(
      args(
        'provision',
        changed,
        state,
        '--skip-rollback-resources',
        'kube-test:MasterSecurityGroup',
        '--output',
        'json',
      ),
    );

    // Assert: the first run fails with the resource, its type and reason, not "stack failed"
    expect(failed.code).toBe(1);
    expect(summaryOf(failed.out).message).toContain(
      'Stack kube-test is UPDATE_ROLLBACK_FAILED: first failed resource MasterSecurityGroup (AWS::EC2::SecurityGroup) UPDATE_FAILED: Resource handler returned message: "The security group sg-0aa1 is in use"; rollback failed on MasterSecurityGroup (AWS::EC2::SecurityGroup) UPDATE_FAILED: Resource handler returned message: "The security group ingress rule already exists"',
    );
    expect(summaryOf(failed.out).problems[0].title).toContain('first failed resource MasterSecurityGroup');
    // The next run continues the rollback without skipping anything; it fails again and says how to skip
    expect(stillFailing.code).toBe(1);
    expect(summaryOf(stillFailing.out).message).toContain(
      'fix the resource by hand, or name it to skip: --skip-rollback-resources kube-test:<LogicalId>',
    );
    // A malformed skip is a usage error before anything runs
    expect(badSkip.code).toBe(2);
    expect(badSkip.err).toContain('--skip-rollback-resources: "kube-test" is not STACK:LogicalId');
    // With the operator's skip the rollback completes and the update is deployed again, recorded with its cause
    expect(recovered.code).toBe(0);
    const summary = summaryOf(recovered.out);
    expect(summary.status).toBe('succeeded');
    // Both recoveries are recorded: the one that skipped nothing and failed, the one with the operator's skip
    const cause = expect.stringContaining('rollback failed on MasterSecurityGroup (AWS::EC2::SecurityGroup)');
    expect(summary.stackRecoveries).toEqual([
      { stack: 'kube-test', action: 'continue-rollback', foundStatus: 'UPDATE_ROLLBACK_FAILED', cause },
      {
        stack: 'kube-test',
        action: 'continue-rollback',
        foundStatus: 'UPDATE_ROLLBACK_FAILED',
        skipped: ['MasterSecurityGroup'],
        cause,
      },
    ]);
    const run = latestRun(state, TEST);
    expect(run.stacks['kube-test'].status).toBe('done');
    expect(run.stacks['kube-test'].recoveries?.map((r) => r.skipped ?? [])).toEqual([[], ['MasterSecurityGroup']]);
    expect(run.stacks['kube-test'].recoveries?.[0].failedResource).toEqual({
      logicalId: 'MasterSecurityGroup',
      resourceType: 'AWS::EC2::SecurityGroup',
      reason: 'Resource handler returned message: "The security group sg-0aa1 is in use"',
    });
    const world = loadWorld(state).snapshot();
    const stack = Object.values(world.accounts).find((a) => a.stacks['kube-test'])!.stacks['kube-test'];
    expect(stack.status).toBe('UPDATE_COMPLETE');
    expect(stack.terminationProtection).toBe(true);
    const events = stack.events!.map(
      (e) => `${e.logicalResourceId} ${e.resourceStatus}${e.resourceStatusReason ? ` ${e.resourceStatusReason}` : ''}`,
    );
    expect(events).toContain('MasterSecurityGroup UPDATE_COMPLETE Resource skipped during UpdateRollback');
  });

  it('ROLLBACK_COMPLETE after a create: the run fails naming the resource; the next run deletes the stack and creates it again', async () => {
    // Arrange: the main stack's create fails on WorkerSecurityGroup
    const state = track(tempDir('rollback-complete'));
    const faults = scenario(`
faults:
  stackFailures:
    - stack: kube-test
      operation: create
      resource: WorkerSecurityGroup
      reason: 'Resource handler returned message: "The vpc ID vpc-0a1b does not exist"'
`);

    // Act
    const failed = await clm(args('provision', 'examples/config', state, '--scenario', faults, '--output', 'json'));
    const recovered = await clm(args('provision', 'examples/config', state, '--output', 'json'));

    // Assert
    expect(failed.code).toBe(1);
    expect(summaryOf(failed.out).message).toContain(
      'Stack kube-test is ROLLBACK_COMPLETE: first failed resource WorkerSecurityGroup (AWS::EC2::SecurityGroup) CREATE_FAILED: Resource handler returned message: "The vpc ID vpc-0a1b does not exist"; the next run deletes the stack and creates it again',
    );
    expect(recovered.code).toBe(0);
    expect(summaryOf(recovered.out).stackRecoveries).toEqual([
      expect.objectContaining({
        stack: 'kube-test',
        action: 'recreate',
        foundStatus: 'ROLLBACK_COMPLETE',
        cause: expect.stringContaining(
          'first failed resource WorkerSecurityGroup (AWS::EC2::SecurityGroup) CREATE_FAILED',
        ),
      }),
    ]);
    const world = loadWorld(state).snapshot();
    const stack = Object.values(world.accounts).find((a) => a.stacks['kube-test'])!.stacks['kube-test'];
    expect(stack.status).toBe('CREATE_COMPLETE');
    expect(stack.terminationProtection).toBe(true);
  });
});

describe('clm decommission --simulate cleans up what the cluster left outside its stacks', () => {
  const LEFTOVERS = `
clusters:
  ${TEST}:
    leftovers:
      loadBalancers:
        - { name: a0b1c2d3e4f5, type: classic }
        - { name: k8s-default-web, type: application }
      volumes: 2
      networkInterfaces: 1
`;

  it('--keep-volumes: deletes the load balancers, the target group, their security groups and the ENIs, keeps the volumes, lists them', async () => {
    // Arrange
    const state = track(tempDir('decommission-keep'));
    expect((await clm(args('provision', 'examples/config', state, '--scenario', scenario(LEFTOVERS)))).code).toBe(0);
    const before = loadWorld(state).cloudResources(TEST);

    // Act
    const text = await clm(args('decommission', 'examples/config', state, '--keep-volumes'));

    // Assert
    expect(text.code).toBe(0);
    const kinds = (list: { kind: string }[]) => list.map((r) => r.kind).sort();
    expect(kinds(before)).toEqual([
      'classic-load-balancer',
      'load-balancer',
      'network-interface',
      'security-group',
      'security-group',
      'target-group',
      'volume',
      'volume',
    ]);
    const after = loadWorld(state).cloudResources(TEST);
    expect(kinds(after)).toEqual(['volume', 'volume']);
    const deleted = before.filter((r) => r.kind !== 'volume').map((r) => `${r.kind} ${r.id}`);
    const record = latestRun(state, TEST).leftovers!;
    expect([...record.deleted].sort()).toEqual(deleted.sort());
    expect([...record.kept].sort()).toEqual(after.map((r) => `volume ${r.id}`).sort());
    expect(record.remaining).toEqual([]);
    expect(text.out).toContain(`  left outside the stacks, deleted: ${record.deleted.join(', ')}`);
    expect(text.out).toContain(`  kept (--keep-volumes): ${record.kept.join(', ')}`);
    // The security groups went only after their load balancers, and the main stack after the cleanup
    const lines = text.out.split('\n');
    const cleanup = lines.findIndex((l) => l.includes('CleanUpLeftovers: Deleted'));
    expect(cleanup).toBeGreaterThan(lines.findIndex((l) => l.includes('All stacks but the main one deleted')));
    expect(lines.findIndex((l) => l.includes('Main stack kube-test deleted'))).toBeGreaterThan(cleanup);
    const world = loadWorld(state).snapshot();
    expect(Object.values(world.accounts).some((a) => a.stacks['kube-test'])).toBe(false);
  });

  it('without --keep-volumes deletes the volumes too (JSON summary)', async () => {
    const state = track(tempDir('decommission-all'));
    expect((await clm(args('provision', 'examples/config', state, '--scenario', scenario(LEFTOVERS)))).code).toBe(0);

    const json = await clm(args('decommission', 'examples/config', state, '--output', 'json'));

    expect(json.code).toBe(0);
    const leftovers = summaryOf(json.out).leftovers!;
    expect(leftovers.deleted.filter((d) => d.startsWith('volume '))).toHaveLength(2);
    expect(leftovers.deleted).toHaveLength(8);
    expect(leftovers.kept).toEqual([]);
    expect(loadWorld(state).cloudResources(TEST)).toEqual([]);
  });
});
