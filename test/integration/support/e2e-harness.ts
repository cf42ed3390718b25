import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import type { KubeCluster } from '../../../lambdas/ports/kube-cluster';
import { BackgroundLoop } from './background-loop';
import { LeaseHeartbeat } from './kubelet-stand-ins';
import { deleteReplacedGroups, propagateLaunchTemplateVersions } from './moto-shims';
import { NodeJoiner, type JoinerBootstrap } from './node-joiner';

/**
 * The background loop of the end-to-end test (and of the deployed tier, test/deployed/), standing in for what AWS and
 * kubelets do on their own while CLM runs in another process:
 *  - moto shims (`motoShims`, default on; MiniStack needs none): after a node-pool stack update, move its groups to
 *    the new launch-template version, and delete the groups an update replaced but moto left running;
 *  - join the instances as KWOK nodes — with `bootstrap`, once they ran a CLM node's bootstrap (their files bundle
 *    fetched and decrypted as their role, node-joiner.ts) — and remove the nodes of terminated instances;
 *  - renew the joined nodes' leases;
 *  - watch every PodDisruptionBudget and count observations where fewer pods are healthy than it demands.
 */
export class E2eHarness {
  readonly errors: Error[] = [];
  private readonly loop = new BackgroundLoop(() => this.tick(), this.errors);
  readonly joiner: NodeJoiner;
  private readonly heartbeat: LeaseHeartbeat;
  /** `namespace/name: healthy < desired` observations (each distinct one once). */
  readonly pdbViolations = new Set<string>();
  private lastBeat = 0;
  /** Off while workloads first come up (not healthy yet is no violation); on for rolls. */
  watchPdbs = false;

  /** Groups deleted by the moto shim deleteReplacedGroups, for the report. */
  readonly replacedGroups: string[] = [];

  constructor(
    private readonly clients: AwsClients,
    private readonly kube: KubeCluster,
    private readonly clusterTag: string,
    private readonly stackPrefix: string,
    private readonly options: { readonly motoShims?: boolean; readonly bootstrap?: JoinerBootstrap } = {},
  ) {
    this.joiner = new NodeJoiner(clients, kube, clusterTag, options.bootstrap);
    this.heartbeat = new LeaseHeartbeat(kube, async () =>
      (await kube.listNodes()).filter((n) => n.labels['clm-integration/joined'] === 'true').map((n) => n.name),
    );
  }

  async tick(): Promise<void> {
    if (this.options.motoShims ?? true) await this.motoShims();
    await this.joiner.sync();
    if (Date.now() - this.lastBeat > 5000) {
      await this.heartbeat.beat();
      this.lastBeat = Date.now();
    }
    if (!this.watchPdbs) return;
    for (const pdb of await this.kube.listPdbs()) {
      // expectedPods 0: the workload is not there (yet, or any more); nothing to protect.
      if (pdb.expectedPods > 0 && pdb.currentHealthy < pdb.desiredHealthy) {
        this.pdbViolations.add(
          `${pdb.namespace}/${pdb.name}: healthy ${pdb.currentHealthy} < desired ${pdb.desiredHealthy}`,
        );
      }
    }
  }

  private async motoShims(): Promise<void> {
    const stacks = (await this.clients.cloudFormation.send(new DescribeStacksCommand({}))).Stacks ?? [];
    for (const stack of stacks) {
      if (stack.StackName?.startsWith(this.stackPrefix) && /^(CREATE|UPDATE)_COMPLETE$/.test(stack.StackStatus ?? '')) {
        await propagateLaunchTemplateVersions(this.clients, stack.StackName);
      }
    }
    this.replacedGroups.push(...(await deleteReplacedGroups(this.clients, this.clusterTag)));
  }

  start(intervalMs = 500): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
