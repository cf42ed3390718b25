import { readAppConfig } from '../../infra/app-config';

const none = () => undefined;

describe('readAppConfig', () => {
  it('defaults to nothing configured', () => {
    expect(readAppConfig(none, {})).toEqual({
      registryUri: undefined,
      configSources: [],
      assumedRoleName: undefined,
      tokenSecretArn: undefined,
    });
  });

  it('reads context first, then the environment', () => {
    const context: Record<string, unknown> = {
      registryUri: 'https://registry.example.org',
      configSources: ['a:git:https://example.org/a.git'],
    };
    const config = readAppConfig((k) => context[k], {
      CLM_REGISTRY: 'https://ignored.example.org',
      CLM_ASSUMED_ROLE: 'cluster-lifecycle-manager',
      CLM_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens',
    });
    expect(config).toEqual(
      expect.objectContaining({
        registryUri: 'https://registry.example.org',
        configSources: ['a:git:https://example.org/a.git'],
        assumedRoleName: 'cluster-lifecycle-manager',
        tokenSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:clm-tokens',
      }),
    );
  });

  it('splits comma-separated config sources and keeps their order', () => {
    const config = readAppConfig(none, {
      CLM_CONFIG_SOURCES: 'main:git:https://example.org/a.git, overlay:git:https://example.org/b.git',
    });
    expect(config.configSources).toEqual([
      'main:git:https://example.org/a.git',
      'overlay:git:https://example.org/b.git',
    ]);
  });

  it('rejects directory sources and malformed entries, naming them', () => {
    expect(() => readAppConfig(none, { CLM_CONFIG_SOURCES: 'main:dir:/tmp/config,broken' })).toThrow(
      'configSources (context or CLM_CONFIG_SOURCES): expected NAME:git:URL entries separated by commas, got "main:dir:/tmp/config", "broken"',
    );
  });

  it('rejects a role name or secret ARN that cannot be right', () => {
    expect(() => readAppConfig(none, { CLM_ASSUMED_ROLE: 'arn:aws:iam::123:role/x' })).toThrow(
      /assumedRoleName .* is not an IAM role name/,
    );
    expect(() => readAppConfig(none, { CLM_TOKEN_SECRET_ARN: 'clm-tokens' })).toThrow(
      /tokenSecretArn .* is not a Secrets Manager secret ARN/,
    );
  });
});
