// A fake forge for trying `clm serve` by hand (the README's local demo): a fake of GitHub's API on loopback over local
// bare repositories, and deliveries of real-shaped, signed webhooks built from them.
//
//   npx tsx test/support/forge/fake-forge-cli.ts serve --port 9090 --token-file F --repo acme/cluster-config=/srv/git/x.git
//   npx tsx test/support/forge/fake-forge-cli.ts push --repo acme/cluster-config=/srv/git/x.git --ref main \
//       --secret-file /tmp/hook-secret --to http://127.0.0.1:8080/webhooks/github
//   npx tsx test/support/forge/fake-forge-cli.ts pull-request --repo acme/cluster-config=/srv/git/x.git --head raise \
//       --base main --forge http://127.0.0.1:9090 --token-file F --secret-file /tmp/hook-secret --to http://127.0.0.1:8080/webhooks/github
//   npx tsx test/support/forge/fake-forge-cli.ts pull-request --action synchronize --number 1 --repo … --head raise \
//       --base main --secret-file /tmp/hook-secret --to http://127.0.0.1:8080/webhooks/github   (after a push to `raise`)
//
// `serve --port 0` takes a free port; the first line it prints names the URL.
// `serve` keeps statuses and comments in memory and refuses what GitHub refuses (fake-github.ts); read them with
// `curl -H "Authorization: Bearer $(cat F)" http://127.0.0.1:9090/repos/acme/cluster-config/commits/<sha>/statuses` and
// `…/issues/<n>/comments`.
import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FakeGithub } from './fake-github';

const git = (dir: string, ...args: string[]): string | undefined => {
  try {
    return execFileSync('git', ['--git-dir', dir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
};

function repoFlag(value: string | undefined): { name: string; dir: string } {
  const at = value?.indexOf('=') ?? -1;
  if (!value || at < 1) throw new Error('--repo owner/name=/path/to/bare.git');
  return { name: value.slice(0, at), dir: value.slice(at + 1) };
}

const read = (file: string | undefined, flag: string) => {
  if (!file) throw new Error(`${flag} is required`);
  return readFileSync(file, 'utf8').trim();
};

async function deliver(to: string, event: string, body: string, secret: string): Promise<void> {
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const response = await fetch(to, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signature,
    },
    body,
  });
  process.stdout.write(`${event} → ${response.status} ${await response.text()}`);
}

interface Pull {
  readonly number: number;
  readonly html_url: string;
  readonly head: { ref: string; sha: string };
  readonly base: { ref: string; sha: string };
}

type Values = Record<string, string | string[] | boolean | undefined>;

/** `opened`: the pull request of --head into --base, opened on the fake forge. */
async function openPull(values: Values, repository: string): Promise<Pull> {
  const token = read(values['token-file'] as string | undefined, '--token-file');
  const opened = await fetch(`${String(values.forge)}/repos/${repository}/pulls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `Merge ${String(values.head)} into ${String(values.base)}`,
      head: values.head,
      base: values.base,
    }),
  });
  const pull = (await opened.json()) as Pull;
  if (opened.status !== 201) throw new Error(`opening the pull request: ${opened.status} ${JSON.stringify(pull)}`);
  return pull;
}

/** `synchronize`, `reopened`: pull request --number as the branches of the repository are now. */
function pullOf(values: Values, dir: string): Pull {
  const number = Number(values.number);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--action ${String(values.action)} needs --number N`);
  const side = (branch: string) => {
    const sha = git(dir, 'rev-parse', '--verify', `refs/heads/${branch}`);
    if (!sha) throw new Error(`no branch ${branch} in ${dir}`);
    return { ref: branch, sha };
  };
  return {
    number,
    html_url: `https://github.example/pull/${number}`,
    head: side(String(values.head)),
    base: side(String(values.base)),
  };
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      port: { type: 'string', default: '9090' },
      repo: { type: 'string', multiple: true },
      'token-file': { type: 'string' },
      'secret-file': { type: 'string' },
      to: { type: 'string' },
      ref: { type: 'string', default: 'main' },
      head: { type: 'string' },
      base: { type: 'string', default: 'main' },
      forge: { type: 'string', default: 'http://127.0.0.1:9090' },
      action: { type: 'string', default: 'opened' },
      number: { type: 'string' },
    },
  });
  const repos = (values.repo ?? []).map(repoFlag);
  if (!repos.length) throw new Error('--repo owner/name=/path/to/bare.git is required');
  const [repo] = repos as [{ name: string; dir: string }];
  const payloadRepo = {
    id: 1,
    name: repo.name.split('/')[1],
    full_name: repo.name,
    owner: { login: repo.name.split('/')[0] },
  };
  if (command === 'serve') {
    const dirOf = (name: string) => repos.find((r) => r.name.toLowerCase() === name.toLowerCase())?.dir;
    const github = new FakeGithub({
      tokens: [read(values['token-file'], '--token-file')],
      repositories: Object.fromEntries(
        repos.map((r) => [r.name, (sha: string) => git(r.dir, 'cat-file', '-e', `${sha}^{commit}`) !== undefined]),
      ),
      branchHead: (name, branch) => git(dirOf(name) ?? '/nonexistent', 'rev-parse', '--verify', `refs/heads/${branch}`),
    });
    process.stdout.write(
      `fake GitHub API on ${await github.listen(Number(values.port))} for ${repos.map((r) => r.name).join(', ')}\n`,
    );
    github.onRequest = (r) => process.stdout.write(`${r.method} ${r.path} → ${r.status}\n`);
    return;
  }
  const secret = read(values['secret-file'], '--secret-file');
  if (!values.to) throw new Error('--to URL of the webhook is required');
  if (command === 'push') {
    const after = git(repo.dir, 'rev-parse', '--verify', `refs/heads/${values.ref}`);
    if (!after) throw new Error(`no branch ${values.ref} in ${repo.dir}`);
    const before = git(repo.dir, 'rev-parse', '--verify', `${after}~1`) ?? '0'.repeat(40);
    const pushedAt = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      ref: `refs/heads/${values.ref}`,
      before,
      after,
      created: false,
      deleted: false,
      forced: false,
      repository: { ...payloadRepo, pushed_at: pushedAt },
      head_commit: { id: after, timestamp: new Date().toISOString() },
      commits: [],
    });
    return deliver(values.to, 'push', body, secret);
  }
  if (command === 'pull-request') {
    const pull = values.action === 'opened' ? await openPull(values, repo.name) : pullOf(values, repo.dir);
    const side = (s: { ref: string; sha: string }) => ({ ...s, repo: payloadRepo });
    const body = JSON.stringify({
      action: values.action,
      number: pull.number,
      pull_request: {
        number: pull.number,
        html_url: pull.html_url,
        state: 'open',
        head: side(pull.head),
        base: side(pull.base),
      },
      repository: payloadRepo,
    });
    return deliver(values.to, 'pull_request', body, secret);
  }
  throw new Error(`unknown command ${command ?? ''}: serve, push or pull-request`);
}

main().catch((error: Error) => {
  process.stderr.write(`fake-forge: ${error.message}\n`);
  process.exit(2);
});
