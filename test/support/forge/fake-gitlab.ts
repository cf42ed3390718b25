import { LoopbackJsonServer, type JsonAnswer } from './loopback-json-server';

/**
 * A fake of GitLab's commit status API (`POST /api/v4/projects/:id/statuses/:sha`, `GET
 * /api/v4/projects/:id/repository/commits/:sha/statuses`) on 127.0.0.1, keeping real state and refusing what GitLab
 * refuses:
 * - auth: `PRIVATE-TOKEN: <t>` or `Authorization: Bearer <t>` must be a known token (401 "401 Unauthorized");
 * - `:id` is the URL-encoded full path of a known project (`group%2Fsub%2Fname`; 404 "404 Project Not Found"), the
 *   commit one it has (404 "404 Commit Not Found");
 * - `state` one of pending, running, success, failed, canceled (400 "state does not have a valid value"); `name`
 *   defaults to `default`, at most 255 characters; `target_url` http(s);
 * - GitLab's state machine: the status of a name that is pending or running is moved (pending: created→pending;
 *   running: created→pending→running; success, failed, canceled from created, pending or running), else a new status
 *   is created; a move the machine does not have is 400 "Cannot transition status via :run from :running".
 */
export interface FakeGitlabOptions {
  readonly tokens: readonly string[];
  /** Full project paths (any case) and their commits. */
  readonly projects: Readonly<Record<string, ReadonlySet<string>>>;
}

export interface FakeGitlabStatus {
  readonly id: number;
  readonly name: string;
  status: string;
  description: string | null;
  target_url: string | null;
}

const STATES = ['pending', 'running', 'success', 'failed', 'canceled'];
/** event → [its name in GitLab's errors, the states it moves from, the state it moves to]. */
const EVENTS: Record<string, readonly [string, readonly string[], string]> = {
  enqueue: ['enqueue', ['created'], 'pending'],
  run: ['run', ['pending'], 'running'],
  success: ['success', ['created', 'pending', 'running'], 'success'],
  drop: ['drop', ['created', 'pending', 'running'], 'failed'],
  cancel: ['cancel', ['created', 'pending', 'running'], 'canceled'],
};
/** What each requested state does: the events fired (`?` first: fired only when it can be, as GitLab's `enqueue`). */
const MOVES: Record<string, readonly string[]> = {
  pending: ['enqueue'],
  running: ['?enqueue', 'run'],
  success: ['success'],
  failed: ['drop'],
  canceled: ['cancel'],
};

export class FakeGitlab {
  private readonly statuses = new Map<string, FakeGitlabStatus[]>();
  private readonly server = new LoopbackJsonServer((r) => this.handle(r), { error: '400 Bad request' });
  private nextId = 1;

  constructor(private readonly options: FakeGitlabOptions) {}

  get requests() {
    return this.server.requests;
  }

  /** The API URL CLM is given: `http://127.0.0.1:PORT/api/v4`. */
  get apiUrl(): string {
    return `${this.server.url}/api/v4`;
  }

  listen(): Promise<string> {
    return this.server.listen();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The statuses of a commit, oldest first, as `[name, status]`. */
  statusesOf(project: string, sha: string): [string, string][] {
    return (this.statuses.get(`${project.toLowerCase()}@${sha}`) ?? []).map((s) => [s.name, s.status]);
  }

  all(project: string, sha: string): readonly FakeGitlabStatus[] {
    return this.statuses.get(`${project.toLowerCase()}@${sha}`) ?? [];
  }

  private handle(r: {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
  }): JsonAnswer {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(r.headers.authorization ?? ''))?.[1];
    const token = r.headers['private-token'] ?? bearer;
    if (typeof token !== 'string' || !this.options.tokens.includes(token))
      return { status: 401, body: { message: '401 Unauthorized' } };
    const route = /^\/api\/v4\/projects\/([^/]+)\/(statuses|repository\/commits)\/([^/]+)(\/statuses)?$/.exec(r.path);
    if (!route) return { status: 404, body: { error: '404 Not Found' } };
    const project = decodeURIComponent(route[1]!).toLowerCase();
    const commits = Object.entries(this.options.projects).find(([p]) => p.toLowerCase() === project)?.[1];
    if (!commits) return { status: 404, body: { message: '404 Project Not Found' } };
    const sha = route[3]!;
    if (!commits.has(sha)) return { status: 404, body: { message: '404 Commit Not Found' } };
    const key = `${project}@${sha}`;
    if (route[2] === 'repository/commits' && route[4] && r.method === 'GET')
      return { status: 200, body: [...(this.statuses.get(key) ?? [])].reverse() };
    if (route[2] !== 'statuses' || route[4] || r.method !== 'POST')
      return { status: 404, body: { error: '404 Not Found' } };
    return this.setStatus(key, (r.body ?? {}) as Record<string, unknown>);
  }

  private setStatus(key: string, body: Record<string, unknown>): JsonAnswer {
    const state = body.state;
    if (typeof state !== 'string' || !STATES.includes(state))
      return { status: 400, body: { error: 'state does not have a valid value' } };
    const name = typeof body.name === 'string' ? body.name : 'default';
    if (name.length > 255)
      return { status: 400, body: { message: { name: ['is too long (maximum is 255 characters)'] } } };
    const url = body.target_url;
    if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)))
      return { status: 400, body: { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } } };
    const list = this.statuses.get(key) ?? [];
    const open = list.filter((s) => s.name === name && ['pending', 'running'].includes(s.status)).at(-1);
    const status: FakeGitlabStatus = open ?? {
      id: this.nextId++,
      name,
      status: 'created',
      description: typeof body.description === 'string' ? body.description : null,
      target_url: typeof url === 'string' ? url : null,
    };
    let next = status.status;
    for (const move of MOVES[state]!) {
      const [event, from, to] = EVENTS[move.replace('?', '')]!;
      if (from.includes(next)) next = to;
      else if (!move.startsWith('?'))
        return { status: 400, body: { message: `Cannot transition status via :${event} from :${next}` } };
    }
    status.status = next;
    if (typeof body.description === 'string') status.description = body.description;
    if (typeof url === 'string') status.target_url = url;
    if (!open) this.statuses.set(key, [...list, status]);
    return { status: 201, body: { ...status, sha: key.split('@')[1] } };
  }
}
