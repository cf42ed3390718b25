import { coversRequest, iamGlob, principalMatch, type NamedPolicy, type Statement } from './policy-document';

/**
 * May a role do an action on a resource? AWS's evaluation (the IAM User Guide's policy evaluation logic) for what CLM
 * needs judged — a node's bootstrap (s3:GetObject of its files bundle, kms:Decrypt of its `.enc` files) and the CDK
 * app's roles (their identity policies and permissions boundary): an explicit Deny anywhere wins; within one account
 * an Allow of the role's identity policies or of the resource policy naming the role suffices; across accounts both
 * the identity policies and the resource policy (naming the role or its account) must allow. A KMS key is reached only
 * through its key policy: it grants the role itself, or grants the role's account, which then delegates to the
 * identity policies. A permissions boundary must allow too. Conditions: String*, Arn*, Bool and Null operators (with
 * `IfExists`, and the `ForAllValues:`/`ForAnyValue:` set prefixes over multi-valued keys), keys from the request
 * context (`aws:PrincipalArn`, `aws:PrincipalAccount`, …; a negated operator holds when its key is absent, as in
 * AWS); an operator not modelled never makes an Allow apply and always makes a Deny apply, so this never allows what
 * AWS would refuse. SCPs and session policies are not modelled. Pure.
 */

export interface AccessRequest {
  readonly caller: { readonly arn: string; readonly account: string };
  readonly action: string;
  readonly resource: string;
  /** The account owning the resource (the bucket's, the key's). */
  readonly resourceAccount: string;
  /** Condition keys beyond the caller's own (`kms:EncryptionContext:…`, `aws:TagKeys`…); multi-valued keys as lists. */
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
}

export interface AccessPolicies {
  /** The role's inline and attached managed policies. */
  readonly identity: readonly NamedPolicy[];
  /** The bucket policy or the key policy, when the resource has one. */
  readonly resource?: NamedPolicy;
  /** The resource is a KMS key: nothing without its key policy. */
  readonly keyPolicyRequired?: boolean;
  /** The caller's permissions boundary: whatever else allows, it must allow too. */
  readonly boundary?: NamedPolicy;
}

export type AccessDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: string; /** An explicit Deny refused it. */ readonly explicit?: true };

type Applies = (statement: Statement) => boolean;

export function authorize(request: AccessRequest, policies: AccessPolicies): AccessDecision {
  const context = requestContext(request);
  const applies =
    (effect: 'Allow' | 'Deny'): Applies =>
    (s) =>
      s.effect === effect && coversRequest(s, request.action, request.resource) && conditionsHold(s, context, effect);
  const what = `${request.action} on ${request.resource}`;
  const boundary = policies.boundary ? [policies.boundary] : [];
  const denied =
    findIdentity([...policies.identity, ...boundary], applies('Deny')) ??
    findResource(policies, request, applies('Deny'));
  if (denied) return { allowed: false, reason: `${what} is explicitly denied by ${denied}`, explicit: true };
  const decision = allowedByPolicies(request, policies, applies, what);
  if (!decision.allowed || !policies.boundary || findIdentity(boundary, applies('Allow'))) return decision;
  return { allowed: false, reason: `${what}: the permissions boundary ${policies.boundary.name} does not allow it` };
}

function allowedByPolicies(
  request: AccessRequest,
  policies: AccessPolicies,
  applies: (effect: 'Allow' | 'Deny') => Applies,
  what: string,
): AccessDecision {
  const identity = findIdentity(policies.identity, applies('Allow'));
  const grants = resourceGrants(policies.resource, request, applies('Allow'));
  const sameAccount = request.caller.account === request.resourceAccount;
  if (policies.keyPolicyRequired) {
    if (grants.caller || (grants.account && identity)) return { allowed: true };
    if (!policies.resource) return { allowed: false, reason: `${what}: the key has no key policy` };
    return {
      allowed: false,
      reason: grants.account
        ? `${what}: ${policies.resource.name} delegates to IAM, and no policy of ${request.caller.arn} allows it`
        : `${what}: ${policies.resource.name} grants neither ${request.caller.arn} nor its account`,
    };
  }
  if (sameAccount ? identity || grants.caller : identity && (grants.caller || grants.account)) return { allowed: true };
  if (!sameAccount && identity)
    return {
      allowed: false,
      reason: `${what}: the resource is in account ${request.resourceAccount}, and ${policies.resource ? `${policies.resource.name} does not grant ${request.caller.arn}` : 'it has no policy granting other accounts'}`,
    };
  const names = policies.identity.map((p) => p.name);
  return {
    allowed: false,
    reason: `${what}: no policy of ${request.caller.arn} allows it (${names.length ? names.join(', ') : 'it has no policies'})${policies.resource ? `, nor does ${policies.resource.name}` : ''}`,
  };
}

function findIdentity(policies: readonly NamedPolicy[], applies: Applies): string | undefined {
  for (const policy of policies) {
    const statement = policy.statements.find(applies);
    if (statement) return statement.sid ? `${policy.name} (statement ${statement.sid})` : policy.name;
  }
  return undefined;
}

function findResource(policies: AccessPolicies, request: AccessRequest, applies: Applies): string | undefined {
  const policy = policies.resource;
  const statement = policy?.statements.find((s) => principalMatch(s, request.caller) && applies(s));
  if (!policy || !statement) return undefined;
  return statement.sid ? `${policy.name} (statement ${statement.sid})` : policy.name;
}

function resourceGrants(
  policy: NamedPolicy | undefined,
  request: AccessRequest,
  applies: Applies,
): { readonly caller: boolean; readonly account: boolean } {
  let caller = false;
  let account = false;
  for (const statement of policy?.statements ?? []) {
    if (!applies(statement)) continue;
    const match = principalMatch(statement, request.caller);
    if (match === 'caller') caller = true;
    if (match === 'account') account = true;
  }
  return { caller, account };
}

type ContextValue = string | readonly string[];

function requestContext(request: AccessRequest): Map<string, ContextValue> {
  const entries: [string, ContextValue][] = [
    ['aws:principalarn', request.caller.arn],
    ['aws:principalaccount', request.caller.account],
    ['aws:resourceaccount', request.resourceAccount],
    ['aws:securetransport', 'true'],
    ...Object.entries(request.context ?? {}).map(([k, v]): [string, ContextValue] => [k.toLowerCase(), v]),
  ];
  return new Map(entries);
}

/** Every operator of the statement's Condition holds (operators AND, keys AND, values OR). */
function conditionsHold(
  statement: Statement,
  context: ReadonlyMap<string, ContextValue>,
  effect: 'Allow' | 'Deny',
): boolean {
  for (const [operator, keys] of Object.entries(statement.condition ?? {})) {
    for (const [key, values] of Object.entries(keys)) {
      const result = evaluateCondition(operator, context.get(key.toLowerCase()), values);
      // Not modelled: an Allow does not apply, a Deny does (never more lenient than AWS).
      if (result === undefined) return effect === 'Deny';
      if (!result) return false;
    }
  }
  return true;
}

const TESTS: Readonly<Record<string, (actual: string, expected: string) => boolean>> = {
  StringEquals: (a, e) => a === e,
  StringNotEquals: (a, e) => a !== e,
  StringEqualsIgnoreCase: (a, e) => a.toLowerCase() === e.toLowerCase(),
  StringNotEqualsIgnoreCase: (a, e) => a.toLowerCase() !== e.toLowerCase(),
  StringLike: (a, e) => iamGlob(e).test(a),
  StringNotLike: (a, e) => !iamGlob(e).test(a),
  ArnEquals: (a, e) => a === e,
  ArnLike: (a, e) => iamGlob(e).test(a),
  ArnNotEquals: (a, e) => a !== e,
  ArnNotLike: (a, e) => !iamGlob(e).test(a),
  Bool: (a, e) => a.toLowerCase() === e.toLowerCase(),
};

const NEGATED = new Set([
  'StringNotEquals',
  'StringNotEqualsIgnoreCase',
  'StringNotLike',
  'ArnNotEquals',
  'ArnNotLike',
]);

/**
 * One operator on one key: true/false, or undefined for an operator not modelled. A key absent from the request fails
 * a positive operator and satisfies a negated one (or any `…IfExists`); `ForAllValues:` holds when every value of
 * the key matches (also when it has none), `ForAnyValue:` when one does; without a set prefix any value matching
 * suffices.
 */
function evaluateCondition(
  operator: string,
  actual: ContextValue | undefined,
  values: readonly string[],
): boolean | undefined {
  const set = /^(ForAllValues|ForAnyValue):(.+)$/.exec(operator);
  const op = set ? set[2]! : operator;
  const present = actual === undefined ? [] : typeof actual === 'string' ? [actual] : actual;
  if (op === 'Null') return values.some((v) => (v.toLowerCase() === 'true') === (present.length === 0));
  const ifExists = op.endsWith('IfExists');
  const base = ifExists ? op.slice(0, -'IfExists'.length) : op;
  const test = TESTS[base];
  if (!test) return undefined;
  // Negated operators hold when the value matches none of the listed values.
  const one = (value: string) =>
    NEGATED.has(base) ? values.every((v) => test(value, v)) : values.some((v) => test(value, v));
  if (set?.[1] === 'ForAllValues') return present.every(one);
  if (set?.[1] === 'ForAnyValue') return present.some(one);
  if (present.length === 0) return ifExists || NEGATED.has(base);
  return present.some(one);
}
