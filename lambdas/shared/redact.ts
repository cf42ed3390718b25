/**
 * Secrets never reach an error message, a log line, a recorded problem or the CLI's output about a failure:
 * - the user information of any URL (`https://user:password@host` → `https://***@host`): config source and registry
 *   URLs may carry credentials;
 * - the credentials of an authorization value (`Bearer …`, `Basic …`, `authorization: token …`): a server that
 *   echoes the request it refused echoes its token;
 * - every secret this process was given (a registry or API server token, a webhook secret, a password from a URL),
 *   wherever it appears: a server may echo one without any prefix.
 */

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** `Bearer <token>` (any case) and `Basic <base64>`, as an Authorization header carries them. */
const CREDENTIALS = /\b([Bb]earer|BEARER|Basic)(\s+|%20)([A-Za-z0-9\-._~+/]{8,}=*)/g;
/** An echoed header or field `authorization: <value>` whatever the scheme (`token ghp_…`). */
const AUTHORIZATION = /\b(authorization["']?\s*[:=]\s*["']?)(?![Bb]earer\b|Basic\b|\*\*\*)[^\s"',}]+(\s+[^\s"',}]+)?/gi;
/** Shorter values are too likely to occur by chance ("test"); they are not searched for. */
const MIN_SECRET_LENGTH = 6;
const MASK = '***';

const secrets = new Set<string>();

/** Remember a secret this process holds, so redactSecrets removes it wherever it appears. */
export function rememberSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** The text with every URL's credentials, every authorization value and every remembered secret masked. */
export function redactSecrets(text: string): string {
  let out = text
    .replace(URL_USERINFO, `$1${MASK}@`)
    .replace(CREDENTIALS, (match, scheme: string, space: string, value: string) =>
      scheme !== 'Basic' || isBasicCredential(value) ? `${scheme}${space}${MASK}` : match,
    )
    .replace(AUTHORIZATION, `$1${MASK}`);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** `Basic` is also a word: its value is a credential when it is base64 of `user:password`. */
function isBasicCredential(value: string): boolean {
  return Buffer.from(value, 'base64').toString('utf8').includes(':');
}

/** Errors of ours made with a redacted message (ClmError, errors.ts), and that message. */
const madeRedacted = new WeakMap<Error, string>();

/** Called by an error class whose constructor redacts the message (ClmError), once the message is set. */
export function madeWithRedactedMessage(error: Error): void {
  madeRedacted.set(error, error.message);
}

/**
 * An error with its message (and stack) redacted in place, so whoever prints or records it later shows no secret.
 *
 * The stack of an error of ours that still has the message it was made with is left unread when that message holds
 * no secret known now: a stack's first line is the error's name and message, the rest names functions and positions,
 * so that stack is clean whenever it is formatted (and secrets are only ever added to what is known). Reading it here
 * would make Node format it, which under `--enable-source-maps` (as Lambda runs the tasks) parses the bundle's whole
 * source map: 50–170 ms of CPU on a cold start (`npm run bench -- lambda`), for a stack nobody may ask for.
 */
export function redactError<T>(error: T): T {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(error.message);
  if (message === error.message && madeRedacted.get(error) === message) return error;
  if (message !== error.message) error.message = message;
  if (error.stack) {
    const stack = redactSecrets(error.stack);
    if (stack !== error.stack) error.stack = stack;
  }
  return error;
}
