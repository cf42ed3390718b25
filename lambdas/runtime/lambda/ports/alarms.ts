import { alarmsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of a cluster's CloudWatch alarms, the roll's health gate (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const aws = await sharedCloud(env, [alarmsPart]);
  return { cluster: { alarms: (cluster) => aws.alarms(cluster) } };
}
