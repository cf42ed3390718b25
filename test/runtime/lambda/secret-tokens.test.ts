import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { lambdaEnvironment } from '../../../lambdas/runtime/lambda/environment';
import { TOKENS_TTL_MS, cachedTokens, parseTokens } from '../../../lambdas/runtime/lambda/secret-tokens';
import { secretsManagerReader } from '../../../lambdas/runtime/lambda/secrets-manager-reader';
import { ClmError, ConfigError, ThrottledError } from '../../../lambdas/shared/errors';

const ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens-AbCdEf';
const SECRET = 'ghp_Secret1234567890';

function messageOf(fn: () => unknown): string {
  try {
    fn();
    return 'no error';
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe('parseTokens', () => {
  it('takes the three tokens, each optional, and ignores other keys', () => {
    expect(
      parseTokens(JSON.stringify({ registryToken: 'r', gitToken: 'g', clusterToken: 'c', note: 'x' }), ARN),
    ).toEqual({ registryToken: 'r', gitToken: 'g', clusterToken: 'c' });
    expect(parseTokens(JSON.stringify({ gitToken: 'g' }), ARN)).toEqual({ gitToken: 'g' });
    expect(parseTokens('{}', ARN)).toEqual({});
  });

  it('names the secret and the bad keys, never their values', () => {
    // Arrange
    const cases = [
      `gitToken=${SECRET}`,
      JSON.stringify({ gitToken: 42, clusterToken: SECRET, registryToken: '' }),
      JSON.stringify([SECRET]),
      `{"gitToken": "${SECRET}"`,
    ];

    // Act
    const messages = cases.map((text) => messageOf(() => parseTokens(text, ARN)));

    // Assert
    expect(messages).toEqual([
      `ConfigError: secret ${ARN} is not JSON; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
      `ConfigError: secret ${ARN}: registryToken, gitToken must be non-empty strings; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
      `ConfigError: secret ${ARN}: (root) must be a JSON object of strings; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
      `ConfigError: secret ${ARN} is not JSON; expected {"registryToken": "...", "gitToken": "...", "clusterToken": "..."}`,
    ]);
    expect(messages.join('\n')).not.toContain(SECRET);
  });
});

describe('cachedTokens', () => {
  it('without a secret gives no tokens and never builds a reader', async () => {
    // Arrange
    const reader = jest.fn();

    // Act
    const tokens = await cachedTokens(undefined, reader)();

    // Assert
    expect(tokens).toEqual({});
    expect(reader).not.toHaveBeenCalled();
  });

  it('keeps the tokens for TOKENS_TTL_MS and then reads the secret again, so a rotation is seen', async () => {
    // Arrange
    let now = 1_000_000;
    const read = jest
      .fn<Promise<string>, [string]>()
      .mockResolvedValueOnce(JSON.stringify({ clusterToken: 'old' }))
      .mockResolvedValueOnce(JSON.stringify({ clusterToken: 'rotated' }));
    const tokens = cachedTokens(ARN, async () => read, { now: () => now });

    // Act
    const first = [await tokens(), await tokens()];
    now += TOKENS_TTL_MS - 1;
    const justBefore = await tokens();
    now += 1;
    const after = await tokens();

    // Assert
    expect(first).toEqual([{ clusterToken: 'old' }, { clusterToken: 'old' }]);
    expect(justBefore).toEqual({ clusterToken: 'old' });
    expect(after).toEqual({ clusterToken: 'rotated' });
    expect(read.mock.calls).toEqual([[ARN], [ARN]]);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    // Arrange
    const read = jest
      .fn<Promise<string>, [string]>()
      .mockRejectedValueOnce(new ThrottledError('Secrets Manager GetSecretValue: throttled'))
      .mockResolvedValueOnce(JSON.stringify({ gitToken: 'g' }));
    const tokens = cachedTokens(ARN, async () => read);

    // Act
    const first = await tokens().catch((e: unknown) => e as Error);
    const second = await tokens();

    // Assert
    expect((first as Error).name).toBe('ThrottledError');
    expect(second).toEqual({ gitToken: 'g' });
    expect(read).toHaveBeenCalledTimes(2);
  });
});

describe('secretsManagerReader', () => {
  const sm = mockClient(SecretsManagerClient);
  const env = lambdaEnvironment({ AWS_REGION: 'eu-central-1' });
  beforeEach(() => sm.reset());

  it('returns the SecretString of GetSecretValue for the secret id', async () => {
    sm.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: '{"gitToken":"g"}' });
    await expect(secretsManagerReader(env)(ARN)).resolves.toBe('{"gitToken":"g"}');
  });

  it('turns SDK errors into named errors that name the call and the secret', async () => {
    // Arrange
    sm.on(GetSecretValueCommand).rejects(
      new ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret.",
        $metadata: { httpStatusCode: 400 },
      }),
    );

    // Act
    const error: unknown = await secretsManagerReader(env)(ARN).catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(ClmError);
    expect((error as Error).message).toBe(
      `Secrets Manager GetSecretValue ${ARN}: ResourceNotFoundException: Secrets Manager can't find the specified secret.`,
    );
  });

  it('refuses a binary secret', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2]) });
    await expect(secretsManagerReader(env)(ARN)).rejects.toThrow(ConfigError);
  });
});
