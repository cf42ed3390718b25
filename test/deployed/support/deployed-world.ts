/**
 * Reading the deployed system as an operator does, for the deployed tier's assertions: the cluster-update executions
 * (new ones, ended ones), the emulator's stacks and Auto Scaling groups, the nodes that joined, and the CLI run
 * against the deployed table and state machine.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';
import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DescribeExecutionCommand, type ExecutionListItem } from '@aws-sdk/client-sfn';
import type { KubeCluster } from '../../../lambdas/ports/kube-cluster';
import { eventually } from '../../integration/support/eventually';
import { REPO_ROOT } from './deploy-app';
import { CLM_ACCOUNT, REGION, type EmulatorClients } from './deployed-environment';
import { listExecutions } from './executions';

export class DeployedWorld {
  constructor(
    private readonly aws: EmulatorClients,
    private readonly kube: KubeCluster,
    private readonly endpoint: string,
    readonly clusterUpdate: string,
  ) {}

  executions(): Promise<ExecutionListItem[]> {
    return listExecutions(this.aws.sfn, this.clusterUpdate);
  }

  /** The cluster-update executions started since `known` was listed, once there are `count` of them. */
  async newExecutions(known: readonly ExecutionListItem[], count = 1): Promise<ExecutionListItem[]> {
    const seen = new Set(known.map((e) => e.executionArn));
    return (await eventually(
      `${count} new cluster-update execution(s)`,
      async () => {
        const fresh = (await this.executions()).filter((e) => !seen.has(e.executionArn));
        return fresh.length >= count ? fresh : undefined;
      },
      300_000,
      1000,
    ))!;
  }

  /** The first cluster-update execution for `localId` (named `update-<local id>-…`) started since `known`. */
  async newExecutionOf(known: readonly ExecutionListItem[], localId: string): Promise<ExecutionListItem> {
    const seen = new Set(known.map((e) => e.executionArn));
    return (await eventually(
      `a new cluster-update execution for ${localId}`,
      async () =>
        (await this.executions()).find((e) => !seen.has(e.executionArn) && e.name?.startsWith(`update-${localId}-`)),
      300_000,
      1000,
    ))!;
  }

  /** An execution once it has ended. */
  async ended(executionArn: string): Promise<ExecutionListItem> {
    return (await eventually(
      `execution ${executionArn} ends`,
      async () => {
        const found = (await this.executions()).find((e) => e.executionArn === executionArn);
        return found && found.status !== 'RUNNING' ? found : undefined;
      },
      900_000,
      2000,
    ))!;
  }

  /**
   * The dispatcher's record of a cluster's last execution (the FLEET partition of the table): its state becomes the
   * execution's end once a pass has seen the end (the pass the end's status-change event asks for).
   */
  async fleetExecutionState(table: string, clusterId: string): Promise<string | undefined> {
    const item = (
      await this.aws.dynamoDb.send(
        new GetItemCommand({
          TableName: table,
          Key: { pk: { S: 'FLEET' }, sk: { S: `CLUSTER#${clusterId}` } },
          ConsistentRead: true,
        }),
      )
    ).Item;
    const state = item ? (unmarshall(item).state as { execution?: { state?: string } }) : undefined;
    return state?.execution?.state;
  }

  /** An execution's output (DescribeExecution), parsed. */
  async output(executionArn: string): Promise<Record<string, unknown>> {
    const described = await this.aws.sfn.send(new DescribeExecutionCommand({ executionArn }));
    return JSON.parse(described.output ?? '{}') as Record<string, unknown>;
  }

  /** The instances of the pools whose launch-template version is not their group's. */
  async outdatedInstances(clusterId: string, pools: readonly string[]): Promise<number> {
    let outdated = 0;
    for (const pool of pools) {
      const versions = await this.poolVersions(clusterId, pool);
      outdated += versions.instances.filter((v) => v !== versions.group).length;
    }
    return outdated;
  }

  async stackStatuses(): Promise<Record<string, string>> {
    const stacks = (await this.aws.cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? [];
    return Object.fromEntries(stacks.map((s) => [s.StackName!, s.StackStatus!]));
  }

  /** The launch-template version of a pool's group and of each of its instances. */
  async poolVersions(clusterId: string, pool: string): Promise<{ group: string; instances: string[] }> {
    const groups = (
      await this.aws.autoScaling.send(
        new DescribeAutoScalingGroupsCommand({
          Filters: [{ Name: 'tag-key', Values: [`kubernetes.io/cluster/${clusterId}`] }],
        }),
      )
    ).AutoScalingGroups!.filter((g) => (g.Tags ?? []).some((t) => t.Value === pool));
    if (groups.length !== 1) throw new Error(`pool ${pool} of ${clusterId}: ${groups.length} groups`);
    return {
      group: groups[0].LaunchTemplate?.Version ?? '',
      instances: (groups[0].Instances ?? []).map((i) => i.LaunchTemplate?.Version ?? ''),
    };
  }

  /** The nodes the harness joined from EC2 instances, by name. */
  async joinedNodes(): Promise<string[]> {
    return (await this.kube.listNodes())
      .filter((n) => n.labels['clm-integration/joined'] === 'true')
      .map((n) => n.name)
      .sort();
  }

  /** `clm ARGS` as an operator runs it against the deployed system (the emulator's endpoint, the CLM account). */
  clm(args: readonly string[]): SpawnSyncReturns<string> {
    return spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'clm.mjs'), ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: this.endpoint,
        AWS_ACCESS_KEY_ID: CLM_ACCOUNT,
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_REGION: REGION,
      },
    });
  }

  /**
   * The fleet page as someone with its link sees it: `clm fleet-page` signs the URL, a plain GET over loopback reads
   * it (no AWS credentials); the state of the cluster's card, or undefined while there is no page yet.
   */
  async fleetPageCard(bucket: string, clusterId: string): Promise<{ state?: string; contentType: string } | undefined> {
    const link = this.clm(['fleet-page', '--bucket', bucket, '--expires', '10m']);
    if (link.status !== 0) return undefined;
    const response = await fetch(link.stdout.trim());
    if (!response.ok) throw new Error(`GET of the signed fleet page URL: ${response.status} ${await response.text()}`);
    const html = await response.text();
    const card = new RegExp(`<article class="card state-([a-z-]+)" data-cluster="${clusterId}">`).exec(html);
    return { ...(card ? { state: card[1] } : {}), contentType: response.headers.get('content-type') ?? '' };
  }
}
