import { coversRequest, iamGlob, principalMatch, type NamedPolicy, type Statement } from './policy-document';

/**
 * May a role do an action on a resource? AWS's evaluation, as far as a node's bootstrap needs it (s3:GetObject of its
 * files bundle, kms:Decrypt of its `.enc` files): an explicit Deny anywhere wins; within one account an Allow of the
 * role's identity policies or of the resource policy naming the role suffices; across accounts both the identity
 * policies and the resource policy (naming the role or its account) must allow. A KMS key is reached only through
 * its key policy: it grants the role itself, or grants the role's account, which then delegates to the identity
 * policies. Conditions: String*, Arn*, Bool and Null operators (with `IfExists`), keys from the request context
 * (`aws:PrincipalArn`, `aws:PrincipalAccount`, …); an operator not modelled never makes an Allow apply and always
 * makes a Deny apply, so this never allows what AWS would refuse. Permissions boundaries, SCPs and session policies
 * are not modelled. Pure.
 */

export interface AccessRequest {
  readonly caller: { readonly arn: string; readonly account: string };
  readonly action: string;
  readonly resource: string;
  /** The account owning the resource (the bucket's, the key's). */
  readonly resourceAccount: string;
  /** Condition keys beyond the caller's own (`kms:EncryptionContext:…`, `s3:prefix`…). */
  readonly context?: Readonly<Record<string, string>>;
}

export interface AccessPolicies {
  /** The role's inline and attached managed policies. */
  readonly identity: readonly NamedPolicy[];
  /** The bucket policy or the key policy, when the resource has one. */
  readonly resource?: NamedPolicy;
  /** The resource is a KMS key: nothing without its key policy. */
  readonly keyPolicyRequired?: boolean;
}

export type AccessDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

type Applies = (statement: Statement) => boolean;

export function authorize(request: AccessRequest, policies: AccessPolicies): AccessDecision {
  const context = requestContext(request);
  const applies =
    (effect: 'Allow' | 'Deny'): Applies =>
    (s) =>
      s.effect === effect && coversRequest(s, request.action, request.resource) && conditionsHold(s, context, effect);
  const what = `${request.action} on ${request.resource}`;
  const denied = findIdentity(policies.identity, applies('Deny')) ?? findResource(policies, request, applies('Deny'));
  if (denied) return { allowed: false, reason: `${what} is explicitly denied by ${denied}` };

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

function requestContext(request: AccessRequest): Map<string, string> {
  const entries: [string, string][] = [
    ['aws:principalarn', request.caller.arn],
    ['aws:principalaccount', request.caller.account],
    ['aws:resourceaccount', request.resourceAccount],
    ['aws:securetransport', 'true'],
    ...Object.entries(request.context ?? {}).map(([k, v]): [string, string] => [k.toLowerCase(), v]),
  ];
  return new Map(entries);
}

/** Every operator of the statement's Condition holds (operators AND, keys AND, values OR). */
function conditionsHold(statement: Statement, context: ReadonlyMap<string, string>, effect: 'Allow' | 'Deny'): boolean {
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

/** One operator on one key: true/false, or undefined for an operator not modelled. */
function evaluateCondition(
  operator: string,
  actual: string | undefined,
  values: readonly string[],
): boolean | undefined {
  if (operator === 'Null') return values.some((v) => (v.toLowerCase() === 'true') === (actual === undefined));
  const ifExists = operator.endsWith('IfExists');
  const base = ifExists ? operator.slice(0, -'IfExists'.length) : operator;
  const test = TESTS[base];
  if (!test) return undefined;
  if (actual === undefined) return ifExists;
  // Negated operators hold when the value matches none of the listed values.
  return NEGATED.has(base) ? values.every((v) => test(actual, v)) : values.some((v) => test(actual, v));
}
