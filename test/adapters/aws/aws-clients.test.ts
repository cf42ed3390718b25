import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import {
  DEFAULT_MAX_ATTEMPTS,
  assumeRoleCredentials,
  awsEndpointFromEnv,
  createAccountClients,
  createAwsClients,
  verifiedCredentials,
} from '../../../lambdas/adapters/aws/aws-clients';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const sts = mockClient(STSClient);
const STATIC = { accessKeyId: 'AKIDBASE', secretAccessKey: 'base-secret' };

beforeEach(() => sts.reset());

describe('awsEndpointFromEnv', () => {
  it('prefers CLM_AWS_ENDPOINT over AWS_ENDPOINT_URL and ignores empty values', () => {
    expect(awsEndpointFromEnv({ CLM_AWS_ENDPOINT: 'http://127.0.0.1:1', AWS_ENDPOINT_URL: 'http://127.0.0.1:2' })).toBe(
      'http://127.0.0.1:1',
    );
    expect(awsEndpointFromEnv({ CLM_AWS_ENDPOINT: '', AWS_ENDPOINT_URL: 'http://127.0.0.1:2' })).toBe(
      'http://127.0.0.1:2',
    );
    expect(awsEndpointFromEnv({})).toBeUndefined();
  });
});

describe('createAwsClients', () => {
  it('gives every client the endpoint and standard retries with 5 attempts, and S3 path-style URLs', async () => {
    // Act
    const clients = createAwsClients({
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:5000',
      credentials: STATIC,
    });

    // Assert
    for (const client of [
      clients.cloudFormation,
      clients.autoScaling,
      clients.ec2,
      clients.s3,
      clients.kms,
      clients.sts,
    ]) {
      expect(await client.config.maxAttempts()).toBe(DEFAULT_MAX_ATTEMPTS);
      expect(client.config.retryMode).toBe('standard');
      expect(await client.config.region()).toBe('eu-central-1');
      expect(client.config.isCustomEndpoint).toBe(true);
    }
    expect(clients.s3.config.forcePathStyle).toBe(true);
    expect(clients.endpoint).toBe('http://127.0.0.1:5000');
  });

  it('uses virtual-hosted S3 and AWS endpoints when no endpoint is set', () => {
    const saved = { a: process.env.CLM_AWS_ENDPOINT, b: process.env.AWS_ENDPOINT_URL };
    delete process.env.CLM_AWS_ENDPOINT;
    delete process.env.AWS_ENDPOINT_URL;
    try {
      const clients = createAwsClients({ region: 'eu-central-1', credentials: STATIC, maxAttempts: 2 });
      expect(clients.s3.config.forcePathStyle).toBe(false);
      expect(clients.cloudFormation.config.isCustomEndpoint).toBe(false);
    } finally {
      if (saved.a !== undefined) process.env.CLM_AWS_ENDPOINT = saved.a;
      if (saved.b !== undefined) process.env.AWS_ENDPOINT_URL = saved.b;
    }
  });
});

describe('assumeRoleCredentials', () => {
  it('assumes arn:aws:iam::<account>:role/<name> as session cluster-lifecycle-manager and caches until near expiry', async () => {
    // Arrange
    let now = Date.parse('2026-01-01T00:00:00Z');
    sts.on(AssumeRoleCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIA1',
        SecretAccessKey: 's',
        SessionToken: 't',
        Expiration: new Date(now + 60 * 60_000),
      },
    });
    const provider = assumeRoleCredentials(
      new STSClient({ region: 'eu-central-1', credentials: STATIC }),
      '123456789012',
      'cluster-lifecycle-manager-entrypoint',
      () => now,
    );

    // Act
    const first = await provider();
    await provider();
    now += 56 * 60_000;
    await provider();

    // Assert
    expect(first).toMatchObject({ accessKeyId: 'ASIA1', secretAccessKey: 's', sessionToken: 't' });
    expect(sts).toHaveReceivedCommandWith(AssumeRoleCommand, {
      RoleArn: 'arn:aws:iam::123456789012:role/cluster-lifecycle-manager-entrypoint',
      RoleSessionName: 'cluster-lifecycle-manager',
    });
    expect(sts).toHaveReceivedCommandTimes(AssumeRoleCommand, 2);
  });

  it('sends the ExternalId the role trust policy requires, when there is one', async () => {
    sts.on(AssumeRoleCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIA2',
        SecretAccessKey: 's',
        SessionToken: 't',
        Expiration: new Date(Date.now() + 3_600_000),
      },
    });
    const provider = assumeRoleCredentials(
      new STSClient({ region: 'eu-central-1', credentials: STATIC }),
      '210987654321',
      'clm-cluster-access',
      Date.now,
      'clm-7f3a',
    );

    await provider();

    expect(sts).toHaveReceivedCommandWith(AssumeRoleCommand, {
      RoleArn: 'arn:aws:iam::210987654321:role/clm-cluster-access',
      ExternalId: 'clm-7f3a',
    });
  });

  it('classifies a failed AssumeRole and tries again on the next use', async () => {
    // Arrange
    sts
      .on(AssumeRoleCommand)
      .rejectsOnce(sdkError('Throttling', 'Rate exceeded'))
      .resolves({
        Credentials: {
          AccessKeyId: 'A',
          SecretAccessKey: 'S',
          SessionToken: 'T',
          Expiration: new Date(Date.now() + 3_600_000),
        },
      });
    const provider = assumeRoleCredentials(
      new STSClient({ region: 'eu-central-1', credentials: STATIC }),
      '123456789012',
      'r',
    );

    // Act
    const failure = await provider().catch((e: unknown) => e);
    const success = await provider();

    // Assert
    expect(failure).toBeInstanceOf(ThrottledError);
    expect(success.accessKeyId).toBe('A');
  });
});

describe('verifiedCredentials', () => {
  it('fails with "invalid AWS account" when the credentials belong to another account, and remembers it', async () => {
    // Arrange
    sts.on(GetCallerIdentityCommand).resolves({ Account: '999999999999' });
    const provider = verifiedCredentials(
      async () => STATIC,
      '123456789012',
      new STSClient({ region: 'eu-central-1', credentials: STATIC }),
    );

    // Act
    const first = await provider().catch((e: unknown) => e);
    const second = await provider().catch((e: unknown) => e);

    // Assert
    expect(first).toBeInstanceOf(ConfigError);
    expect((first as Error).message).toBe(
      'invalid AWS account: expected 123456789012, the credentials belong to 999999999999',
    );
    expect(second).toBe(first);
    expect(sts).toHaveReceivedCommandTimes(GetCallerIdentityCommand, 1);
  });

  it('checks once and then hands out the credentials', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012' });
    const provider = verifiedCredentials(
      async () => STATIC,
      '123456789012',
      new STSClient({ region: 'eu-central-1', credentials: STATIC }),
    );
    await expect(provider()).resolves.toEqual(STATIC);
    await expect(provider()).resolves.toEqual(STATIC);
    expect(sts).toHaveReceivedCommandTimes(GetCallerIdentityCommand, 1);
  });
});

describe('createAccountClients', () => {
  it('assumes the role, verifies the account, then lets every client use the assumed credentials', async () => {
    // Arrange
    sts.on(AssumeRoleCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIAROLE',
        SecretAccessKey: 's',
        SessionToken: 't',
        Expiration: new Date(Date.now() + 3_600_000),
      },
    });
    sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012' });
    const clients = createAccountClients({
      accountId: '123456789012',
      assumedRole: 'clm',
      region: 'eu-central-1',
      credentials: STATIC,
      endpoint: 'http://127.0.0.1:5000',
    });

    // Act
    const cfnCredentials = await clients.cloudFormation.config.credentials();
    const ec2Credentials = await clients.ec2.config.credentials();

    // Assert
    expect(cfnCredentials.accessKeyId).toBe('ASIAROLE');
    expect(ec2Credentials.accessKeyId).toBe('ASIAROLE');
    expect(sts).toHaveReceivedCommandTimes(AssumeRoleCommand, 1);
    expect(sts).toHaveReceivedCommandTimes(GetCallerIdentityCommand, 1);
  });
});
