import { cloudFactories, type CloudFactories } from '../../cloud/cloud-factories';
import type { LambdaEnvironment } from '../environment';
import { traced } from '../tracing';

let shared: { env: LambdaEnvironment; factories: CloudFactories } | undefined;

/** One set of AWS clients per container, whichever port modules use them (cloud.ts, templates.ts). */
export function sharedCloud(env: LambdaEnvironment): CloudFactories {
  if (shared?.env !== env) shared = { env, factories: cloudFactories(env, traced) };
  return shared.factories;
}
