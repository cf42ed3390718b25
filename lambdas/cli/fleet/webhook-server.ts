import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpRequest, HttpResponse } from '../../contracts/triggers';
import { DEFAULT_MAX_WEBHOOK_BODY_BYTES } from '../../core/webhook/webhook-request';
import { HEALTH_PATH, WEBHOOK_PATHS } from './webhook-paths';

export interface WebhookServerOptions {
  readonly port: number;
  /** The GithubWebhook task. */
  readonly webhook: (request: HttpRequest) => Promise<HttpResponse>;
  /** What GET /healthz reports. */
  readonly health: () => Readonly<Record<string, unknown>>;
  readonly log: (line: string) => void;
}

/**
 * `clm serve`'s HTTP side, on 127.0.0.1 only: `POST /webhooks/github` (and `/webhooks/gitlab`, `/webhooks/bitbucket`) runs the GithubWebhook task (the same
 * verification and answers as the deployed endpoint), `GET /healthz` says how the controller is doing. A body is
 * read up to one byte past the limit, so an oversized delivery is refused without being held in memory.
 */
export async function startWebhookServer(options: WebhookServerOptions): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      options.log(`webhook failed: ${(error as Error).message}`);
      send(res, { status: 500, body: { error: (error as Error).message } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: WebhookServerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path === HEALTH_PATH && req.method === 'GET') return send(res, { status: 200, body: options.health() });
  if (!(WEBHOOK_PATHS as readonly string[]).includes(path)) {
    return send(res, {
      status: 404,
      body: { error: `no ${path} here: POST ${WEBHOOK_PATHS.join(', ')}, GET ${HEALTH_PATH}` },
    });
  }
  const body = await readBody(req, DEFAULT_MAX_WEBHOOK_BODY_BYTES + 1);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const answer = await options.webhook({ method: req.method ?? 'GET', path, headers, body });
  const delivery =
    headers['x-github-delivery'] ??
    headers['idempotency-key'] ??
    headers['x-gitlab-event-uuid'] ??
    headers['x-request-id'] ??
    '-';
  const event = headers['x-github-event'] ?? headers['x-gitlab-event'] ?? headers['x-event-key'] ?? '-';
  const what = answer.body.message ?? answer.body.error ?? '';
  options.log(`webhook ${path.split('/').at(-1)} ${event} ${delivery}: ${answer.status} ${String(what)}`);
  send(res, answer);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size >= limit) return;
      chunks.push(chunk.subarray(0, limit - size));
      size += Math.min(chunk.length, limit - size);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, answer: HttpResponse): void {
  if (res.headersSent) return;
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(answer.body)}\n`);
}
