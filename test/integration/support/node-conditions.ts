import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/**
 * Writes a node's Ready condition as its kubelet would (the status subresource, which server-side apply of the Node
 * does not touch): for nodes whose bootstrap failed, which KWOK does not manage. Posted again on every sync with a
 * fresh heartbeat, as a kubelet keeps reporting, so the node lifecycle controller never overwrites it with "Unknown".
 */
export class NodeConditions {
  private readonly api: CoreV1Api;

  constructor(kubeconfigPath: string) {
    const config = new KubeConfig();
    config.loadFromFile(kubeconfigPath);
    this.api = config.makeApiClient(CoreV1Api);
  }

  async notReady(name: string, reason: string, message: string): Promise<void> {
    const node = await this.api.readNodeStatus({ name });
    const now = new Date();
    const others = (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
    const ready = { type: 'Ready', status: 'False', reason, message, lastHeartbeatTime: now, lastTransitionTime: now };
    await this.api.replaceNodeStatus({
      name,
      body: { ...node, status: { ...node.status, conditions: [...others, ready] } },
    });
  }
}
