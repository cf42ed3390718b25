import { Logger } from '@aws-lambda-powertools/logger';

/** The one logger factory: Powertools Logger with the service name; tasks append clusterId/executionId/stateName. */
export function createLogger(serviceName = 'clm'): Logger {
  return new Logger({ serviceName, logLevel: (process.env.POWERTOOLS_LOG_LEVEL as 'INFO' | undefined) ?? 'INFO' });
}

export type { Logger };
