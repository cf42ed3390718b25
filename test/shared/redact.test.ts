import { redactError, redactSecrets, rememberSecret } from '../../lambdas/shared/redact';
import { InvalidTaskInputError, RegistryError } from '../../lambdas/shared/errors';

describe('redactSecrets', () => {
  it('masks the user information of every URL in a text', () => {
    expect(redactSecrets('GET https://ana:s3cret@reg.example.org/x and git+ssh://tok@host/y failed')).toBe(
      'GET https://***@reg.example.org/x and git+ssh://***@host/y failed',
    );
  });

  it('masks bearer tokens and basic credentials, and any echoed authorization value', () => {
    expect(redactSecrets('401: invalid Authorization: Bearer eyJhbGciOi.J9abc.def')).toBe(
      '401: invalid Authorization: Bearer ***',
    );
    expect(redactSecrets(`Authorization: Basic ${Buffer.from('ana:pw').toString('base64')}`)).toBe(
      'Authorization: Basic ***',
    );
    expect(redactSecrets('{"authorization":"token ghp_0123456789abcdef"}')).toBe('{"authorization":"***"}');
  });

  it('leaves words alone that only look like a scheme', () => {
    const text = 'the registry token expired; Basic settings; a bearer of bad news';
    expect(redactSecrets(text)).toBe(text);
  });

  it('masks a remembered secret wherever it appears, and errors of ours never carry it', () => {
    rememberSecret('s3cr3t-value-7f');
    expect(redactSecrets('server said: s3cr3t-value-7f is not valid')).toBe('server said: *** is not valid');
    expect(new RegistryError('echo s3cr3t-value-7f').message).toBe('echo ***');
    const foreign = new TypeError('fetch https://u:p@host failed near s3cr3t-value-7f');
    expect(redactError(foreign).message).toBe('fetch https://***@host failed near ***');
    expect(redactError(foreign).stack).not.toContain('s3cr3t-value-7f');
  });
});

/** The error with its stack replaced by one that counts its reads (Node formats a real stack on its first read). */
function countingStackReads(error: Error, stack: string): { reads: number } {
  const counter = { reads: 0 };
  let value = stack;
  Object.defineProperty(error, 'stack', {
    configurable: true,
    get: () => {
      counter.reads++;
      return value;
    },
    set: (next: string) => {
      value = next;
    },
  });
  return counter;
}

describe('redactError and stacks', () => {
  it('leaves the stack of an error of ours unread while it has the clean message it was made with', () => {
    const error = new InvalidTaskInputError('Prepare: invalid input: state: expected object');
    const stack = countingStackReads(error, `${error.name}: ${error.message}\n    at step (index.js:1:2)`);
    expect(redactError(error)).toBe(error);
    expect(stack.reads).toBe(0);
    expect(error.message).toBe('Prepare: invalid input: state: expected object');
  });

  it('reads and redacts the stack of an error of ours whose message holds a secret learnt after it was made', () => {
    const error = new RegistryError('echo later-secret-91');
    rememberSecret('later-secret-91');
    const stack = countingStackReads(error, `RegistryError: echo later-secret-91\n    at f (index.js:1:2)`);
    redactError(error);
    expect(error.message).toBe('echo ***');
    expect(stack.reads).toBeGreaterThan(0);
    expect(error.stack).toBe('RegistryError: echo ***\n    at f (index.js:1:2)');
  });

  it('reads and redacts the stack of an error of ours whose message was replaced since it was made', () => {
    const error = new RegistryError('clean');
    const stack = countingStackReads(error, 'RegistryError: GET https://ana:pw@reg.example.org failed');
    error.message = 'replaced';
    redactError(error);
    expect(stack.reads).toBeGreaterThan(0);
    expect(error.stack).toBe('RegistryError: GET https://***@reg.example.org failed');
  });

  it('reads and redacts the stack of any other error, whatever its message', () => {
    const error = new TypeError('clean');
    const stack = countingStackReads(error, 'TypeError: clean\n    at f (https://u:p@host/x.js:1:2)');
    redactError(error);
    expect(stack.reads).toBeGreaterThan(0);
    expect(error.stack).toBe('TypeError: clean\n    at f (https://***@host/x.js:1:2)');
  });

  it('leaves an error of ours a real stack, formatted when read, from its name and message', () => {
    const error = new InvalidTaskInputError('Prepare: invalid input');
    redactError(error);
    expect(error.stack?.split('\n')[0]).toBe('InvalidTaskInputError: Prepare: invalid input');
    expect(error.stack?.split('\n')[1]).toMatch(/^ {4}at /);
  });
});
