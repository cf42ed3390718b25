/**
 * The fleet's deploy settings, from CDK context (`cdk deploy -c dispatchIntervalMinutes=10 -c maxConcurrent=20`) or
 * the environment, like infra/app-config.ts. All optional; bad values fail synth naming the key.
 */
import { fleetSettings, type FleetSettings } from '../lambdas/core/dispatch/fleet-settings';

export interface ClmFleetConfig {
  /**
   * Minutes between two scheduled dispatcher passes (EventBridge Scheduler).
   * @default 5
   */
  readonly dispatchIntervalMinutes: number;
  /**
   * Secrets Manager secret holding the GitHub webhook secret (plain, or `{"secret": "...", "previous": "..."}`).
   * @default - the stack creates one with a random value (read it to configure the GitHub hook)
   */
  readonly webhookSecretArn?: string;
  /**
   * Secrets Manager secret with the forge credentials commit statuses and pull request plans are reported with: a
   * GitHub token, a GitHub App's `{"appId", "privateKey", "installationId"}`, or per-forge entries
   * `{"github", "gitlab", "bitbucket"}` (README "Feedback in the forge").
   * @default - nothing is reported
   */
  readonly forgeSecretArn?: string;
  /**
   * GitHub's API URL (GitHub Enterprise Server: `https://HOST/api/v3`).
   * @default https://api.github.com
   */
  readonly githubApiUrl?: string;
  /**
   * An e-mail address subscribed to the alarm topic.
   * @default - no subscription (subscribe to the topic yourself)
   */
  readonly alarmEmail?: string;
  /**
   * The dispatcher's settings as given (docs/fleet.md); validated here, passed to the functions as JSON.
   * @default {} (every default)
   */
  readonly fleetSettings: Readonly<Record<string, unknown>>;
  /**
   * Concurrent executions reserved for the node roll's function (docs/scale.md).
   * @default - unreserved
   */
  readonly rollReservedConcurrency?: number;
}

/** Context key → environment variable. */
export const FLEET_CONFIG_SOURCES = {
  dispatchIntervalMinutes: 'CLM_DISPATCH_INTERVAL_MINUTES',
  webhookSecretArn: 'CLM_WEBHOOK_SECRET_ARN',
  forgeSecretArn: 'CLM_FORGE_SECRET_ARN',
  githubApiUrl: 'CLM_GITHUB_API_URL',
  alarmEmail: 'CLM_ALARM_EMAIL',
  rollReservedConcurrency: 'CLM_ROLL_RESERVED_CONCURRENCY',
} as const;

/** The settings of FleetSettings that deploys may set, by context key (environment: `CLM_FLEET_SETTINGS` JSON). */
const SETTING_KEYS: readonly (keyof FleetSettings)[] = [
  'waveOrder',
  'wavesByCriticality',
  'maxConcurrent',
  'retryBaseMs',
  'retryMaxMs',
  'freeResumes',
  'maxConcurrentPerAccount',
  'maxConcurrentPerRegion',
  'startsPerSecond',
  'launchesPerSecond',
  'launchBurst',
  'launchShards',
  'waveSoakMs',
  'waveFailureTolerance',
  'regions',
  'include',
  'exclude',
];

type ContextReader = (key: string) => unknown;

export function readFleetConfig(
  context: ContextReader,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClmFleetConfig {
  const value = (key: keyof typeof FLEET_CONFIG_SOURCES): string | undefined => {
    const raw = context(key) ?? (env[FLEET_CONFIG_SOURCES[key]] || undefined);
    return raw === undefined || raw === null || raw === '' ? undefined : String(raw).trim();
  };
  const interval = value('dispatchIntervalMinutes') ?? '5';
  const minutes = Number(interval);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) {
    throw new Error(`dispatchIntervalMinutes: ${JSON.stringify(interval)} is not a whole number of minutes (1-1440)`);
  }
  const webhookSecretArn = secretArn('webhookSecretArn', value('webhookSecretArn'));
  const forgeSecretArn = secretArn('forgeSecretArn', value('forgeSecretArn'));
  const githubApiUrl = value('githubApiUrl');
  if (githubApiUrl !== undefined && !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(githubApiUrl)) {
    throw new Error(`githubApiUrl: ${JSON.stringify(githubApiUrl)} is not an http(s) URL`);
  }
  const alarmEmail = value('alarmEmail');
  if (alarmEmail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) {
    throw new Error(`alarmEmail: ${JSON.stringify(alarmEmail)} is not an e-mail address`);
  }
  const settings = readSettings(context, env);
  const reserved = value('rollReservedConcurrency');
  if (reserved !== undefined && !(Number.isInteger(Number(reserved)) && Number(reserved) >= 1)) {
    throw new Error(
      `rollReservedConcurrency: ${JSON.stringify(reserved)} is not a whole number of executions (1 or more)`,
    );
  }
  return {
    dispatchIntervalMinutes: minutes,
    ...(reserved !== undefined ? { rollReservedConcurrency: Number(reserved) } : {}),
    ...(webhookSecretArn ? { webhookSecretArn } : {}),
    ...(forgeSecretArn ? { forgeSecretArn } : {}),
    ...(githubApiUrl ? { githubApiUrl } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    fleetSettings: settings,
  };
}

/** Context keys over `CLM_FLEET_SETTINGS` (JSON); checked with the dispatcher's own parser. */
function readSettings(
  context: ContextReader,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, unknown> {
  const json = env.CLM_FLEET_SETTINGS;
  let fromEnv: Record<string, unknown> = {};
  if (json) {
    try {
      fromEnv = JSON.parse(json) as Record<string, unknown>;
    } catch {
      throw new Error('CLM_FLEET_SETTINGS is not JSON (e.g. {"maxConcurrent": 20})');
    }
  }
  const fromContext = Object.fromEntries(
    SETTING_KEYS.flatMap((key) => (context(key) === undefined ? [] : [[key, context(key)]])),
  );
  const raw = { ...fromEnv, ...fromContext };
  try {
    fleetSettings(raw);
  } catch (error) {
    throw new Error(`fleet settings (context or CLM_FLEET_SETTINGS): ${(error as Error).message}`, { cause: error });
  }
  return raw;
}

function secretArn(key: string, arn: string | undefined): string | undefined {
  if (arn !== undefined && !/^arn:aws[\w-]*:secretsmanager:[\w-]+:\d{12}:secret:.+$/.test(arn)) {
    throw new Error(`${key}: ${JSON.stringify(arn)} is not a Secrets Manager secret ARN`);
  }
  return arn;
}
