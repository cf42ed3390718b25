import { createHash } from 'node:crypto';
import * as z from '../../shared/zod';
import type { ArtifactStore } from '../../ports/artifact-store';
import { NotFoundError, ValidationError } from '../../shared/errors';

/** Artefact keys are per cluster and target version; the version is hashed to keep keys short and safe. */
export function runArtifactKey(clusterId: string, targetVersion: string, name: string): string {
  const version = createHash('sha256').update(targetVersion).digest('hex').slice(0, 16);
  return `runs/${clusterId.replace(/[^A-Za-z0-9._-]/g, '_')}/${version}/${name}.json`;
}

export async function putJson(store: ArtifactStore, key: string, value: unknown): Promise<string> {
  await store.put(key, JSON.stringify(value));
  return key;
}

/** Read an artefact back and check it against its contract (lambdas/contracts/artifacts.ts). */
export async function getArtifact<T>(store: ArtifactStore, key: string, contract: z.core.$ZodType<T>): Promise<T> {
  const body = await store.get(key);
  if (body === undefined) throw new NotFoundError(`Artefact ${key} is missing from the artefact store`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new ValidationError(`Artefact ${key} is not JSON: ${(error as Error).message}`);
  }
  const parsed = z.safeParse(contract, json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(
      `Artefact ${key} does not match its contract at ${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}
