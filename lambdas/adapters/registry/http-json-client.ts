import { RegistryError, RegistryUnavailableError } from '../../shared/errors';
import { hostAndPort } from '../../shared/host-port';
import { silentLogger } from './registry-logger';
import { rememberSecret } from '../../shared/redact';
import type { AdapterLogger } from './registry-logger';

export interface HttpJsonClientOptions {
  /** Base URL, e.g. `https://registry.example.org` or `http://127.0.0.1:8080/api` (a path prefix is kept). */
  readonly baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>`; never logged, never part of an error message (also when the server echoes
   * it). Without a token, a `user:password@` in `baseUrl` is sent as Basic credentials.
   */
  readonly token?: string;
  /** Per attempt, connect to last byte. @default 10000 */
  readonly timeoutMs?: number;
  /** Attempts in total for 5xx, 429, timeouts and network errors. @default 4 */
  readonly maxAttempts?: number;
  /** First backoff step; doubles per attempt, "equal jitter" (half fixed, half random). @default 250 */
  readonly baseDelayMs?: number;
  /** Cap of one backoff step. @default 5000 */
  readonly maxDelayMs?: number;
  /** A longer Retry-After than this is not waited for: the call fails as unavailable (retry later). @default 30000 */
  readonly maxRetryAfterMs?: number;
  /** Injectable so tests never sleep. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** @default Math.random */
  readonly random?: () => number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  readonly logger?: AdapterLogger;
}

interface Attempt {
  readonly response?: { status: number; statusText: string; text: string; retryAfter: string | null };
  readonly failure?: string;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A small JSON-over-HTTP client for the Cluster Registry API: bearer token, per-attempt timeout
 * (AbortController), retries with exponential backoff and jitter on 5xx/429/network errors honouring
 * Retry-After. A 4xx is a RegistryError naming the method, path and the server's `{code, message}`;
 * retries used up is a RegistryUnavailableError (retryable).
 */
export class HttpJsonClient {
  private readonly baseUrl: string;
  private readonly options: HttpJsonClientOptions;
  private readonly logger: AdapterLogger;

  private readonly authorization?: string;

  constructor(options: HttpJsonClientOptions) {
    this.options = options;
    // `https://user:password@host`: fetch refuses a URL with credentials, so they go in a Basic header instead (a
    // token wins), and both are remembered as secrets: no error shows them.
    const { url, user, password } = splitCredentials(options.baseUrl.replace(/\/+$/, ''));
    this.baseUrl = url;
    rememberSecret(options.token);
    rememberSecret(password);
    if (options.token) this.authorization = `Bearer ${options.token}`;
    else if (user !== undefined)
      this.authorization = `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`;
    this.logger = options.logger ?? silentLogger;
  }

  /** Sends the request and returns the parsed JSON body (undefined for an empty body). */
  async request(method: 'GET' | 'PATCH' | 'PUT', path: string, body?: unknown): Promise<unknown> {
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? 4);
    const sleep = this.options.sleep ?? defaultSleep;
    let lastProblem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const result = await this.attempt(method, path, body);
      if (result.response && result.response.status < 400) return parseJson(method, path, result.response.text);
      if (result.response && result.response.status !== 429 && result.response.status < 500) {
        throw new RegistryError(
          `${method} ${path} failed: ${describeStatus(result.response)}${serverMessage(result.response.text)}`,
        );
      }
      lastProblem = result.response ? describeStatus(result.response) : (result.failure ?? 'unknown failure');
      if (attempt === maxAttempts) break;

      const retryAfterMs = parseRetryAfter(result.response?.retryAfter ?? null);
      const maxRetryAfterMs = this.options.maxRetryAfterMs ?? 30_000;
      if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs) {
        throw new RegistryUnavailableError(
          `${method} ${path}: registry unavailable (${lastProblem}); it asks to retry after ${Math.ceil(retryAfterMs / 1000)} s`,
        );
      }
      const delayMs = retryAfterMs ?? this.backoff(attempt);
      this.logger.warn(`Retrying ${method} ${path} in ${delayMs} ms after ${lastProblem}`, { attempt, maxAttempts });
      await sleep(delayMs);
    }
    throw new RegistryUnavailableError(
      `${method} ${path}: registry unavailable after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}; last: ${lastProblem}`,
    );
  }

  private backoff(attempt: number): number {
    const base = this.options.baseDelayMs ?? 250;
    const cap = Math.min(this.options.maxDelayMs ?? 5000, base * 2 ** (attempt - 1));
    const random = this.options.random ?? Math.random;
    return Math.round(cap / 2 + random() * (cap / 2));
  }

  private async attempt(method: string, path: string, body: unknown): Promise<Attempt> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.authorization) headers.authorization = this.authorization;
    try {
      const response = await (this.options.fetch ?? fetch)(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await response.text();
      return {
        response: {
          status: response.status,
          statusText: response.statusText,
          text,
          retryAfter: response.headers.get('retry-after'),
        },
      };
    } catch (error) {
      if (controller.signal.aborted)
        return { failure: `no response within ${timeoutMs} ms from ${hostAndPort(this.baseUrl)}` };
      return { failure: `network error reaching ${hostAndPort(this.baseUrl)}: ${networkReason(error)}` };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The URL without its user information, and that information decoded. */
export function splitCredentials(baseUrl: string): { url: string; user?: string; password?: string } {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    return { url: baseUrl };
  }
  if (!parsed.username && !parsed.password) return { url: baseUrl };
  const user = decodeURIComponent(parsed.username);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString().replace(/\/+$/, ''), user, ...(password !== undefined ? { password } : {}) };
}

function parseJson(method: string, path: string, text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RegistryError(
      `${method} ${path}: the registry answered with malformed JSON (${(error as Error).message}): ${preview(text)}`,
      { cause: error },
    );
  }
}

function describeStatus(response: { status: number; statusText: string }): string {
  return `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
}

/** `: <message> (code <code>)` from the API's `Error` schema, else a preview of the body. */
function serverMessage(text: string): string {
  if (text.trim() === '') return '';
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (parsed && typeof parsed === 'object' && typeof parsed.message === 'string') {
      return `: ${parsed.message}${parsed.code !== undefined ? ` (code ${String(parsed.code)})` : ''}`;
    }
  } catch {
    // not JSON: fall through
  }
  return `: ${preview(text)}`;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? (cause?.message || undefined) ?? (error as Error).message ?? String(error);
  return reason === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : reason;
}
