import type { SimContext } from '../sim-context';
import type { AccountState, ResourceRecord } from '../world-state';
import { deleteAsg } from './autoscaling';
import { autoScalingGroupResource } from './cfn-auto-scaling-group';
import { eksClusterResource } from './cfn-eks-cluster';
import { genericResource } from './cfn-generic-resources';
import { launchTemplateResource } from './cfn-launch-template';
import { checkClassicListeners, listenerResource } from './cfn-listener';
import { accessModel } from './access-model';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';

/**
 * What creating, updating and deleting one stack resource does. Launch templates and ASGs are real
 * (versions, instances); every other type gets a deterministic physical id and the attributes templates
 * commonly read (Arn, DNSName, GroupId, ...).
 */

/** Create or update a resource with evaluated properties. */
export function provisionResource(scope: ResourceScope, type: string, props: Props): Provisioned {
  if (scope.previous && scope.previous.type !== type) deleteResource(scope.ctx, scope.account, scope.previous);
  const previous = scope.previous?.type === type ? scope.previous : undefined;
  const scoped = { ...scope, previous };
  if (type === 'AWS::EC2::LaunchTemplate') return launchTemplateResource(scoped, props);
  if (type === 'AWS::AutoScaling::AutoScalingGroup') return autoScalingGroupResource(scoped, props);
  if (type === 'AWS::EKS::Cluster') return eksClusterResource(scoped, props);
  if (type === 'AWS::ElasticLoadBalancingV2::Listener') return listenerResource(scoped, props);
  if (type === 'AWS::ElasticLoadBalancing::LoadBalancer') checkClassicListeners(scoped, props);
  const provisioned = genericResource(scoped, type, props);
  const model = accessModel(type, props, provisioned);
  return model ? { ...provisioned, model } : provisioned;
}

export function deleteResource(ctx: SimContext, account: AccountState, record: ResourceRecord): void {
  if (record.type === 'AWS::AutoScaling::AutoScalingGroup') deleteAsg(ctx, account, record.physicalId);
  if (record.type === 'AWS::EC2::LaunchTemplate') delete account.launchTemplates[record.physicalId];
}

/** `Fn::GetAtt` on a resource: a known attribute, else a stable made-up value (CloudFormation would validate the name). */
export function resourceAttribute(record: ResourceRecord, attribute: string): string | number {
  return record.attributes[attribute] ?? `${record.physicalId}.${attribute}`;
}
