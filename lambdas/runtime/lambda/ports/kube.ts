import { kubeFactory } from '../../cloud/kube-factory';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { secretsManagerReader } from '../secrets-manager-reader';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of the clusters' API servers: the cluster token of the tokens secret (CLM's `--token`), a cluster's
 * own token secret (`kube_token_secret`), or an EKS token signed in the cluster's account (see ../port-modules.ts).
 */
export async function portFactories({ env, tokens }: WiringContext): Promise<PortFactories> {
  const { clusterToken } = await tokens();
  const readSecret = secretsManagerReader(env);
  return {
    cluster: {
      kube: kubeFactory({
        ...(clusterToken ? { token: clusterToken } : {}),
        readSecret,
        stsFor: (cluster) => sharedCloud(env).stsFor(cluster),
      }),
    },
  };
}
