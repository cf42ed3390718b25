/**
 * The one place AWS SDK clients are built, from the client classes of an AwsKit (aws-kit.ts): each client is made on
 * first use, so a task uses, and loads, only the clients of its own ports (aws-clients.ts: the same with every
 * class). Every client of one account and region shares the endpoint (moto in the integration suite), the retry
 * policy and the credentials.
 *
 * Retries: standard mode with 5 attempts. CLM's Go code allows 50, which suits a long-running controller but not a
 * Lambda task with a time-out: after 5 attempts (about 20 s of back-off at most) the error reaches the adapter, becomes
 * ThrottledError/TransientApiError, and the state machine's Retry takes over with its own, longer back-off.
 */
import type { ACMClient } from '@aws-sdk/client-acm';
import type { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { EKSClient } from '@aws-sdk/client-eks';
import type { ElasticLoadBalancingClient } from '@aws-sdk/client-elastic-load-balancing';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { STSClient, STSClientConfig } from '@aws-sdk/client-sts';
import { ConfigError } from '../../shared/errors';
import { toClmError } from './aws-errors';
import { fromKit, type AwsKit } from './aws-kit';
import { importCjs } from '../../shared/import-cjs';

/** What the SDK accepts as `credentials`: static keys or a provider function. */
export type AwsCredentials = NonNullable<STSClientConfig['credentials']>;
type Identity = Awaited<ReturnType<Extract<AwsCredentials, (...args: never[]) => unknown>>>;
type IdentityProvider = () => Promise<Identity>;

export const DEFAULT_MAX_ATTEMPTS = 5;
/** CLM's session name for the assumed role (§6.2.1). */
export const ROLE_SESSION_NAME = 'cluster-lifecycle-manager';

export interface AwsClientOptions {
  readonly region: string;
  /** One endpoint for every service (moto). @default - `CLM_AWS_ENDPOINT`, else `AWS_ENDPOINT_URL`, else AWS itself */
  readonly endpoint?: string;
  /** @default - the SDK's default credential chain */
  readonly credentials?: AwsCredentials;
  /** @default 5 (standard retry mode) */
  readonly maxAttempts?: number;
  /** Applied to every client made (the Lambda runtime traces them with X-Ray). @default - clients as they are */
  readonly instrument?: <C extends object>(client: C) => C;
}

/** The clients of one account and region, each built on first use from the kit's class (an error if not loaded). */
export interface AwsClients {
  readonly region: string;
  readonly endpoint?: string;
  readonly cloudFormation: CloudFormationClient;
  readonly autoScaling: AutoScalingClient;
  readonly ec2: EC2Client;
  /** EKS DescribeCluster (zalando-eks clusters). */
  readonly eks: EKSClient;
  /** Classic load balancers (decommission's cleanup). */
  readonly elb: ElasticLoadBalancingClient;
  /** Application and network load balancers, target groups (decommission's cleanup). */
  readonly elbv2: ElasticLoadBalancingV2Client;
  readonly s3: S3Client;
  readonly kms: KMSClient;
  readonly sts: STSClient;
  /** The roll's health gate reads named alarms (`update_health_alarm`). */
  readonly cloudWatch: CloudWatchClient;
  /** `load_balancer_certificate`: the ISSUED certificates (CLM §6.2 step 6). */
  readonly acm: ACMClient;
  /** The account's On-Demand vCPU quotas (rehearsals). */
  readonly serviceQuotas: ServiceQuotasClient;
}

/** `CLM_AWS_ENDPOINT` wins over the SDK-wide `AWS_ENDPOINT_URL`; empty strings count as unset. */
export function awsEndpointFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return env.CLM_AWS_ENDPOINT || env.AWS_ENDPOINT_URL || undefined;
}

export function kitAwsClients(kit: AwsKit, options: AwsClientOptions): AwsClients {
  const endpoint = options.endpoint ?? awsEndpointFromEnv();
  const common = {
    region: options.region,
    retryMode: 'standard',
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    ...(endpoint ? { endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  } as const;
  const use = options.instrument ?? (<C>(client: C) => client);
  const made = new Map<string, object>();
  const once = <C extends object>(name: string, make: () => C): C => {
    if (!made.has(name)) made.set(name, use(make()));
    return made.get(name) as C;
  };
  return {
    region: options.region,
    endpoint,
    get cloudFormation() {
      return once('cloudFormation', () => new (fromKit(kit, 'CloudFormationClient'))(common));
    },
    get autoScaling() {
      return once('autoScaling', () => new (fromKit(kit, 'AutoScalingClient'))(common));
    },
    get ec2() {
      return once('ec2', () => new (fromKit(kit, 'EC2Client'))(common));
    },
    get eks() {
      return once('eks', () => new (fromKit(kit, 'EKSClient'))(common));
    },
    get elb() {
      return once('elb', () => new (fromKit(kit, 'ElasticLoadBalancingClient'))(common));
    },
    get elbv2() {
      return once('elbv2', () => new (fromKit(kit, 'ElasticLoadBalancingV2Client'))(common));
    },
    // Path-style URLs: moto and other emulators do not serve virtual-hosted bucket names.
    get s3() {
      return once('s3', () => new (fromKit(kit, 'S3Client'))({ ...common, forcePathStyle: endpoint !== undefined }));
    },
    get kms() {
      return once('kms', () => new (fromKit(kit, 'KMSClient'))(common));
    },
    get sts() {
      return once('sts', () => new (fromKit(kit, 'STSClient'))(common));
    },
    get cloudWatch() {
      return once('cloudWatch', () => new (fromKit(kit, 'CloudWatchClient'))(common));
    },
    get acm() {
      return once('acm', () => new (fromKit(kit, 'ACMClient'))(common));
    },
    get serviceQuotas() {
      return once('serviceQuotas', () => new (fromKit(kit, 'ServiceQuotasClient'))(common));
    },
  };
}

export function roleArn(accountId: string, roleName: string): string {
  return `arn:aws:iam::${accountId}:role/${roleName}`;
}

/**
 * Credentials of `arn:aws:iam::<accountId>:role/<roleName>` through STS AssumeRole, cached until five minutes before
 * they expire. `sts` carries the caller's own credentials. `externalId` is what the role's trust policy requires
 * (ClmClusterAccess: `sts:ExternalId`); it is not a secret, and is not logged either.
 */
export function assumeRoleCredentials(
  sts: STSClient,
  accountId: string,
  roleName: string,
  now: () => number = Date.now,
  externalId?: string,
): IdentityProvider {
  const arn = roleArn(accountId, roleName);
  let cached: Promise<Identity> | undefined;
  let expiresAt = 0;
  return () => {
    if (cached && now() < expiresAt - 5 * 60_000) return cached;
    cached = importCjs(import('@aws-sdk/client-sts'))
      .then(({ AssumeRoleCommand }) =>
        sts.send(
          new AssumeRoleCommand({
            RoleArn: arn,
            RoleSessionName: ROLE_SESSION_NAME,
            ...(externalId ? { ExternalId: externalId } : {}),
          }),
        ),
      )
      .then((out) => {
        const c = out.Credentials;
        if (!c?.AccessKeyId || !c.SecretAccessKey)
          throw new ConfigError(`STS AssumeRole ${arn} returned no credentials`);
        expiresAt = c.Expiration ? c.Expiration.getTime() : now() + 15 * 60_000;
        return {
          accessKeyId: c.AccessKeyId,
          secretAccessKey: c.SecretAccessKey,
          sessionToken: c.SessionToken,
          expiration: c.Expiration,
        };
      })
      .catch((error: unknown) => {
        cached = undefined;
        throw toClmError(error, `STS AssumeRole ${arn}`);
      });
    return cached;
  };
}

function asProvider(credentials: AwsCredentials): IdentityProvider {
  return typeof credentials === 'function'
    ? (credentials as IdentityProvider)
    : () => Promise.resolve(credentials as Identity);
}

/**
 * Wraps `base` so the first use checks, with STS GetCallerIdentity, that the credentials belong to `accountId`
 * (CLM §6.2.1: "invalid AWS account"). A mismatch is remembered; a failed check is retried on the next use.
 */
export function verifiedCredentials(base: IdentityProvider, accountId: string, sts: STSClient): IdentityProvider {
  let verified: Promise<void> | undefined;
  return async () => {
    const identity = await base();
    verified ??= importCjs(import('@aws-sdk/client-sts'))
      .then(({ GetCallerIdentityCommand }) => sts.send(new GetCallerIdentityCommand({})))
      .then(
        (out) => {
          if (out.Account !== accountId) {
            throw new ConfigError(
              `invalid AWS account: expected ${accountId}, the credentials belong to ${out.Account ?? 'an unknown account'}`,
            );
          }
        },
        (error: unknown) => {
          verified = undefined;
          throw toClmError(error, `STS GetCallerIdentity (checking account ${accountId})`);
        },
      );
    await verified;
    return identity;
  };
}

export interface AccountClientOptions extends AwsClientOptions {
  readonly accountId: string;
  /** CLM `--assumed-role`: assume `arn:aws:iam::<accountId>:role/<assumedRole>`. @default - use the credentials as they are */
  readonly assumedRole?: string;
  /** The ExternalId the assumed role's trust policy requires. @default - none sent */
  readonly externalId?: string;
}

/**
 * Clients acting in one cluster's account: optionally through an assumed role, always verified against the account
 * before the first call goes out.
 */
export function kitAccountClients(kit: AwsKit, options: AccountClientOptions): AwsClients {
  const baseSts = kitAwsClients(kit, { ...options }).sts;
  const base: IdentityProvider = options.credentials
    ? asProvider(options.credentials)
    : (baseSts.config.credentials as unknown as IdentityProvider);
  const assumed = options.assumedRole
    ? assumeRoleCredentials(baseSts, options.accountId, options.assumedRole, Date.now, options.externalId)
    : base;
  const checkingSts = kitAwsClients(kit, { ...options, credentials: assumed }).sts;
  return kitAwsClients(kit, { ...options, credentials: verifiedCredentials(assumed, options.accountId, checkingSts) });
}
