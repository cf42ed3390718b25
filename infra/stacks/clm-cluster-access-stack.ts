import { Aws, CfnOutput, Stack } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { AccountPrincipal, PolicyDocument, Role } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { DEFAULT_STACK_NAME_PATTERNS, clusterAccountStatements } from '../constructs/cluster-access-policies';
import { ClusterStackRole } from '../constructs/cluster-stack-role';

export const DEFAULT_ACCESS_ROLE_NAME = 'cluster-lifecycle-manager';
/** The task roles of ClmWorkflow are named `ClmWorkflow-<task>Role<hash>-<suffix>` by CloudFormation. */
export const DEFAULT_TRUSTED_ROLE_NAME_PATTERN = 'ClmWorkflow-*';

export interface ClmClusterAccessStackProps extends StackProps {
  /** The account the CLM service (ClmWorkflow) runs in: only its task roles may assume the access role. */
  readonly clmAccountId: string;
  /** The ExternalId CLM must send (`sts:ExternalId`); the same value as ClmWorkflow's `externalId`. */
  readonly externalId: string;
  /**
   * Also require the caller to belong to this AWS Organization (`aws:PrincipalOrgID`).
   * @default - no organisation condition
   */
  readonly organizationId?: string;
  /**
   * The access role's name: ClmWorkflow's `assumedRoleName` (CLM's `--assumed-role`).
   * @default 'cluster-lifecycle-manager'
   */
  readonly roleName?: string;
  /**
   * Names of the roles in the CLM account that may assume the access role (IAM wildcards).
   * @default ['ClmWorkflow-*'] (the task roles of the workflow stack)
   */
  readonly trustedRoleNamePatterns?: readonly string[];
  /**
   * Names of the stacks CLM may create, update and delete here; also the names the IAM roles, instance profiles and
   * policies of those stacks may have.
   * @default ['nodepool-*', 'kube-*']
   */
  readonly stackNamePatterns?: readonly string[];
  /**
   * Names the cluster templates give their resources (IAM roles, buckets, queues, log groups, ...), when they are not
   * the stacks' names (docs/deploying-into-your-organisation.md, "What a config author can do").
   * @default stackNamePatterns
   */
  readonly resourceNamePatterns?: readonly string[];
  /**
   * Other stacks whose resources the cluster templates may change (e.g. an etcd stack's security group).
   * @default []
   */
  readonly sharedStackNamePatterns?: readonly string[];
}

/**
 * Deployed once into each cluster account (`cdk deploy ClmClusterAccess` with that account's credentials): what the
 * CLM service may do there, and no more (docs/deploying-into-your-organisation.md).
 * - `<roleName>`: assumed by the CLM account's task roles only, with the ExternalId (and the organisation when
 *   given); may read stacks, run CLM's stacks through the service role, roll node pools tagged as CLM's, describe, and
 *   use the CLM template bucket of this account (cluster-access-policies.ts). It cannot create anything itself.
 * - `<roleName>-stacks`: the CloudFormation service role the stacks run with, capped by `<roleName>-stacks-boundary`;
 *   every IAM role a template creates must carry `<roleName>-node-role-boundary` (cluster-stack-role.ts).
 */
export class ClmClusterAccessStack extends Stack {
  public readonly accessRole: Role;
  public readonly stacks: ClusterStackRole;

  constructor(scope: Construct, id: string, props: ClmClusterAccessStackProps) {
    super(scope, id, props);
    if (!/^\d{12}$/.test(props.clmAccountId))
      throw new Error(`ClmClusterAccess: clmAccountId must be a 12-digit AWS account id, got "${props.clmAccountId}"`);
    if (!/^[\w+=,.@:/-]{2,1224}$/.test(props.externalId))
      throw new Error('ClmClusterAccess: externalId must be 2-1224 characters of letters, digits and +=,.@:/-');
    const roleName = props.roleName ?? DEFAULT_ACCESS_ROLE_NAME;
    const stackNamePatterns = props.stackNamePatterns ?? DEFAULT_STACK_NAME_PATTERNS;
    const accessRoleArn = `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${roleName}`;

    this.stacks = new ClusterStackRole(this, 'StackRole', {
      roleName: `${roleName}-stacks`,
      policyNamePrefix: roleName,
      stackNamePatterns,
      ...(props.resourceNamePatterns ? { resourceNamePatterns: props.resourceNamePatterns } : {}),
      ...(props.sharedStackNamePatterns ? { sharedStackNamePatterns: props.sharedStackNamePatterns } : {}),
      protectedRoleArns: [accessRoleArn],
    });
    const trusted = (props.trustedRoleNamePatterns ?? [DEFAULT_TRUSTED_ROLE_NAME_PATTERN]).map(
      (pattern) => `arn:${Aws.PARTITION}:iam::${props.clmAccountId}:role/${pattern}`,
    );
    this.accessRole = new Role(this, 'AccessRole', {
      roleName,
      description: `CLM: assumed by the task roles of account ${props.clmAccountId} (ExternalId required) to manage cluster stacks and node pools here`,
      assumedBy: new AccountPrincipal(props.clmAccountId).withConditions({
        StringEquals: {
          'sts:ExternalId': props.externalId,
          ...(props.organizationId ? { 'aws:PrincipalOrgID': props.organizationId } : {}),
        },
        ArnLike: { 'aws:PrincipalArn': trusted },
      }),
      inlinePolicies: {
        ClusterLifecycle: new PolicyDocument({
          statements: clusterAccountStatements({
            partition: Aws.PARTITION,
            account: Aws.ACCOUNT_ID,
            region: '*',
            stackNamePatterns,
            stackRoleArn: this.stacks.role.roleArn,
          }),
        }),
      },
    });

    new CfnOutput(this, 'AccessRoleArn', { value: this.accessRole.roleArn });
    new CfnOutput(this, 'StackRoleArn', { value: this.stacks.role.roleArn });
    new CfnOutput(this, 'NodeRoleBoundaryName', {
      value: `${roleName}-node-role-boundary`,
      description: 'Set the config item node_role_permissions_boundary to this: every role a template creates needs it',
    });
  }
}
