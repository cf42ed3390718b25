import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createAwsClients, type AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { MAX_INLINE_TEMPLATE_BYTES } from '../../../lambdas/adapters/aws/cloudformation-template-source';
import { S3ArtifactStore } from '../../../lambdas/adapters/aws/s3-artifact-store';
import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import { problemFromError } from '../../../lambdas/core/status/problems';
import { ensureStacks } from '../../../lambdas/tasks/stacks/ensure-stacks';
import type { ClusterRef } from '../../../lambdas/ports/node-pool-backend';
import type { StackSpec } from '../../../lambdas/ports/stack-deployer';
import { integrationEnvironment, MOTO_CREDENTIALS, REGION, resetMoto } from '../support/environment';
import {
  EXAMPLE_CLUSTER,
  exampleConfigForIntegration,
  motoValues,
  renderExample,
  type RenderedExample,
} from '../support/example-config';
import { propagateLaunchTemplateVersions } from '../support/moto-shims';

// The CloudFormation and Auto Scaling adapters against moto_server, with the example config's own stacks.
const env = integrationEnvironment();
let clients: AwsClients;
let deployer: CloudFormationStackDeployer;
let pools: AsgNodePoolBackend;
let rendered: RenderedExample;
const cluster: ClusterRef = {
  id: EXAMPLE_CLUSTER,
  name: EXAMPLE_CLUSTER,
  region: REGION,
  infrastructureAccount: 'aws:123456789012',
};
const tags = { 'kubernetes.io/cluster/kube-test': 'owned' };
const MAIN = 'kube-test';
const WORKER = 'nodepool-default-worker-aws-123456789012-eu-central-1-kube-test';

beforeAll(async () => {
  await resetMoto(env.awsEndpoint);
  clients = createAwsClients({ region: REGION, endpoint: env.awsEndpoint, credentials: MOTO_CREDENTIALS });
  const store = new S3ArtifactStore(clients.s3, {
    bucket: 'clm-int-templates',
    region: REGION,
    endpoint: env.awsEndpoint,
    createBucketIfMissing: true,
  });
  deployer = new CloudFormationStackDeployer(clients.cloudFormation, {
    templateStore: store,
    changeSetPollIntervalMs: 50,
  });
  pools = new AsgNodePoolBackend(clients.autoScaling, clients.ec2);
  rendered = renderExample(exampleConfigForIntegration(), await motoValues(clients.ec2));
});

afterAll(() => clients?.cloudFormation.destroy());

function spec(name: string, templateBody = rendered.stacks[name]!): StackSpec {
  if (!templateBody) throw new Error(`no rendered stack ${name}; have ${Object.keys(rendered.stacks).join(', ')}`);
  return { name, templateBody, tags };
}

/** moto finishes inside the API call; a real AWS would need the caller's polling loop. Polls a little anyway. */
async function settled(name: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const state = await deployer.describe(name);
    if (!state) return 'GONE';
    if (!state.status.endsWith('_IN_PROGRESS')) return state.status;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`stack ${name} still in progress`);
}

describe('CloudFormationStackDeployer + AsgNodePoolBackend on moto (example config stacks)', () => {
  it('creates the main stack and reads its outputs back', async () => {
    await expect(deployer.deploy(spec(MAIN))).resolves.toEqual({ result: 'STARTED', operation: 'create' });
    expect(await settled(MAIN)).toBe('CREATE_COMPLETE');
    const state = (await deployer.describe(MAIN))!;
    expect(state.outputs.WorkerSecurityGroup).toMatch(/^sg-/);
    expect(state.outputs.WorkerInstanceProfile).toBe('kube-test-worker');
    expect(state.outputs.WorkerFilesEncryptionKey).toMatch(/^arn:aws:kms:eu-central-1:123456789012:key\//);
    expect(state.tags).toEqual(tags);
    expect((await deployer.list({ 'kubernetes.io/cluster/kube-test': '*' })).map((s) => s.name)).toEqual([MAIN]);
  });

  it('creates the worker node-pool stack; its Auto Scaling group shows up with up-to-date instances', async () => {
    await deployer.deploy(spec(WORKER));
    expect(await settled(WORKER)).toBe('CREATE_COMPLETE');
    expect((await deployer.describe(WORKER))!.outputs.LaunchTemplateVersion).toBe('1');
    const pool = (await pools.getPool(cluster, 'default-worker'))!;
    expect(pool).toMatchObject({ desired: 2, min: 2, max: 3 });
    expect(pool.instances).toHaveLength(2);
    expect(pool.instances.map((i) => [i.lifecycleState, i.outdated, i.launchTemplateVersion, i.instanceType])).toEqual([
      ['InService', false, '1', 'm6i.large'],
      ['InService', false, '1', 'm6i.large'],
    ]);
  });

  it('re-deploying an unchanged template changes nothing (moto answers UPDATE_COMPLETE where AWS says "No updates")', async () => {
    const before = (await pools.getPool(cluster, 'default-worker'))!;
    const { result } = await deployer.deploy(spec(WORKER));
    expect(['NO_CHANGES', 'STARTED']).toContain(result);
    expect(await settled(WORKER)).toMatch(/^(CREATE|UPDATE)_COMPLETE$/);
    const after = (await pools.getPool(cluster, 'default-worker'))!;
    expect(after.instances.map((i) => i.instanceId).sort()).toEqual(before.instances.map((i) => i.instanceId).sort());
    expect(after.groups.map((g) => g.name)).toEqual(before.groups.map((g) => g.name));
    expect((await deployer.describe(WORKER))!.outputs.LaunchTemplateVersion).toBe('1');
  });

  it('an ensureStacks pass over an unchanged, finished stack reports it ready with its outputs', async () => {
    const result = await ensureStacks(
      deployer,
      [{ name: MAIN, kind: 'cluster', template: rendered.stacks[MAIN]!, tags }],
      { stacks: {} },
      1,
      'sequential',
    );
    // moto reports STARTED + UPDATE_COMPLETE for a no-op, so the first pass may wait once; the second is done.
    const second =
      result.step.status === 'DONE'
        ? result
        : await ensureStacks(
            deployer,
            [{ name: MAIN, kind: 'cluster', template: rendered.stacks[MAIN]!, tags }],
            { stacks: result.stacks },
            2,
            'sequential',
          );
    expect(second.step.status).toBe('DONE');
    expect(second.outputs[MAIN]?.WorkerSecurityGroup).toMatch(/^sg-/);
  });

  it('an update with a new launch-template version makes the old instances outdated; replacements are current', async () => {
    const changed = rendered.stacks[WORKER]!.replace(/InstanceType: m6i\.large/, 'InstanceType: m5.large');
    expect(changed).not.toBe(rendered.stacks[WORKER]);
    await expect(deployer.deploy(spec(WORKER, changed))).resolves.toEqual({ result: 'STARTED', operation: 'update' });
    expect(await settled(WORKER)).toBe('UPDATE_COMPLETE');
    expect((await deployer.describe(WORKER))!.outputs.LaunchTemplateVersion).toBe('2');
    expect(await propagateLaunchTemplateVersions(clients, WORKER)).toHaveLength(1); // moto shim, see moto-shims.ts

    const pool = (await pools.getPool(cluster, 'default-worker'))!;
    expect(pool.instances.map((i) => i.outdated)).toEqual([true, true]);
    const victim = pool.instances[0]!.instanceId;
    await pools.terminate(cluster, victim, false);
    const rolled = (await pools.getPool(cluster, 'default-worker'))!;
    expect(rolled.instances.map((i) => i.instanceId)).not.toContain(victim);
    expect(rolled.instances.filter((i) => !i.outdated).map((i) => [i.launchTemplateVersion, i.instanceType])).toEqual([
      ['2', 'm5.large'],
    ]);
    expect(rolled.instances.filter((i) => i.outdated)).toHaveLength(1);
  });

  it('a failed update is reported as a problem naming the stack and the call; moto never rolls back', async () => {
    // Its own stack: moto half-applies a failed update (it drops the group it meant to replace), leaving it unusable.
    const name = 'kube-test-broken';
    const good = rendered.stacks[WORKER]!.replace(
      /LaunchTemplateName: kube-test-default-worker/,
      'LaunchTemplateName: kube-test-broken',
    );
    const brokenTags = { 'clm-integration/broken': 'true' };
    await deployer.deploy({ name, templateBody: good, tags: brokenTags });
    expect(await settled(name)).toBe('CREATE_COMPLETE');
    // The ASG points at a launch template that does not exist: moto's backend refuses, as AWS would during the update.
    const broken = good.replace('LaunchTemplateId: !Ref LaunchTemplate', 'LaunchTemplateId: lt-0000000000000dead');
    const failure = await ensureStacks(
      deployer,
      [{ name, kind: 'node-pool', template: broken, tags: brokenTags }],
      { stacks: {} },
      1,
      'parallel',
    ).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const progress = new MemoryProgressStore();
    const status = await progress.recordProblem(EXAMPLE_CLUSTER, problemFromError(failure!), 1);
    expect(status.problems).toHaveLength(1);
    expect(status.problems[0]!.title).toContain(`CloudFormation UpdateStack ${name}`);
    // AWS would end in UPDATE_ROLLBACK_COMPLETE (a StackFailedError, unit-tested); moto refuses the call and keeps the status.
    expect(await settled(name)).not.toMatch(/ROLLBACK/);
  });

  it(`sends a template over ${MAX_INLINE_TEMPLATE_BYTES} bytes through S3 and creates the stack from it`, async () => {
    const padding = `# ${'x'.repeat(200)}\n`.repeat(Math.ceil((MAX_INLINE_TEMPLATE_BYTES + 1000) / 203));
    const big = `${padding}${rendered.stacks[WORKER]!.replace(/LaunchTemplateName: kube-test-default-worker/, 'LaunchTemplateName: kube-test-big')}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_INLINE_TEMPLATE_BYTES);
    await deployer.deploy(spec('kube-test-big', big));
    expect(await settled('kube-test-big')).toBe('CREATE_COMPLETE');
    expect((await deployer.describe('kube-test-big'))!.outputs.AutoScalingGroup).toBeTruthy();
    const objects = await clients.s3.send(
      new ListObjectsV2Command({ Bucket: 'clm-int-templates', Prefix: 'templates/kube-test-big/' }),
    );
    expect(objects.Contents?.map((o) => o.Key)).toEqual([
      expect.stringMatching(/^templates\/kube-test-big\/[0-9a-f]{64}\.template$/),
    ]);
    await deployer.delete('kube-test-big', { disableTerminationProtection: true });
  });

  it("deletes protected stacks (pool first, then main); the pool's instances go away; a second delete is ALREADY_GONE", async () => {
    // Without lifting the protection the deployer refuses (moto itself would delete a protected stack).
    await expect(deployer.delete(WORKER)).rejects.toThrow('has termination protection enabled');
    const stackId = (await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: WORKER }))).Stacks![0]!
      .StackId!;
    await expect(deployer.delete(WORKER, { disableTerminationProtection: true })).resolves.toEqual({
      result: 'STARTED',
    });
    expect(await settled(WORKER)).toBe('GONE');
    expect(
      (await clients.cloudFormation.send(new DescribeStacksCommand({ StackName: stackId }))).Stacks![0]!.StackStatus,
    ).toBe('DELETE_COMPLETE');
    expect(await pools.getPool(cluster, 'default-worker')).toBeUndefined();
    await expect(deployer.delete(WORKER, { disableTerminationProtection: true })).resolves.toEqual({
      result: 'ALREADY_GONE',
    });
    await expect(deployer.delete(MAIN, { disableTerminationProtection: true })).resolves.toEqual({
      result: 'STARTED',
    });
    expect(await deployer.list({ 'kubernetes.io/cluster/kube-test': '*' })).toEqual([]);
  });
});
