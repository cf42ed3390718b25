import { redactError, redactSecrets, rememberSecret } from '../../lambdas/shared/redact';
import { RegistryError } from '../../lambdas/shared/errors';

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
