/**
 * IAM's evaluation of identity policies and a permissions boundary for one request, as the IAM User Guide's policy
 * evaluation logic describes it for a single account: an explicit Deny in either wins; otherwise the request needs an
 * Allow in the identity policies and, when the principal has a boundary, an Allow in the boundary too. Actions match
 * case-insensitively with `*` and `?`, resources case-sensitively; conditions: the String, Arn and Null operators,
 * their `IfExists` forms and the `ForAllValues:`/`ForAnyValue:` set prefixes (the operators CLM's policies use).
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

const list = <T>(value: T | readonly T[] | undefined): readonly T[] =>
  value === undefined ? [] : Array.isArray(value) ? (value as readonly T[]) : [value as T];

/** An IAM wildcard pattern (`*` any run of characters, `?` one) as a RegExp. */
function wildcard(pattern: string, flags = ''): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, flags);
}

function conditionHolds(operator: string, key: string, wanted: readonly string[], request: IamRequest): boolean {
  const set = /^(ForAllValues|ForAnyValue):(.*)$/.exec(operator);
  const base = set ? set[2]! : operator;
  const ifExists = base.endsWith('IfExists');
  const op = ifExists ? base.slice(0, -'IfExists'.length) : base;
  const present = request.context?.[key];
  if (op === 'Null') return (present === undefined) === (wanted[0] === 'true');
  if (present === undefined) {
    if (ifExists || set?.[1] === 'ForAllValues') return true;
    return op.startsWith('StringNot') || op.startsWith('ArnNot');
  }
  const matchOne = (value: string): boolean => {
    switch (op) {
      case 'StringEquals':
      case 'ArnEquals':
        return wanted.includes(value);
      case 'StringNotEquals':
      case 'ArnNotEquals':
        return !wanted.includes(value);
      case 'StringEqualsIgnoreCase':
        return wanted.some((w) => w.toLowerCase() === value.toLowerCase());
      case 'StringLike':
      case 'ArnLike':
        return wanted.some((w) => wildcard(w).test(value));
      case 'StringNotLike':
      case 'ArnNotLike':
        return !wanted.some((w) => wildcard(w).test(value));
      default:
        throw new Error(`condition operator ${operator} is not evaluated here`);
    }
  };
  const values = list(present);
  if (set?.[1] === 'ForAllValues') return values.every(matchOne);
  if (set?.[1] === 'ForAnyValue') return values.some(matchOne);
  return values.some(matchOne);
}

function applies(statement: PolicyStatement, request: IamRequest): boolean {
  if (!list(statement.Action).some((a) => wildcard(a, 'i').test(request.action))) return false;
  if (!list(statement.Resource).some((r) => wildcard(r).test(request.resource))) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, wanted]) => conditionHolds(operator, key, list(wanted), request)),
  );
}

/** The decision for `request` by a principal with `identity` policies and, if given, a permissions `boundary`. */
export function decide(
  identity: readonly PolicyStatement[],
  boundary: readonly PolicyStatement[] | undefined,
  request: IamRequest,
): Decision {
  const all = [...identity, ...(boundary ?? [])];
  if (all.some((s) => s.Effect === 'Deny' && applies(s, request))) return 'explicitly denied';
  const allowedBy = (statements: readonly PolicyStatement[]) =>
    statements.some((s) => s.Effect === 'Allow' && applies(s, request));
  return allowedBy(identity) && (boundary === undefined || allowedBy(boundary)) ? 'allowed' : 'not allowed';
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
