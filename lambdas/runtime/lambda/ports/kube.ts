import { kubeServerFor } from '../../../adapters/kube/kube-server-for';
import { kubeFactory } from '../../cloud/kube-factory';
import { stsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { secretsManagerReader } from '../secrets-manager-reader';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of the clusters' API servers: the cluster token of the tokens secret (CLM's `--token`), a cluster's
 * own token secret (`kube_token_secret`), or an EKS token signed in the cluster's account (see ../port-modules.ts).
 */
export async function portFactories({ env, tokens }: WiringContext): Promise<PortFactories> {
  const readSecret = secretsManagerReader(env);
  const { clusterToken } = await tokens(async () => readSecret);
  const aws = await sharedCloud(env, [stsPart]);
  return {
    cluster: {
      kube: kubeFactory(
        {
          ...(clusterToken ? { token: clusterToken } : {}),
          readSecret,
          stsFor: (cluster) => aws.stsFor(cluster),
        },
        kubeServerFor,
      ),
    },
  };
}
