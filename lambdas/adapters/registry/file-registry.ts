import { readFile } from 'node:fs/promises';
import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus } from '../../core/model/cluster';
import { parseClustersYaml } from '../../core/model/parse-clusters';
import type { Registry } from '../../ports/registry';
import { NotFoundError, RegistryError } from '../../shared/errors';
import { silentLogger } from './registry-logger';
import type { AdapterLogger } from './registry-logger';

export interface FileRegistryOptions {
  /** Absolute path of the YAML file. */
  readonly path: string;
  /** How the file is named in messages (the path as the user gave it). @default path */
  readonly displayName?: string;
  readonly logger?: AdapterLogger;
}

interface Overlay {
  lifecycleStatus?: LifecycleStatus;
  status?: ClusterStatus;
  configItems?: ConfigItems;
}

/**
 * A `clusters.yaml` file as registry (CLM §2.2). The file is re-read on every `listClusters`, so edits
 * take effect on the next run. It is never written: `persistsStatus` is false and the caller keeps status
 * in the ProgressStore; `updateStatus` and `updateConfigItems` are remembered in memory for this process
 * and laid over what the file says.
 */
export class FileRegistry implements Registry {
  readonly description: string;
  readonly persistsStatus = false;
  /** Warnings of the last read (e.g. the deprecated `instance_type`), `file:line: …`. */
  warnings: readonly string[] = [];
  private readonly options: FileRegistryOptions;
  private readonly overlays = new Map<string, Overlay>();
  private readonly warned = new Set<string>();
  private knownIds = new Set<string>();

  constructor(options: FileRegistryOptions) {
    this.options = options;
    this.description = `file://${options.displayName ?? options.path}`;
  }

  async listClusters(): Promise<Cluster[]> {
    const name = this.options.displayName ?? this.options.path;
    let text: string;
    try {
      text = await readFile(this.options.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
      throw new RegistryError(`cannot read the cluster registry file ${name} (${this.options.path}): ${reason}`, {
        cause: error,
      });
    }
    const { clusters, warnings } = parseClustersYaml(text, name);
    this.warnings = warnings;
    const logger = this.options.logger ?? silentLogger;
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      logger.warn(warning);
    }
    this.knownIds = new Set(clusters.map((c) => c.id));
    return clusters.map((cluster) => this.overlay(cluster));
  }

  async updateStatus(
    clusterId: string,
    update: { lifecycleStatus?: LifecycleStatus; status: ClusterStatus },
  ): Promise<void> {
    const overlay = this.overlayFor(clusterId);
    overlay.status = update.status;
    if (update.lifecycleStatus !== undefined) overlay.lifecycleStatus = update.lifecycleStatus;
  }

  async updateConfigItems(clusterId: string, items: ConfigItems): Promise<void> {
    const overlay = this.overlayFor(clusterId);
    overlay.configItems = { ...overlay.configItems, ...items };
  }

  private overlayFor(clusterId: string): Overlay {
    if (!this.knownIds.has(clusterId)) {
      throw new NotFoundError(
        `cluster ${clusterId} is not in ${this.description}${this.knownIds.size === 0 ? ' (or the file was not read yet)' : ''}`,
      );
    }
    let overlay = this.overlays.get(clusterId);
    if (!overlay) {
      overlay = {};
      this.overlays.set(clusterId, overlay);
    }
    return overlay;
  }

  private overlay(cluster: Cluster): Cluster {
    const overlay = this.overlays.get(cluster.id);
    if (!overlay) return cluster;
    return {
      ...cluster,
      ...(overlay.lifecycleStatus !== undefined ? { lifecycleStatus: overlay.lifecycleStatus } : {}),
      ...(overlay.status !== undefined ? { status: overlay.status } : {}),
      ...(overlay.configItems !== undefined ? { configItems: { ...cluster.configItems, ...overlay.configItems } } : {}),
    };
  }
}
