import type { StackChange } from '../../ports/stack-deployer';

/** Resources whose replacement or removal terminates instances (a pool's group, a single instance). */
const INSTANCE_BEARING = new Set([
  'AWS::AutoScaling::AutoScalingGroup',
  'AWS::AutoScaling::LaunchConfiguration',
  'AWS::EC2::Instance',
  'AWS::EKS::Nodegroup',
]);

/**
 * The first change of a change set that replaces instances: an instance-bearing resource replaced (Replacement
 * True, or Conditional: CloudFormation cannot tell before it runs) or removed. A new launch template version is not
 * one: this system replaces the nodes itself, inside the windows.
 */
export function instanceReplacement(changes: readonly StackChange[]): StackChange | undefined {
  return changes.find(
    (c) =>
      INSTANCE_BEARING.has(c.resourceType) &&
      (c.action === 'Remove' ||
        (c.action === 'Modify' && (c.replacement === 'True' || c.replacement === 'Conditional'))),
  );
}
