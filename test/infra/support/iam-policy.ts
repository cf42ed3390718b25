import { policyStatements } from '../../../lambdas/core/iam/policy-document';
import { authorize } from '../../../lambdas/core/iam/policy-evaluation';

/**
 * The CDK app's roles judged for one request: their identity policies and permissions boundary as synthesized, in
 * one account, by the product's IAM evaluation; and a template's intrinsics resolved to the values they have there.
 */

export interface PolicyStatement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export interface IamRequest {
  readonly action: string;
  readonly resource: string;
  /** Condition keys of the request (`aws:ResourceTag/…`, `ec2:CreateAction`, …); absent keys are absent. */
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
}

export type Decision = 'allowed' | 'explicitly denied' | 'not allowed';

/** The principal the CDK app's roles are judged as (one account: its identity policies and boundary decide). */
const SUBJECT = { arn: 'arn:aws:iam::123456789012:role/subject', account: '123456789012' };

/**
 * The decision for `request` by a principal with `identity` policies and, if given, a permissions `boundary`: the
 * product's own IAM evaluation (lambdas/core/iam/policy-evaluation.ts), the one the simulator judges nodes with.
 */
export function decide(
  identity: readonly PolicyStatement[],
  boundary: readonly PolicyStatement[] | undefined,
  request: IamRequest,
): Decision {
  const named = (name: string, statements: readonly PolicyStatement[]) => ({
    name,
    statements: policyStatements({ Statement: statements }),
  });
  const result = authorize(
    {
      caller: SUBJECT,
      action: request.action,
      resource: request.resource,
      resourceAccount: SUBJECT.account,
      ...(request.context ? { context: request.context } : {}),
    },
    {
      identity: [named('identity policies', identity)],
      ...(boundary ? { boundary: named('boundary', boundary) } : {}),
    },
  );
  return result.allowed ? 'allowed' : result.explicit ? 'explicitly denied' : 'not allowed';
}

/**
 * A synthesized template's value with CloudFormation's intrinsics resolved for one account: pseudo parameters,
 * Fn::Join, and Ref / Fn::GetAtt Arn of IAM roles and managed policies (to the ARN their name gives).
 */
export function resolveIntrinsics(value: unknown, template: Record<string, any>, account: string): unknown {
  const resources = (template.Resources ?? {}) as Record<string, { Type: string; Properties?: any }>;
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::AccountId': account,
    'AWS::Region': 'eu-central-1',
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const arnOf = (id: string): string => {
    const r = resources[id];
    if (r?.Type === 'AWS::IAM::Role') return `arn:aws:iam::${account}:role/${resolve(r.Properties?.RoleName ?? id)}`;
    if (r?.Type === 'AWS::IAM::ManagedPolicy')
      return `arn:aws:iam::${account}:policy/${resolve(r.Properties?.ManagedPolicyName ?? id)}`;
    return `arn:aws:unresolved:::${id}`;
  };
  const resolve = (v: unknown): any => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if ('Ref' in o) return pseudo[o.Ref as string] ?? arnOf(o.Ref as string);
    if ('Fn::Join' in o) {
      const [sep, parts] = o['Fn::Join'] as [string, unknown[]];
      return (resolve(parts) as unknown[]).join(sep);
    }
    if ('Fn::GetAtt' in o) return arnOf((o['Fn::GetAtt'] as string[])[0]!);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, resolve(x)]));
  };
  return resolve(value);
}
