import { kubeFactory } from '../../cloud/kube-factory';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';

/** Port module of the clusters' API servers, reached with the cluster token (see ../port-modules.ts). */
export async function portFactories({ tokens }: WiringContext): Promise<PortFactories> {
  return { cluster: { kube: kubeFactory(await tokens()) } };
}
