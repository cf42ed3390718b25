// The CDK app as `cdk deploy` installs it, on MiniStack, driven only through its deployed interfaces: the webhook's
// Function URL, the registry table's stream, the Step Functions API, the CLI's --state dynamodb://TABLE. Each step
// asserts what the deployed system did (executions, stacks, objects in the API server), not that commands ran.
import { CreateSecretCommand, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { ClientNodeKubeCluster } from '../../lambdas/adapters/kube/client-node-kube-cluster';
import { DynamoDbRegistry } from '../../lambdas/adapters/registry/dynamodb-registry';
import type { E2eHarness } from '../integration/support/e2e-harness';
import { eventually } from '../integration/support/eventually';
import { startConfigRepository, type ConfigRepository } from './support/config-repository';
import { deployApp, output, type StackOutputs } from './support/deploy-app';
import { bootedFromBundles, startDeployedNodes } from './support/deployed-nodes';
import { DeployedWorld } from './support/deployed-world';
import { exampleCluster } from './support/deployed-clusters';
import { deployedEnvironment, emulatorClients, kubeCaData, REGION } from './support/deployed-environment';
import { consoleView, executionInput, historyEvents } from './support/executions';
import { deliverPush, functionUrlOnEmulator } from './support/github-push';

const env = deployedEnvironment();
const aws = emulatorClients(env.endpoint);
const kube = new ClientNodeKubeCluster({ kubeconfigPath: env.kubeconfig });
let config: ConfigRepository;
let outputs: StackOutputs;
let webhookUrl: string, webhookSecret: string;
let world: DeployedWorld;
let registry: DynamoDbRegistry;
let table: string;
let harness: E2eHarness;

const [A, B] = ['kube-deployed', 'kube-second'].map((name) => `aws:000000000000:${REGION}:${name}`) as [string, string];
const WORKERS = 'nodepool-default-worker-aws-000000000000-eu-central-1-kube-deployed';

beforeAll(async () => {
  config = await startConfigRepository();
  // The tokens secret CLM reads (tokenSecretArn): the control plane's bearer token as every cluster's clusterToken.
  const tokens = await aws.secretsManager.send(
    new CreateSecretCommand({ Name: 'clm-tokens', SecretString: JSON.stringify({ clusterToken: env.kubeToken }) }),
  );
  outputs = await deployApp({
    endpoint: env.endpoint,
    stateDir: env.stateDir,
    context: {
      registryUri: 'dynamodb://',
      configSources: `main:git:${config.url}`,
      tokenSecretArn: tokens.ARN!,
      // One scheduled pass a day: the passes under test are the ones a push, a registry change or an execution's
      // end asks for, each attributable.
      dispatchIntervalMinutes: '1440',
    },
  });
  webhookUrl = functionUrlOnEmulator(env.endpoint, output(outputs, 'ClmWorkflow', 'TriggersGithubWebhookUrl'));
  world = new DeployedWorld(aws, kube, env.endpoint, output(outputs, 'ClmWorkflow', 'ClusterUpdateStateMachineArn'));
  const secret = await aws.secretsManager.send(
    new GetSecretValueCommand({ SecretId: output(outputs, 'ClmWorkflow', 'WebhookSecretArn') }),
  );
  webhookSecret = secret.SecretString!;
  table = output(outputs, 'ClmStateful', 'ExportsOutputRefTable');
  registry = new DynamoDbRegistry({ tableName: table, client: aws.dynamoDb });
  // What AWS and the kubelets do on their own: instances join as nodes once they booted from their files bundle.
  harness = await startDeployedNodes(env, aws, kube, A, 'kube-deployed');
}, 900_000);

afterAll(async () => {
  await harness?.stop();
  await config?.server.close();
});

describe('the deployed app on MiniStack', () => {
  it('refuses a forged push with 401 and starts nothing', async () => {
    // Act
    const delivery = await deliverPush(
      webhookUrl,
      { ref: 'refs/heads/main', before: '0'.repeat(40), after: config.repo.revParse('main') },
      'not-the-secret',
    );

    // Assert
    expect(delivery.status).toBe(401);
    expect(delivery.body.error).toBe('signature does not match the payload and the configured secret');
    expect(await world.executions()).toEqual([]);
  });

  it('dispatches a cluster added to the registry table through its stream, and runs its update to the end', async () => {
    // Act: an operator adds the cluster to the registry table
    await registry.putCluster(
      exampleCluster('kube-deployed', { apiServerUrl: env.kubeApiUrl, configItems: { kube_ca_data: kubeCaData(env) } }),
    );

    // Assert: the stream's pass started one execution, for that cluster, and it ran every task to the end
    const [execution, ...more] = await world.newExecutions([]);
    expect(more).toEqual([]);
    expect(await executionInput(aws.sfn, execution.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    const done = await world.ended(execution.executionArn!);
    const view = consoleView(await historyEvents(aws.sfn, done.executionArn!));
    expect({ status: done.status, failed: view.filter((row) => row.status === 'Failed') }).toEqual({
      status: 'SUCCEEDED',
      failed: [],
    });
    const states = view.map((row) => row.state);
    for (const state of [
      'Prepare',
      'RenderConfig',
      'DeployMainStack',
      'WaitForApiServer',
      'ApplyManifests',
      'Finalize',
    ])
      expect(states).toContain(state);
    const messages = Object.fromEntries(view.filter((row) => row.message).map((row) => [row.state, row.message]));
    expect(messages.WaitForApiServer).toBe(`API server ${env.kubeApiUrl} is ready`);
    expect(messages.ApplyManifests).toMatch(/^Applied 17 object\(s\): 17 created/);
    expect(messages.Finalize).toMatch(new RegExp(`^Cluster ${A} is at ${config.repo.revParse('main')}#`));
    // ... and what it made is there: the stacks in the emulator's CloudFormation, the objects in the API server
    expect(await world.stackStatuses()).toEqual(
      expect.objectContaining({
        'kube-deployed': 'CREATE_COMPLETE',
        'nodepool-master-default-aws-000000000000-eu-central-1-kube-deployed': 'CREATE_COMPLETE',
        'nodepool-default-worker-aws-000000000000-eu-central-1-kube-deployed': 'CREATE_COMPLETE',
      }),
    );
    expect((await kube.list('Deployment', { namespace: 'web' })).map((d) => d.metadata.name)).toContain('web');
    // the pass that the execution's end asked for has seen it (so a later commit is left to the push below)
    await eventually('the dispatcher recorded the end', async () =>
      (await world.fleetExecutionState(table, A)) === 'succeeded' ? true : undefined,
    );
    // ... and its pass published the fleet page: `clm fleet-page`'s pre-signed URL reads it without credentials
    const bucket = output(outputs, 'ClmStateful', 'ArtifactBucketName');
    const page = await eventually('the fleet page shows the cluster up to date', async () => {
      const card = await world.fleetPageCard(bucket, A);
      return card?.state === 'up-to-date' ? card : undefined;
    });
    expect(page?.contentType).toBe('text/html; charset=utf-8');
    // the groups' EC2 instances joined: one master, two workers, each after it fetched and decrypted its files bundle
    expect(
      await eventually('3 nodes joined', async () => ((await world.joinedNodes()).length === 3 ? true : undefined)),
    ).toBe(true);
    expect(bootedFromBundles(harness, 'kube-deployed')).toEqual({ booted: 3, failed: [] });
  });

  it('rolls the nodes on a signed GitHub push of a new image; clm pause holds the roll at a safe point, resume goes on', async () => {
    // Arrange: a new node image in the config repository
    const before = config.repo.revParse('main');
    const defaults = 'cluster/config-defaults.yaml';
    const after = config.repo.commit(
      // eu-central-1's image (the other branch of the template is eu-west-1's)
      { [defaults]: config.files[defaults]!.replace('ami_id: ami-0a1b2c3d4e5f60718', 'ami_id: ami-0a1b2c3d4e5f60719') },
      'new node image',
    );
    const known = await world.executions();
    const nodesBefore = await world.joinedNodes();
    const bootedBefore = new Set(harness.joiner.boots.keys());
    harness.watchPdbs = true;

    // Act 1: GitHub delivers the push; once the update has begun writing, an operator pauses the cluster
    const delivery = await deliverPush(webhookUrl, { ref: 'refs/heads/main', before, after }, webhookSecret);
    expect({ status: delivery.status, body: delivery.body }).toEqual({
      status: 202,
      body: expect.objectContaining({ commit: after, clusters: [A], dispatch: 'requested' }),
    });
    const [first, ...more] = await world.newExecutions(known);
    expect(more).toEqual([]);
    expect(await executionInput(aws.sfn, first.executionArn!)).toEqual(
      expect.objectContaining({ clusterId: A, trigger: 'webhook' }),
    );
    await eventually('the update writes its main stack', async () =>
      consoleView(await historyEvents(aws.sfn, first.executionArn!)).some((row) => row.state === 'DeployMainStack'),
    );
    const state = ['--registry', `dynamodb://${table}`, '--state', `dynamodb://${table}`, '--region', REGION];
    const pause = world.clm(['pause', A, ...state, '--reason', 'tier']);
    expect({ code: pause.status, stderr: pause.status === 0 ? '' : pause.stderr }).toEqual({ code: 0, stderr: '' });

    // Assert 1: the roll stopped at a safe point, the execution ended held (not failed), nodes remain to replace
    const held = await world.ended(first.executionArn!);
    const heldView = consoleView(await historyEvents(aws.sfn, held.executionArn!));
    const heldOutput = (await world.output(held.executionArn!)) as { held?: { status?: string } };
    expect({ status: held.status, held: heldOutput.held?.status }).toEqual({ status: 'SUCCEEDED', held: 'PAUSED' });
    expect(heldView.map((row) => row.state)).toEqual(expect.arrayContaining(['StopAtSafePoint', 'Held']));
    const pools = ['master-default', 'default-worker'];
    const outdated = await world.outdatedInstances(A, pools);
    expect(outdated).toBeGreaterThan(0);

    // Act 2: resume, and GitHub delivers the push again (a redelivery: a new delivery id)
    const resume = world.clm(['resume', A, ...state]);
    expect({ code: resume.status, stderr: resume.status === 0 ? '' : resume.stderr }).toEqual({ code: 0, stderr: '' });
    const again = await deliverPush(webhookUrl, { ref: 'refs/heads/main', before, after }, webhookSecret);
    expect(again.status).toBe(202);

    // Assert 2: the next run went on from the stored progress to the end: every node on the new image, no PDB broken
    const second = await world.newExecutionOf([...known, first], 'kube-deployed');
    const done = await world.ended(second.executionArn!);
    const view = consoleView(await historyEvents(aws.sfn, done.executionArn!));
    expect({ status: done.status, failed: view.filter((row) => row.status === 'Failed') }).toEqual({
      status: 'SUCCEEDED',
      failed: [],
    });
    expect(view.find((row) => row.state === 'Finalize')?.message).toMatch(new RegExp(`^Cluster ${A} is at ${after}#`));
    expect((await world.stackStatuses())[WORKERS]).toBe('UPDATE_COMPLETE');
    expect(await world.outdatedInstances(A, pools)).toBe(0);
    const nodesAfter = await eventually('3 nodes after the roll', async () => {
      const nodes = await world.joinedNodes();
      return nodes.length === 3 ? nodes : undefined;
    });
    expect(nodesAfter!.filter((n) => nodesBefore.includes(n))).toEqual([]);
    expect(bootedFromBundles(harness, 'kube-deployed', bootedBefore)).toEqual({ booted: 3, failed: [] });
    expect({ violations: [...harness.pdbViolations], errors: harness.errors.map(String) }).toEqual({
      violations: [],
      errors: [],
    });
    harness.watchPdbs = false;
  });

  it('dispatches exactly the cluster a registry change names, and names a failed task’s error in the history', async () => {
    // Arrange: the repository moves on without a push, so kube-deployed is behind but nothing asks for a pass
    config.repo.commit(
      {
        'cluster/manifests/20-web/extra.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: web\ndata: {}\n',
      },
      'one more object',
    );
    const known = await world.executions();

    // Act: a second cluster is added, whose CA item is not a certificate
    await registry.putCluster(
      exampleCluster('kube-second', {
        apiServerUrl: env.kubeApiUrl,
        configItems: { kube_ca_data: Buffer.from('not a certificate').toString('base64') },
      }),
    );

    // Assert: the stream's pass started the second cluster only
    const [second] = await world.newExecutions(known);
    expect(await executionInput(aws.sfn, second.executionArn!)).toEqual(expect.objectContaining({ clusterId: B }));
    const secondDone = await world.ended(second.executionArn!);
    // ... and nothing else: kube-deployed, behind since the commit above, was not started by that pass (the pass that
    // the second's end asks for may start it: that one is waited for, so the next test starts from a quiet fleet)
    await eventually('the dispatcher recorded the second’s end', async () =>
      (await world.fleetExecutionState(table, B)) === 'failed' ? true : undefined,
    );
    const others = (await world.executions()).filter(
      (e) => !known.some((k) => k.executionArn === e.executionArn) && e.executionArn !== second.executionArn,
    );
    for (const other of others) {
      expect(other.startDate!.getTime()).toBeGreaterThanOrEqual(secondDone.stopDate!.getTime());
      await world.ended(other.executionArn!);
    }
    // ... and the second's history names the failed task and the error the task raised
    const view = consoleView(await historyEvents(aws.sfn, secondDone.executionArn!));
    expect(view.filter((row) => row.status === 'Failed')).toEqual([
      // RenderConfig checks the cluster's kube items before anything is written
      expect.objectContaining({ state: 'RenderConfig', error: 'ConfigError' }),
    ]);
  });

  it('waits at the approval gate of a deployed update until `clm approve --state dynamodb://TABLE` answers its token', async () => {
    // Arrange: the cluster now asks for approval (a registry change: the stream dispatches it), with a config change
    const known = await world.executions();
    config.repo.commit(
      {
        'cluster/manifests/20-web/extra.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: web\ndata:\n  approved: "yes"\n',
      },
      'change that needs approval',
    );
    const current = (await registry.listClusters()).find((c) => c.id === A)!;
    await registry.updateConfigItems(A, { ...current.configItems, update_requires_approval: 'true' });
    const execution = await world.newExecutionOf(known, 'kube-deployed');
    expect(await executionInput(aws.sfn, execution.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    await eventually(
      'the update waits at AwaitApproval',
      async () => {
        const view = consoleView(await historyEvents(aws.sfn, execution.executionArn!));
        const last = view[view.length - 1];
        return last?.state === 'AwaitApproval' && last.status === 'Running';
      },
      300_000,
      1000,
    );

    // Act
    const tableState = ['--state', `dynamodb://${table}`, '--region', REGION];
    const approve = world.clm(['approve', A, ...tableState, '--reason', 'CAB-7']);

    // Assert: the token went back, and the update went on to the end with the approved plan
    expect({ code: approve.status, stderr: approve.status === 0 ? '' : approve.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    // The plan approved came with its rehearsal, run in the ReviewUpdate function (the twin from rehearsal-engine.js)
    expect(approve.stdout).toMatch(/; rehearsed 5x: about \d/);
    const done = await world.ended(execution.executionArn!);
    const view = consoleView(await historyEvents(aws.sfn, done.executionArn!));
    expect(done.status).toBe('SUCCEEDED');
    expect(view.find((row) => row.state === 'AwaitApproval')?.status).toBe('Succeeded');
    expect(view.find((row) => row.state === 'Finalize')?.message).toMatch(
      new RegExp(`^Cluster ${A} is at ${config.repo.revParse('main')}#`),
    );
    const extra = (await kube.list('ConfigMap', { namespace: 'web' })).find((c) => c.metadata.name === 'extra');
    expect(extra?.data).toEqual({ approved: 'yes' });
  });
});
