import { LoopbackJsonServer, type JsonAnswer } from './loopback-json-server';

/**
 * A fake of Bitbucket Cloud's build statuses (`POST /2.0/repositories/{workspace}/{repo_slug}/commit/{sha}/statuses/build`,
 * `GET …/commit/{sha}/statuses`) on 127.0.0.1, keeping real state and refusing what Bitbucket refuses:
 * - auth: `Authorization: Bearer <access token>` or `Basic <user:app password>` must be known (401);
 * - an unknown repository or commit is 404;
 * - `key` (at most 40 characters), `state` (INPROGRESS, SUCCESSFUL, FAILED, STOPPED) and `url` are required (400
 *   naming the field); `name` at most 255 characters;
 * - one status per key and commit: a POST of a known key replaces its state, name, url and description (200; new: 201).
 */
export interface FakeBitbucketOptions {
  readonly tokens?: readonly string[];
  /** `user:app password` pairs. */
  readonly appPasswords?: readonly string[];
  /** `workspace/repo_slug` (any case) and their commits. */
  readonly repositories: Readonly<Record<string, ReadonlySet<string>>>;
}

export interface FakeBitbucketStatus {
  readonly key: string;
  state: string;
  name: string;
  url: string;
  description: string;
}

const STATES = ['INPROGRESS', 'SUCCESSFUL', 'FAILED', 'STOPPED'];
const MAX_KEY = 40;
const MAX_NAME = 255;

function refused(status: number, message: string, fields?: Record<string, string[]>): JsonAnswer {
  return { status, body: { type: 'error', error: { message, ...(fields ? { fields } : {}) } } };
}

export class FakeBitbucket {
  private readonly statuses = new Map<string, FakeBitbucketStatus[]>();
  private readonly server = new LoopbackJsonServer((r) => this.handle(r), refused(400, 'Bad request').body);

  constructor(private readonly options: FakeBitbucketOptions) {}

  get requests() {
    return this.server.requests;
  }

  /** The API URL CLM is given: `http://127.0.0.1:PORT/2.0`. */
  get apiUrl(): string {
    return `${this.server.url}/2.0`;
  }

  listen(): Promise<string> {
    return this.server.listen();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The statuses of a commit (copies), in the order their keys were first set. */
  statusesOf(repository: string, sha: string): FakeBitbucketStatus[] {
    return (this.statuses.get(`${repository.toLowerCase()}@${sha}`) ?? []).map((s) => ({ ...s }));
  }

  private authorized(header: string): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (bearer) return (this.options.tokens ?? []).includes(bearer);
    const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
    return !!basic && (this.options.appPasswords ?? []).includes(Buffer.from(basic, 'base64').toString('utf8'));
  }

  private handle(r: {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
  }): JsonAnswer {
    if (!this.authorized(String(r.headers.authorization ?? ''))) return refused(401, 'Unauthorized');
    const route = /^\/2\.0\/repositories\/([^/]+)\/([^/]+)\/commit\/([^/]+)\/statuses(\/build)?$/.exec(r.path);
    if (!route) return refused(404, 'Resource not found');
    const repository = `${decodeURIComponent(route[1]!)}/${decodeURIComponent(route[2]!)}`.toLowerCase();
    const commits = Object.entries(this.options.repositories).find(([p]) => p.toLowerCase() === repository)?.[1];
    if (!commits) return refused(404, `Repository ${repository} not found`);
    const sha = route[3]!;
    if (!commits.has(sha)) return refused(404, `Commit not found`);
    const key = `${repository}@${sha}`;
    if (!route[4] && r.method === 'GET')
      return { status: 200, body: { values: this.statuses.get(key) ?? [], pagelen: 10 } };
    if (!route[4] || r.method !== 'POST') return refused(405, 'Method not allowed');
    return this.setStatus(key, (r.body ?? {}) as Record<string, unknown>);
  }

  private setStatus(at: string, body: Record<string, unknown>): JsonAnswer {
    const fields: Record<string, string[]> = {};
    const text = (field: string) => (typeof body[field] === 'string' ? (body[field] as string) : '');
    for (const field of ['key', 'state', 'url']) if (!text(field)) fields[field] = ['This field is required.'];
    if (text('key').length > MAX_KEY)
      fields.key = [`Ensure this value has at most ${MAX_KEY} characters (it has ${text('key').length}).`];
    if (text('state') && !STATES.includes(text('state'))) fields.state = [`"${text('state')}" is not a valid choice.`];
    if (text('url') && !/^https?:\/\/\S+$/.test(text('url'))) fields.url = ['Enter a valid URL.'];
    if (text('name').length > MAX_NAME)
      fields.name = [`Ensure this value has at most ${MAX_NAME} characters (it has ${text('name').length}).`];
    const bad = Object.keys(fields);
    if (bad.length) return refused(400, `${bad[0]}: ${fields[bad[0]!]![0]}`, fields);
    const list = this.statuses.get(at) ?? [];
    const known = list.find((s) => s.key === text('key'));
    const status: FakeBitbucketStatus = known ?? { key: text('key'), state: '', name: '', url: '', description: '' };
    Object.assign(status, {
      state: text('state'),
      name: text('name') || status.key,
      url: text('url'),
      description: text('description'),
    });
    if (!known) this.statuses.set(at, [...list, status]);
    return { status: known ? 200 : 201, body: { type: 'build', ...status } };
  }
}
