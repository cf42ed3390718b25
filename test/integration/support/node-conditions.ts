import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/** Status writes tried again after a 409 Conflict before the error is the test's to see. */
const CONFLICT_RETRIES = 5;

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

  /**
   * A kubelet's status write loses a race whenever someone else changed the Node since it was read (CLM cordoning it,
   * the node lifecycle controller): the API server answers 409 Conflict, and the kubelet reads again and retries.
   */
  async notReady(name: string, reason: string, message: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeNotReady(name, reason, message);
      } catch (error) {
        if ((error as { code?: number }).code !== 409 || attempt >= CONFLICT_RETRIES) throw error;
      }
    }
  }

  private async writeNotReady(name: string, reason: string, message: string): Promise<void> {
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
