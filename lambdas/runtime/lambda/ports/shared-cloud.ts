import { loadAwsKit, type AwsKit, type AwsPart } from '../../../adapters/aws/aws-kit';
import { cloudFactories, type CloudFactories } from '../../cloud/cloud-factories';
import type { LambdaEnvironment } from '../environment';
import { traced } from '../tracing';

let shared: { env: LambdaEnvironment; kit: AwsKit; factories: CloudFactories } | undefined;

/**
 * One set of AWS clients per container, whichever port modules use them; each module loads the AWS parts of its own
 * port first (aws-kit.ts), so a task requires only the SDK clients its ports use.
 */
export async function sharedCloud(env: LambdaEnvironment, parts: readonly AwsPart[]): Promise<CloudFactories> {
  if (shared?.env !== env) {
    const kit: AwsKit = {};
    shared = { env, kit, factories: cloudFactories(env, kit, traced) };
  }
  await loadAwsKit(parts, shared.kit);
  return shared.factories;
}
