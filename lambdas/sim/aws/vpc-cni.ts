/**
 * The AWS VPC CNI on the nodes of a zalando-eks cluster: ipamd attaches a secondary network interface to each node it
 * runs on, tagged `cluster.k8s.amazonaws.com/name=<EKS cluster name>` and with the instance, in use while the instance
 * runs. When the instance terminates the interface detaches and stays `available`: on AWS that happens to the
 * interfaces ipamd had created but not yet marked delete-on-termination, which is why CLM deletes `available` ones
 * before the main stack (reference/clm-behaviour.md §6.5 step 4). The simulator leaks every one, the worst case, so
 * the cleanup always has something to prove.
 */
import { CNI_CLUSTER_TAG } from '../../core/decommission/leftovers';
import { hashOf } from '../hash';
import type { AccountState, ClusterInfo, CloudResourceRecord, InstanceRecord } from '../world-state';

export const CNI_INSTANCE_TAG = 'node.k8s.amazonaws.com/instance_id';

function interfaceId(account: AccountState, instance: Pick<InstanceRecord, 'id'>): string {
  return `eni-${hashOf([account.key, 'cni', instance.id], 17)}`;
}

export function cniInterfaceAttached(account: AccountState, cluster: ClusterInfo, instance: InstanceRecord): void {
  const resources = (account.cloudResources ??= {});
  const id = interfaceId(account, instance);
  const record: CloudResourceRecord = {
    kind: 'network-interface',
    id,
    cluster: cluster.id,
    state: 'in-use',
    tags: { [CNI_CLUSTER_TAG]: cluster.name, [CNI_INSTANCE_TAG]: instance.id },
  };
  resources[id] = record;
}

export function cniInterfaceDetached(account: AccountState, instance: Pick<InstanceRecord, 'id'>): void {
  const record = account.cloudResources?.[interfaceId(account, instance)];
  if (record) record.state = 'available';
}
