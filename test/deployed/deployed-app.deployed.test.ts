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
      // kube-deployed, behind since the commit above, starts only once the second's execution ended: that end asks
    // for a pass over the whole fleet (the execution-events rule), and that pass starts it
    const [catchUp, ...others] = await newExecutions([...known, second]);
    expect(others).toEqual([]);
    expect(await executionInput(aws.sfn, catchUp.executionArn!)).toEqual(expect.objectContaining({ clusterId: A }));
    expect(catchUp.startDate!.getTime()).toBeGreaterThanOrEqual(secondDone.stopDate!.getTime());
    expect((await ended(catchUp.executionArn!)).status).toBe('SUCCEEDED');
    // ... and its history names the failed task and the error the task raised
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
