import type { Cluster } from '../model/cluster';

/**
 * The etcd stack (CLM §6.2 step 10, `--manage-etcd-stack`), here a per-cluster choice: config item
 * `manage_etcd_stack: "true"` on a zalando-aws cluster. Its names and fixed parts, as CLM has them.
 */

export const MANAGE_ETCD_STACK_ITEM = 'manage_etcd_stack';
/** The KMS alias whose key encrypts the etcd files bundle (`Values.etcd_kms_key_arn`). */
export const ETCD_KMS_KEY_ALIAS = 'alias/etcd-cluster';
export const ETCD_STACK_DEFAULT_NAME = 'etcd-cluster-etcd';
export const ETCD_STACK_TEMPLATE = 'cluster/etcd/stack.yaml';
export const ETCD_FILES_TEMPLATE = 'cluster/etcd/files.yaml';
/** CLM's tags of the etcd stack (no cluster tag: decommission leaves the stack alone). */
export const ETCD_STACK_TAGS: Readonly<Record<string, string>> = {
  application: 'kubernetes',
  component: 'etcd-cluster',
};

/**
 * The stack policy CLM passes with every update of the etcd stack (StackPolicyDuringUpdateBody): updates are allowed,
 * but no Auto Scaling group, S3 bucket or IAM role may be replaced or deleted. Byte for byte CLM's JSON.
 */
export const ETCD_STACK_POLICY = JSON.stringify({
  Statement: [
    { Effect: 'Allow', Action: ['Update:*'], Principal: '*', Resource: ['*'] },
    {
      Effect: 'Deny',
      Action: ['Update:Replace', 'Update:Delete'],
      Principal: '*',
      Condition: {
        StringEquals: { ResourceType: ['AWS::AutoScaling::AutoScalingGroup', 'AWS::S3::Bucket', 'AWS::IAM::Role'] },
      },
    },
  ],
});

/** Whether the cluster's etcd stack is CLM's to deploy (EKS clusters never have one). */
export function managesEtcdStack(cluster: Pick<Cluster, 'provider' | 'configItems'>): boolean {
  return cluster.provider === 'zalando-aws' && cluster.configItems[MANAGE_ETCD_STACK_ITEM] === 'true';
}

/** Config item `etcd_stack_name` (even empty, as CLM), else `etcd-cluster-etcd`. */
export function etcdStackName(cluster: Pick<Cluster, 'configItems'>): string {
  const named = cluster.configItems.etcd_stack_name;
  return named !== undefined ? named : ETCD_STACK_DEFAULT_NAME;
}
