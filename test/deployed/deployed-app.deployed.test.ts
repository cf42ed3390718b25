// The CDK app as `cdk deploy` installs it, on MiniStack, driven only through its deployed interfaces: the webhook's
// Function URL, the registry table's stream, the Step Functions API, the CLI's --state dynamodb://TABLE. Each step
// asserts what the deployed system did (executions, stacks, objects in the API server), not that commands ran.
import { CreateSecretCommand, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { DynamoDbRegistry } from '../../lambdas/adapters/registry/dynamodb-registry';
import { eventually } from '../integration/support/eventually';
import { startConfigRepository, type ConfigRepository } from './support/config-repository';
import { deployApp, functionUrlOnEmulator, output, type StackOutputs } from './support/deploy-app';
import { exampleCluster } from './support/deployed-clusters';
import { deployedEnvironment, emulatorClients, kubeCaData, REGION } from './support/deployed-environment';
import { consoleView, executionInput, historyEvents, listExecutions } from './support/executions';
import { deliverPush } from './support/github-push';

const env = deployedEnvironment();
const aws = emulatorClients(env.endpoint);
let config: ConfigRepository;
let outputs: StackOutputs;
let webhookUrl: string;
let webhookSecret: string;
let clusterUpdate: string;
let registry: DynamoDbRegistry;

const A = `aws:000000000000:${REGION}:kube-deployed`;

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
  registry = new DynamoDbRegistry({
    tableName: output(outputs, 'ClmStateful', 'ExportsOutputRefTable'),
    client: aws.dynamoDb,
  });
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

  it('dispatches exactly the cluster a registry change names, through the table stream, and runs its update', async () => {
    // Act: an operator adds the cluster to the registry table
    await registry.putCluster(
      exampleCluster('kube-deployed', { apiServerUrl: env.kubeApiUrl, configItems: { kube_ca_data: kubeCaData(env) } }),
    );

    // Assert: the stream's pass started one execution, for that cluster
    const started = await eventually(
      'a cluster-update execution',
      async () => {
        const all = await listExecutions(aws.sfn, clusterUpdate);
        return all.length > 0 ? all : undefined;
      },
      300_000,
      1000,
    );
    expect(started).toHaveLength(1);
    expect(await executionInput(aws.sfn, started![0].executionArn!)).toEqual(
      expect.objectContaining({ clusterId: A }),
    );
    const ended = await eventually(
      'the execution ends',
      async () => {
        const [execution] = await listExecutions(aws.sfn, clusterUpdate);
        return execution.status !== 'RUNNING' ? execution : undefined;
      },
      900_000,
      2000,
    );
    const view = consoleView(await historyEvents(aws.sfn, ended!.executionArn!));
    console.log(JSON.stringify(view, null, 1));
    expect(ended!.status).toBe('SUCCEEDED');
  });
});
