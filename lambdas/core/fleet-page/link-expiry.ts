import { parseGoDuration } from '../rollout/go-duration';

/** A pre-signed URL (SigV4) is valid for at most 7 days; S3 refuses a longer X-Amz-Expires. */
export const MAX_LINK_EXPIRY_SECONDS = 7 * 24 * 3600;
/** Shorter than a minute is no link to share. */
export const MIN_LINK_EXPIRY_SECONDS = 60;
export const DEFAULT_LINK_EXPIRY = '1h';

/** How long a shared link stays valid (`30m`, `12h`, `168h`), in whole seconds, or why the text is refused. */
export function linkExpirySeconds(text: string): { readonly seconds: number } | { readonly error: string } {
  const ms = parseGoDuration(text);
  if (ms === undefined) return { error: `${JSON.stringify(text)} is not a duration (e.g. 30m, 12h, 168h)` };
  const seconds = Math.floor(ms / 1000);
  if (seconds < MIN_LINK_EXPIRY_SECONDS) return { error: `${text} is shorter than a minute` };
  if (seconds > MAX_LINK_EXPIRY_SECONDS)
    return { error: `${text} is longer than 7 days (168h), the longest a pre-signed URL is valid` };
  return { seconds };
}
