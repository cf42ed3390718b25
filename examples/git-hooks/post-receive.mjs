#!/usr/bin/env node
// A post-receive hook for a local (bare) config repository: after every `git push` it posts a GitHub-shaped push
// delivery, signed like GitHub signs them (X-Hub-Signature-256), to `clm serve` — the same request GitHub sends to
// the deployed webhook. Install it in the bare repository:
//
//   ln -s "$PWD/examples/git-hooks/post-receive.mjs" /srv/git/acme/cluster-config.git/hooks/post-receive
//   git -C /srv/git/acme/cluster-config.git config clm.webhookUrl http://127.0.0.1:8080/webhooks/github
//   git -C /srv/git/acme/cluster-config.git config clm.webhookSecretFile /tmp/hook-secret
//
// Optional: `clm.repository owner/name` (default: the repository's last two path parts, `acme/cluster-config`).
// The environment variables CLM_WEBHOOK_URL, CLM_WEBHOOK_SECRET_FILE and CLM_REPOSITORY win over git config.
// A failed delivery is reported to the pusher and does not fail the push (the push already happened).
import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const ZERO = '0'.repeat(40);

function gitConfig(key) {
  try {
    return execFileSync('git', ['config', '--get', key], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function setting(env, key) {
  return process.env[env] || gitConfig(key);
}

/** `owner/name` from `/srv/git/acme/cluster-config.git` (the git directory the hook runs in). */
function repositoryFromPath(gitDir) {
  const dir = resolve(gitDir);
  const name = basename(dir) === '.git' ? basename(dirname(dir)) : basename(dir).replace(/\.git$/, '');
  const owner = basename(dirname(basename(dir) === '.git' ? dirname(dir) : dir));
  return `${owner}/${name}`;
}

function secretOf(file) {
  const text = readFileSync(file, 'utf8').trim();
  if (!text.startsWith('{')) return text;
  return JSON.parse(text).secret;
}

function pushPayload(fullName, before, after, ref) {
  const [owner, name] = fullName.split('/');
  const deleted = after === ZERO;
  const message = deleted ? '' : execFileSync('git', ['log', '-1', '--format=%B', after], { encoding: 'utf8' }).trim();
  return {
    ref,
    before,
    after,
    created: before === ZERO,
    deleted,
    forced: false,
    repository: { id: 1, name, full_name: fullName, owner: { login: owner, name: owner }, default_branch: 'main' },
    pusher: { name: process.env.USER ?? 'git' },
    head_commit: deleted ? null : { id: after, message, timestamp: new Date().toISOString() },
    commits: [],
  };
}

async function deliver(url, secret, payload) {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'clm-post-receive',
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature-256': signature,
    },
    body,
  });
  const text = await response.text();
  let message = text;
  try {
    message = JSON.parse(text).message ?? text;
  } catch {
    // not JSON: shown as it came
  }
  return `${response.status} ${message}`;
}

async function main() {
  const url = setting('CLM_WEBHOOK_URL', 'clm.webhookUrl');
  const secretFile = setting('CLM_WEBHOOK_SECRET_FILE', 'clm.webhookSecretFile');
  if (!url || !secretFile) {
    process.stderr.write('clm post-receive: set clm.webhookUrl and clm.webhookSecretFile (git config); nothing sent\n');
    return;
  }
  const fullName = setting('CLM_REPOSITORY', 'clm.repository') ?? repositoryFromPath(process.env.GIT_DIR ?? '.');
  const secret = secretOf(secretFile);
  const lines = readFileSync(0, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const [before, after, ref] = line.split(' ');
    try {
      const answer = await deliver(url, secret, pushPayload(fullName, before, after, ref));
      process.stderr.write(`clm: ${ref}: ${answer}\n`);
    } catch (error) {
      process.stderr.write(
        `clm: ${ref}: delivery to ${url} failed: ${error.cause?.code ?? error.message} (is clm serve running?)\n`,
      );
    }
  }
}

await main();
