// The CDK app as `cdk deploy` installs it, on MiniStack, driven only through its deployed interfaces: the webhook's
// Function URL, the registry table's stream, the Step Functions API, the CLI's --state dynamodb://TABLE. Each step
// asserts what the deployed system did (executions, stacks, objects in the API server), not that commands ran.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateSecretCommand, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { ExecutionListItem } from '@aws-sdk/client-sfn';
import { ClientNodeKubeCluster } from '../../lambdas/adapters/kube/client-node-kube-cluster';
import { DynamoDbRegistry } from '../../lambdas/adapters/registry/dynamodb-registry';
import { eventually } from '../integration/support/eventually';
import { startConfigRepository, type ConfigRepository } from './support/config-repository';
import { deployApp, functionUrlOnEmulator, output, REPO_ROOT, type StackOutputs } from './support/deploy-app';
import { exampleCluster } from './support/deployed-clusters';
import { deployedEnvironment, emulatorClients, kubeCaData, REGION } from './support/deployed-environment';
import { consoleView, executionInput, historyEvents, listExecutions } from './support/executions';
import { deliverPush } from './support/github-push';

const env = deployedEnvironment();
const aws = emulatorClients(env.endpoint);
const kube = new ClientNodeKubeCluster({ kubeconfigPath: env.kubeconfig });
let config: ConfigRepository;
let outputs: StackOutputs;
let webhookUrl: string;
let webhookSecret: string;
let clusterUpdate: string;
let registry: DynamoDbRegistry;
let table: string;

/** The CLI as an operator runs it against the deployed system (the emulator's endpoint, the CLM account). */
function clm(args: readonly string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'clm.mjs'), ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      AWS_ENDPOINT_URL: env.endpoint,
      AWS_ACCESS_KEY_ID: '000000000000',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: REGION,
    },
  });
}

const A = `aws:000000000000:${REGION}:kube-deployed`;
const B = `aws:000000000000:${REGION}:kube-second`;

/** The cluster-update executions started after `known` were listed, once there are `count` of them. */
async function newExecutions(known: readonly ExecutionListItem[], count = 1): Promise<ExecutionListItem[]> {
  const seen = new Set(known.map((e) => e.executionArn));
  return (await eventually(
    `${count} new cluster-update execution(s)`,
    async () => {
      const fresh = (await listExecutions(aws.sfn, clusterUpdate)).filter((e) => !seen.has(e.executionArn));
      return fresh.length >= count ? fresh : undefined;
    },
    300_000,
    1000,
  ))!;
}

/** An execution once it has ended. */
async function ended(executionArn: string): Promise<ExecutionListItem> {
  return (await eventually(
    `execution ${executionArn} ends`,
    async () => {
      const found = (await listExecutions(aws.sfn, clusterUpdate)).find((e) => e.executionArn === executionArn);
      return found && found.status !== 'RUNNING' ? found : undefined;
    },
    900_000,
    2000,
  ))!;
}

async function stackStatuses(): Promise<Record<string, string>> {
  const stacks = (await aws.cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? [];
  return Object.fromEntries(stacks.map((s) => [s.StackName!, s.StackStatus!]));
}

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
  clusterUpdate = output(outputs, 'ClmWorkflow', 'ClusterUpdateStateMachineArn');
  const secret = await aws.secretsManager.send(
    new GetSecretValueCommand({ SecretId: output(outputs, 'ClmWorkflow', 'WebhookSecretArn') }),
  );
  webhookSecret = secret.SecretString!;
  table = output(outputs, 'ClmStateful', 'ExportsOutputRefTable');
  registry = new DynamoDbRegistry({ tableName: table, client: aws.dynamoDb });
}, 900_000);

afterAll(async () => {
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
    expect(await listExecutions(aws.sfn, clusterUpdate)).toEqual([]);
  });

  it('dispatches a cluster added to the registry table through its stream, and runs its update to the end', async () => {
    // Act: an operator adds the cluster to the registry table
    await registry.putCluster(
      exampleCluster('kube-deployed', { apiServerUrl: env.kubeApiUrl, configItems: { kube_ca_data: kubeCaData(env) } }),
    );

    // Assert: the stream's pass started one execution, for that cluster, and it ran every task to the end
    const [execution, ...more] = await newExecutions([]);
    expect(more).toEqual([]);
    expect(await executionInput(aws.sfn, execution.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    const done = await ended(execution.executionArn!);
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
    expect(await stackStatuses()).toEqual(
      expect.objectContaining({
        'kube-deployed': 'CREATE_COMPLETE',
        'nodepool-master-default-aws-000000000000-eu-central-1-kube-deployed': 'CREATE_COMPLETE',
        'nodepool-default-worker-aws-000000000000-eu-central-1-kube-deployed': 'CREATE_COMPLETE',
      }),
    );
    expect((await kube.list('Deployment', { namespace: 'web' })).map((d) => d.metadata.name)).toContain('web');
  });

  it('updates the cluster when a signed GitHub push of its channel reaches the Function URL', async () => {
    // Arrange: a new node image in the config repository
    const before = config.repo.revParse('main');
    const defaults = 'cluster/config-defaults.yaml';
    const after = config.repo.commit(
      // eu-central-1's image (the other branch of the template is eu-west-1's)
      { [defaults]: config.files[defaults]!.replace('ami_id: ami-0a1b2c3d4e5f60718', 'ami_id: ami-0a1b2c3d4e5f60719') },
      'new worker image',
    );
    const known = await listExecutions(aws.sfn, clusterUpdate);

    // Act
    const delivery = await deliverPush(webhookUrl, { ref: 'refs/heads/main', before, after }, webhookSecret);

    // Assert: accepted, dispatched, and the cluster updated to the pushed commit
    expect({ status: delivery.status, body: delivery.body }).toEqual({
      status: 202,
      body: expect.objectContaining({ commit: after, clusters: [A], dispatch: 'requested' }),
    });
    const [execution, ...more] = await newExecutions(known);
    expect(more).toEqual([]);
    expect(await executionInput(aws.sfn, execution.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    const done = await ended(execution.executionArn!);
    const view = consoleView(await historyEvents(aws.sfn, done.executionArn!));
    expect(done.status).toBe('SUCCEEDED');
    expect(view.find((row) => row.state === 'Finalize')?.message).toMatch(new RegExp(`^Cluster ${A} is at ${after}#`));
    expect((await stackStatuses())['nodepool-default-worker-aws-000000000000-eu-central-1-kube-deployed']).toBe(
      'UPDATE_COMPLETE',
    );
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
    const known = await listExecutions(aws.sfn, clusterUpdate);

    // Act: a second cluster is added, whose CA item is not a certificate
    await registry.putCluster(
      exampleCluster('kube-second', {
        apiServerUrl: env.kubeApiUrl,
        configItems: { kube_ca_data: Buffer.from('not a certificate').toString('base64') },
      }),
    );

    // Assert: the stream's pass started the second cluster only
    const [second] = await newExecutions(known);
    expect(await executionInput(aws.sfn, second.executionArn!)).toEqual(expect.objectContaining({ clusterId: B }));
    const secondDone = await ended(second.executionArn!);
    // kube-deployed, behind since the commit above, starts only once the second's execution ended: that end asks
    // for a pass over the whole fleet (the execution-events rule), and that pass starts it
    const [catchUp, ...others] = await newExecutions([...known, second]);
    expect(others).toEqual([]);
    expect(await executionInput(aws.sfn, catchUp.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    expect(catchUp.startDate!.getTime()).toBeGreaterThanOrEqual(secondDone.stopDate!.getTime());
    expect((await ended(catchUp.executionArn!)).status).toBe('SUCCEEDED');
    // ... and the second's history names the failed task and the error the task raised
    const view = consoleView(await historyEvents(aws.sfn, secondDone.executionArn!));
    expect(view.filter((row) => row.status === 'Failed')).toEqual([
      // RenderConfig checks the cluster's kube items before anything is written
      expect.objectContaining({ state: 'RenderConfig', error: 'ConfigError' }),
    ]);
  });

  it('waits at the approval gate of a deployed update until `clm approve --state dynamodb://TABLE` answers its token', async () => {
    // Arrange: the cluster now asks for approval (a registry change: the stream dispatches it), with a config change
    const known = await listExecutions(aws.sfn, clusterUpdate);
    config.repo.commit(
      {
        'cluster/manifests/20-web/extra.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: web\ndata:\n  approved: "yes"\n',
      },
      'change that needs approval',
    );
    const current = (await registry.listClusters()).find((c) => c.id === A)!;
    await registry.updateConfigItems(A, { ...current.configItems, update_requires_approval: 'true' });
    const [execution] = await newExecutions(known);
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
    const approve = clm(['approve', A, '--state', `dynamodb://${table}`, '--region', REGION, '--reason', 'CAB-7']);

    // Assert: the token went back, and the update went on to the end with the approved plan
    expect({ code: approve.status, stderr: approve.status === 0 ? '' : approve.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const done = await ended(execution.executionArn!);
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
