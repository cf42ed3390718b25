import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** GitHub-shaped payloads from fixtures/, as the raw text GitHub sends, with helpers to vary them. */
export function fixtureText(name: 'push' | 'ping' | 'issues-opened'): string {
  return readFileSync(join(__dirname, 'fixtures', `${name}.json`), 'utf8');
}

export function pushPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(JSON.parse(fixtureText('push')) as Record<string, unknown>), ...overrides };
}

export function headers(event: string, delivery: string, signature?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'GitHub-Hookshot/5f2c1a9',
    'X-GitHub-Event': event,
    'X-GitHub-Delivery': delivery,
    'X-GitHub-Hook-ID': '482211937',
    ...(signature ? { 'X-Hub-Signature-256': signature } : {}),
  };
}
