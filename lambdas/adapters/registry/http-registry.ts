import type { Cluster, ClusterStatus, ConfigItems, LifecycleStatus } from '../../core/model/cluster';
import { toWireStatus } from '../../core/model/cluster-wire';
import { CONFIG_KEY_PATTERN } from '../../core/model/wire-cluster-schema';
import { parseRegistryClusters } from '../../core/model/parse-clusters';
import type { Registry } from '../../ports/registry';
import { RegistryError, ValidationError } from '../../shared/errors';
import { HttpJsonClient } from './http-json-client';
import { redactSecrets } from '../../shared/redact';
import type { HttpJsonClientOptions } from './http-json-client';

export type HttpRegistryOptions = HttpJsonClientOptions;

interface AccountInfo {
  readonly owner?: string;
  readonly name?: string;
}

/**
 * The HTTP Cluster Registry API (CLM §2.3): lists `/kubernetes-clusters`, fills `owner` and `accountName`
 * from the ready `/infrastructure-accounts`, PATCHes status and PUTs config items. Server responses are
 * validated (unknown fields ignored); a bad cluster is a RegistryError naming its id and field.
 */
export class HttpRegistry implements Registry {
  readonly description: string;
  readonly persistsStatus = true;
  private readonly client: HttpJsonClient;

  constructor(options: HttpRegistryOptions) {
    this.client = new HttpJsonClient(options);
    this.description = redactSecrets(options.baseUrl.replace(/\/+$/, ''));
  }

  async listClusters(): Promise<Cluster[]> {
    const listPath = '/kubernetes-clusters';
    const items = itemsOf(await this.client.request('GET', listPath), `GET ${listPath}`);
    const accounts = await this.readyAccounts();
    const { clusters, issues } = parseRegistryClusters(items, 'lenient');
    if (issues.length > 0) {
      throw new RegistryError(
        `GET ${listPath} returned ${issues.length} invalid field${issues.length === 1 ? '' : 's'}:\n  - ${issues.join('\n  - ')}`,
      );
    }
    return clusters.map((cluster) => {
      const account = accounts.get(cluster.infrastructureAccount);
      if (!account) return cluster;
      return {
        ...cluster,
        ...(account.owner !== undefined ? { owner: account.owner } : {}),
        ...(account.name !== undefined ? { accountName: account.name } : {}),
      };
    });
  }

  async updateStatus(
    clusterId: string,
    update: { lifecycleStatus?: LifecycleStatus; status: ClusterStatus },
  ): Promise<void> {
    const body = {
      ...(update.lifecycleStatus !== undefined ? { lifecycle_status: update.lifecycleStatus } : {}),
      status: toWireStatus(update.status),
    };
    await this.client.request('PATCH', `/kubernetes-clusters/${pathSegment(clusterId)}`, body);
  }

  async updateConfigItems(clusterId: string, items: ConfigItems): Promise<void> {
    const badKeys = Object.keys(items).filter((key) => !CONFIG_KEY_PATTERN.test(key));
    if (badKeys.length > 0) {
      throw new ValidationError(`config item keys ${badKeys.join(', ')} must match ${CONFIG_KEY_PATTERN.source}`, {
        location: { clusterId },
      });
    }
    for (const [key, value] of Object.entries(items)) {
      await this.client.request(
        'PUT',
        `/kubernetes-clusters/${pathSegment(clusterId)}/config-items/${pathSegment(key)}`,
        { value },
      );
    }
  }

  private async readyAccounts(): Promise<Map<string, AccountInfo>> {
    const path = '/infrastructure-accounts?lifecycle_status=ready';
    const accounts = new Map<string, AccountInfo>();
    for (const item of itemsOf(await this.client.request('GET', path), `GET ${path}`)) {
      if (!item || typeof item !== 'object') continue;
      const { id, owner, name } = item as Record<string, unknown>;
      if (typeof id !== 'string') continue;
      accounts.set(id, {
        ...(typeof owner === 'string' ? { owner } : {}),
        ...(typeof name === 'string' ? { name } : {}),
      });
    }
    return accounts;
  }
}

function itemsOf(body: unknown, what: string): unknown[] {
  const items = body && typeof body === 'object' ? (body as { items?: unknown }).items : undefined;
  if (!Array.isArray(items))
    throw new RegistryError(
      `${what}: expected a JSON object {"items": [...]}, got ${body === undefined ? 'an empty body' : typeof body}`,
    );
  return items;
}

/** Cluster ids contain colons, which are valid in a path segment (RFC 3986 pchar); keep them readable. */
function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':');
}
