/** Encoding helpers: `base64`, `base64Decode`, `sha256` (CLM: standard base64, hex SHA-256). */
import { createHash } from 'node:crypto';
import { expectString, helperError } from './args';

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function base64(value: unknown): string {
  return Buffer.from(expectString(value, 'base64 input'), 'utf8').toString('base64');
}

/** Strict standard base64 (padding required; only CR and LF are ignored), as Go's `base64.StdEncoding.DecodeString`. */
export function base64Decode(value: unknown): string {
  const input = expectString(value, 'base64Decode input').replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(input))
    throw helperError(`illegal base64 data in ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`);
  return Buffer.from(input, 'base64').toString('utf8');
}

export function sha256Hex(value: unknown): string {
  return createHash('sha256').update(expectString(value, 'sha256 input'), 'utf8').digest('hex');
}
