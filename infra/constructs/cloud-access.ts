import { Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IGrantable, IRole } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { TASK_ENV } from '../../lambdas/runtime/lambda/task-environment';
import {
  DEFAULT_STACK_NAME_PATTERNS,
  describeStatement,
  keyLookupStatements,
  leftoversStatements,
  nodeFilesStatements,
  nodeWriteStatements,
  quotaReadStatements,
  stackReadStatements,
  stackWriteStatements,
  templateBucketStatements,
} from './cluster-access-policies';
import type { ClusterAccessScope } from './cluster-access-policies';
import { ClusterStackRole } from './cluster-stack-role';

/**
 * Access to the cluster's AWS account. With `assumedRoleName` set the tasks only get `sts:AssumeRole` on that role in
 * the registry's accounts (or the organisation's), and the role (ClmClusterAccess in each cluster account) carries the
 * rights; otherwise the same statements are granted directly in this account (cluster-access-policies.ts).
 * - `stacks-read`: describe stacks and their outputs.
 * - `stacks-write`: create/update/delete stacks and change sets (through the CloudFormation service role).
 * - `lookups`: read-only EC2 lookups for templates (AMIs, AZs, subnets, instance types).
 * - `nodes-write`: roll nodes: update node-pool Auto Scaling groups, terminate instances through them; implies reading.
 * - `decrypt`: KMS Decrypt of `aws:kms:` config items, always in CLM's own account.
 * - `leftovers-write`: decommission's cleanup: list and delete load balancers, security groups, volumes and network
 *   interfaces the cluster left outside its stacks.
 * - `node-files-write`: the nodes' files bundles: CLM's bucket of the account, KMS Encrypt with the account's keys.
 * - `quotas-read`: the account's On-Demand vCPU quotas (Service Quotas GetServiceQuota) and its instances (EC2
 *   DescribeInstances): what a rehearsal compares a roll's surge with.
 */
export type CloudAccess =
  | 'stacks-read'
  | 'stacks-write'
  | 'lookups'
  | 'nodes-write'
  | 'decrypt'
  | 'leftovers-write'
  | 'node-files-write'
  | 'quotas-read';

export interface ClusterCloudAccessProps {
  /**
   * Role the tasks assume in each cluster's account (ClmClusterAccess creates it). When set, the tasks get only
   * `sts:AssumeRole` on that role in `clusterAccountIds`, or in any account of `organizationId`; the role carries the
   * rights.
   * @default - same-account mode: the tasks are granted scoped rights in this account, and CloudFormation deploys
   * the cluster stacks through a bounded service role created here.
   */
  readonly assumedRoleName?: string;
  /**
   * Cross-account mode: the accounts of the registry's clusters.
   * @default - none (then `organizationId` is required)
   */
  readonly clusterAccountIds?: readonly string[];
  /**
   * Cross-account mode: the organisation whose accounts' roles may be assumed (`aws:ResourceOrgID`).
   * @default - only `clusterAccountIds`
   */
  readonly organizationId?: string;
  /**
   * Same-account mode: names of the stacks CLM may create, update and delete (and of the IAM roles they create).
   * @default ['nodepool-*', 'kube-*']
   */
  readonly clusterStackNamePatterns?: readonly string[];
  /**
   * Same-account mode: names the cluster templates give their resources (ClusterStackRole `resourceNamePatterns`).
   * @default clusterStackNamePatterns
   */
  readonly clusterResourceNamePatterns?: readonly string[];
  /**
   * Same-account mode: other stacks whose resources the templates may change (ClusterStackRole).
   * @default []
   */
  readonly sharedStackNamePatterns?: readonly string[];
}

/**
 * The tasks' access to the clusters' AWS accounts, from the CloudAccess each task's ports need (infra/task-grants.ts).
 * Same-account mode scopes every grant to this account and region; wildcards left are explained next to them.
 */
export class ClusterCloudAccess extends Construct {
  /** CloudFormation service role (same-account mode only): the stack deployer passes it as `RoleARN`. */
  public readonly stackRole?: IRole;
  private readonly assumedRoleName?: string;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ClusterCloudAccessProps = {},
  ) {
    super(scope, id);
    this.assumedRoleName = props.assumedRoleName;
    if (props.assumedRoleName && !props.organizationId && !props.clusterAccountIds?.length)
      throw new Error(
        'Cross-account mode (assumedRoleName) needs the cluster accounts: set clusterAccountIds (the accounts of the registry) or organizationId; tasks never get sts:AssumeRole on arn:aws:iam::*',
      );
    for (const account of props.clusterAccountIds ?? [])
      if (!/^\d{12}$/.test(account))
        throw new Error(`clusterAccountIds: "${account}" is not a 12-digit AWS account id`);
    if (!props.assumedRoleName) this.stackRole = this.createStackRole();
  }

  /** Grant `grantee` what `needs` lists (wildcards are justified in infra/nag.ts). */
  grant(grantee: IGrantable, needs: readonly CloudAccess[]): void {
    const statements: PolicyStatement[] = [];
    if (needs.includes('decrypt')) {
      // Always this account's keys, in both modes: `aws:kms:` items are decrypted with CLM's own identity (CLM §10.5).
      statements.push(
        new PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [`arn:${Aws.PARTITION}:kms:${Aws.REGION}:${Aws.ACCOUNT_ID}:key/*`],
        }),
      );
    }
    const inAccount = needs.filter((need) => need !== 'decrypt');
    if (inAccount.length > 0) {
      statements.push(...(this.assumedRoleName ? [this.assumeStatement()] : this.sameAccountStatements(inAccount)));
    }
    for (const statement of statements) grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }

  /** Only the named role, only in the registry's accounts or the organisation: never `arn:aws:iam::*`. */
  private assumeStatement(): PolicyStatement {
    const { clusterAccountIds = [], organizationId } = this.props;
    const role = (account: string) => `arn:${Aws.PARTITION}:iam::${account}:role/${this.assumedRoleName}`;
    return new PolicyStatement({
      actions: ['sts:AssumeRole'],
      resources: organizationId ? [role('*')] : clusterAccountIds.map(role),
      ...(organizationId ? { conditions: { StringEquals: { 'aws:ResourceOrgID': organizationId } } } : {}),
    });
  }

  private sameAccountStatements(needs: readonly CloudAccess[]): PolicyStatement[] {
    const scope: ClusterAccessScope = {
      partition: Aws.PARTITION,
      account: Aws.ACCOUNT_ID,
      region: Aws.REGION,
      stackNamePatterns: this.props.clusterStackNamePatterns ?? DEFAULT_STACK_NAME_PATTERNS,
      stackRoleArn: this.stackRole!.roleArn,
    };
    const statements: PolicyStatement[] = [];
    if (needs.includes('stacks-read') || needs.includes('stacks-write')) statements.push(...stackReadStatements(scope));
    if (needs.includes('stacks-write'))
      statements.push(...stackWriteStatements(scope), ...templateBucketStatements(scope));
    if (needs.includes('lookups') || needs.includes('nodes-write') || needs.includes('quotas-read'))
      statements.push(describeStatement());
    if (needs.includes('quotas-read')) statements.push(...quotaReadStatements(scope));
    if (needs.includes('lookups')) statements.push(...keyLookupStatements(scope));
    if (needs.includes('node-files-write')) statements.push(...nodeFilesStatements(scope));
    if (needs.includes('nodes-write')) statements.push(...nodeWriteStatements(scope));
    if (needs.includes('leftovers-write')) statements.push(...leftoversStatements(scope));
    return statements;
  }

  private createStackRole(): IRole {
    const patterns = this.props.clusterStackNamePatterns ?? DEFAULT_STACK_NAME_PATTERNS;
    return new ClusterStackRole(this, 'StackRole', {
      policyNamePrefix: `${Stack.of(this).stackName}`,
      stackNamePatterns: patterns,
      ...(this.props.clusterResourceNamePatterns?.length
        ? { resourceNamePatterns: this.props.clusterResourceNamePatterns }
        : {}),
      ...(this.props.sharedStackNamePatterns?.length
        ? { sharedStackNamePatterns: this.props.sharedStackNamePatterns }
        : {}),
    }).role;
  }
}

/**
 * Cross-account mode's task environment: the role to assume, the ExternalId it requires, and the CloudFormation service
 * role of every cluster account (ClmClusterAccess names it `<role>-stacks`).
 */
export function crossAccountEnvironment(props: {
  readonly assumedRoleName?: string;
  readonly externalId?: string;
}): Record<string, string> {
  if (!props.assumedRoleName) return {};
  return {
    [TASK_ENV.assumedRoleName]: props.assumedRoleName,
    [TASK_ENV.stackRoleName]: `${props.assumedRoleName}-stacks`,
    ...(props.externalId ? { [TASK_ENV.externalId]: props.externalId } : {}),
  };
}
