import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeRequest } from './fake-github';
import { INVALID, readJson } from './fake-github-rules';

/** What a fake forge answers: an HTTP status and a JSON body. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * A JSON API on 127.0.0.1 for the fake forges: the handler gets the raw path (percent-encoding kept, as GitLab's
 * `projects/group%2Fname` needs), the headers and the parsed body; every answer is recorded in `requests`.
 */
export class LoopbackJsonServer {
  readonly requests: FakeRequest[] = [];
  private server?: Server;
  url = '';

  constructor(
    private readonly handler: (request: {
      method: string;
      path: string;
      query: URLSearchParams;
      headers: IncomingMessage['headers'];
      body: unknown;
    }) => JsonAnswer,
    private readonly invalidJson: unknown,
  ) {}

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) =>
        this.send(req, res, { status: 500, body: { message: error.message } }),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (body === INVALID) return this.send(req, res, { status: 400, body: this.invalidJson });
    const [path, query] = (req.url ?? '/').split('?');
    this.send(
      req,
      res,
      this.handler({
        method: req.method ?? 'GET',
        path: path!,
        query: new URLSearchParams(query ?? ''),
        headers: req.headers,
        body,
      }),
    );
  }

  private send(req: IncomingMessage, res: ServerResponse, answer: JsonAnswer): void {
    this.requests.push({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, status: answer.status });
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(answer.body));
  }
}
