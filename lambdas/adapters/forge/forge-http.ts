import { TransientApiError } from '../../shared/errors';

/** What a forge answered: its status and body text (a 5xx and an unreachable forge were thrown). */
export interface ForgeAnswer {
  readonly status: number;
  readonly text: string;
}

/**
 * One JSON request to a forge's REST API. Unreachable, timed out or 5xx: TransientApiError naming `where`; any other
 * answer is returned for the adapter to classify (a 4xx is its ConfigError, with the forge's message).
 */
export async function forgeRequest(request: {
  readonly where: string;
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}): Promise<ForgeAnswer> {
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        'user-agent': 'clm',
        ...request.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    throw new TransientApiError(`${request.where}: cannot reach it: ${(error as Error).message}`, { cause: error });
  }
  const text = await response.text();
  if (response.status >= 500) throw new TransientApiError(`${request.where}: HTTP ${response.status}`);
  return { status: response.status, text };
}

/** A forge's error body as one line: JSON messages flattened (`{"message": {"name": ["is too long"]}}`), else text. */
export function errorText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(errorText).join(', ');
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, v]) => (typeof v === 'object' && v !== null ? `${key} ${errorText(v)}` : errorText(v)))
      .join('; ');
  }
  return String(value ?? '');
}

/** The parsed JSON body, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
