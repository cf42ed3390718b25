import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Registry } from '../../ports/registry';
import { ValidationError } from '../../shared/errors';
import { DynamoDbRegistry } from './dynamodb-registry';
import { FileRegistry } from './file-registry';
import { HttpRegistry } from './http-registry';
import type { HttpRegistryOptions } from './http-registry';
import type { AdapterLogger } from './registry-logger';

export interface CreateRegistryOptions {
  /** Bearer token for an HTTP registry (`--token`). */
  readonly token?: string;
  /** Relative file paths resolve against this directory. */
  readonly cwd: string;
  /** Client for `dynamodb://` (endpoint override for DynamoDB Local). @default new DynamoDBClient({}) */
  readonly dynamoDb?: DynamoDBClient;
  readonly logger?: AdapterLogger;
  /** Timeouts, retries, sleep/fetch injection for an HTTP registry. */
  readonly http?: Omit<HttpRegistryOptions, 'baseUrl' | 'token' | 'logger'>;
}

export const REGISTRY_URI_FORMS =
  'a path or file://PATH (clusters.yaml), http(s)://HOST[/PREFIX] (Cluster Registry API), or dynamodb://TABLE';

/**
 * The registry named by `--registry`:
 *  - `clusters.yaml`, `./dir/clusters.yaml`, `/abs/clusters.yaml` — a file, relative to `cwd`;
 *  - `file://clusters.yaml` (relative to `cwd`) or `file:///abs/clusters.yaml`;
 *  - `http://…`, `https://…` — the HTTP Cluster Registry API at that base URL;
 *  - `dynamodb://TABLE` — our DynamoDB registry table (region and credentials from the SDK's usual chain).
 * Any other scheme is a usage error naming the accepted forms.
 */
export function createRegistry(uri: string, options: CreateRegistryOptions): Registry {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined) return fileRegistry(uri, uri, options);
  switch (scheme) {
    case 'file': {
      const rest = uri.slice('file://'.length);
      if (rest === '')
        throw new ValidationError(`--registry ${uri}: the file path is empty; use ${REGISTRY_URI_FORMS}`);
      const path = rest.startsWith('/') ? fileURLToPath(uri) : rest;
      return fileRegistry(path, rest, options);
    }
    case 'http':
    case 'https':
      return new HttpRegistry({ ...options.http, baseUrl: uri, token: options.token, logger: options.logger });
    case 'dynamodb': {
      const table = uri.slice('dynamodb://'.length).replace(/\/+$/, '');
      if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(table)) {
        throw new ValidationError(
          `--registry ${uri}: ${JSON.stringify(table)} is not a DynamoDB table name (3-255 of a-z A-Z 0-9 _ . -)`,
        );
      }
      return new DynamoDbRegistry({ tableName: table, client: options.dynamoDb });
    }
    default:
      throw new ValidationError(`--registry ${uri}: unsupported scheme ${scheme}://; use ${REGISTRY_URI_FORMS}`);
  }
}

function fileRegistry(path: string, displayName: string, options: CreateRegistryOptions): FileRegistry {
  return new FileRegistry({
    path: isAbsolute(path) ? path : resolve(options.cwd, path),
    displayName,
    logger: options.logger,
  });
}
