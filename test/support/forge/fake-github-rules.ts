import { createVerify, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** GitHub's rules the fake applies: request bodies, comment bodies, validation errors, App JWTs. */

const MAX_COMMENT = 65_536;

export const INVALID = Symbol('invalid');

export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text) return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(INVALID);
      }
    });
  });
}

export function commentBody(body: unknown): string | Record<string, unknown> {
  const text = (body as { body?: unknown } | undefined)?.body;
  if (typeof text !== 'string' || text === '') return invalid('body', 'missing_field', 'Validation Failed');
  if (text.length > MAX_COMMENT)
    return invalid('body', 'custom', `body is too long (maximum is ${MAX_COMMENT} characters)`);
  return text;
}

export function invalid(field: string, code: string, message: string): Record<string, unknown> {
  return { message: 'Validation Failed', errors: [{ resource: 'Status', field, code, message }] };
}

/** The App a JWT is valid for, or GitHub's reason it is not. */
export function verifyAppJwt(
  jwt: string,
  apps: ReadonlyMap<string, { key: KeyObject; installations: Set<number> }>,
  nowMs: number,
): { installations: Set<number> } | string {
  const parts = jwt.split('.');
  if (parts.length !== 3) return 'A JSON web token could not be decoded';
  let header: { alg?: string };
  let claims: { iss?: string | number; iat?: number; exp?: number };
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return 'A JSON web token could not be decoded';
  }
  const app = apps.get(String(claims.iss));
  if (header.alg !== 'RS256' || !app) return 'A JSON web token could not be decoded';
  const verifier = createVerify('RSA-SHA256').update(`${parts[0]}.${parts[1]}`);
  if (!verifier.verify(app.key, Buffer.from(parts[2], 'base64url'))) return 'A JSON web token could not be decoded';
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now)
    return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
  if (claims.exp > now + 600) return "'Expiration time' claim ('exp') is too far in the future";
  if (typeof claims.iat !== 'number' || claims.iat > now + 60)
    return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
  return app;
}
