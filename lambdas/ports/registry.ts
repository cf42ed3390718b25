import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus } from '../core/model/cluster';

/** Where clusters are defined: a YAML file, the HTTP Cluster Registry API, or our DynamoDB table. */
export interface Registry {
  /** A human name for logs and errors, e.g. `file://examples/clusters.yaml`. */
  readonly description: string;
  /**
   * False when the registry cannot store status (the YAML file): the caller keeps status in the
   * ProgressStore instead and overlays it on what `listClusters` returns.
   */
  readonly persistsStatus: boolean;
  listClusters(): Promise<Cluster[]>;
  /** PATCH lifecycle status and the full status block (CLM's only status write). */
  updateStatus(clusterId: string, update: { lifecycleStatus?: LifecycleStatus; status: ClusterStatus }): Promise<void>;
  /** PUT config items (only the given keys). */
  updateConfigItems(clusterId: string, items: ConfigItems): Promise<void>;
}
