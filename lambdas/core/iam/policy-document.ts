import { isRecord } from '../config/plain-data';

/**
 * IAM policy documents as the stack templates write them (JSON or YAML, `Statement` an object or a list), read into
 * one shape, and the matching rules of their parts: actions (case-insensitive globs), resources (case-sensitive globs),
 * principals and conditions. Pure; policy-evaluation.ts decides.
 */

export interface Statement {
  readonly sid?: string;
  readonly effect: 'Allow' | 'Deny';
  readonly action?: readonly string[];
  readonly notAction?: readonly string[];
  readonly resource?: readonly string[];
  readonly notResource?: readonly string[];
  /** Resource policies: `*`, or AWS principals (ARNs, account ids); services are kept as `service:<name>`. */
  readonly principal?: readonly string[];
  readonly notPrincipal?: readonly string[];
  readonly condition?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

/** A policy with the name messages give it: `inline policy worker of role kube-1-worker`, `key policy of …`. */
export interface NamedPolicy {
  readonly name: string;
  readonly statements: readonly Statement[];
}

const list = (value: unknown): string[] | undefined =>
  value === undefined || value === null ? undefined : (Array.isArray(value) ? value : [value]).map((v) => String(v));

/** A policy document (parsed JSON or YAML, or its JSON text) as statements; what is not a statement is skipped. */
export function policyStatements(document: unknown): Statement[] {
  let doc = document;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch {
      return [];
    }
  }
  if (!isRecord(doc)) return [];
  const raw = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement === undefined ? [] : [doc.Statement];
  return raw.filter(isRecord).map((s) => ({
    ...(s.Sid !== undefined ? { sid: String(s.Sid) } : {}),
    effect: s.Effect === 'Deny' ? 'Deny' : 'Allow',
    ...optional('action', list(s.Action)),
    ...optional('notAction', list(s.NotAction)),
    ...optional('resource', list(s.Resource)),
    ...optional('notResource', list(s.NotResource)),
    ...optional('principal', principals(s.Principal)),
    ...optional('notPrincipal', principals(s.NotPrincipal)),
    ...(isRecord(s.Condition) ? { condition: conditions(s.Condition) } : {}),
  }));
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function principals(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === '*') return ['*'];
  if (!isRecord(value)) return list(value);
  const out: string[] = [];
  for (const [kind, names] of Object.entries(value))
    for (const name of list(names) ?? []) out.push(kind === 'AWS' ? name : `${kind.toLowerCase()}:${name}`);
  return out;
}

function conditions(value: Record<string, unknown>): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [operator, keys] of Object.entries(value)) {
    if (!isRecord(keys)) continue;
    out[operator] = Object.fromEntries(Object.entries(keys).map(([key, v]) => [key, list(v) ?? []]));
  }
  return out;
}

/** An IAM glob (`*` any run, `?` one character) as a regular expression. */
function glob(pattern: string, flags = ''): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, flags);
}

export function actionMatches(patterns: readonly string[], action: string): boolean {
  return patterns.some((p) => glob(p, 'i').test(action));
}

export function resourceMatches(patterns: readonly string[], resource: string): boolean {
  return patterns.some((p) => glob(p).test(resource));
}

/** Whether a statement's Action/NotAction and Resource/NotResource cover the request (an absent Resource: any). */
export function coversRequest(statement: Statement, action: string, resource: string): boolean {
  const actionOk = statement.action
    ? actionMatches(statement.action, action)
    : statement.notAction
      ? !actionMatches(statement.notAction, action)
      : false;
  if (!actionOk) return false;
  if (statement.resource) return resourceMatches(statement.resource, resource);
  if (statement.notResource) return !resourceMatches(statement.notResource, resource);
  return true;
}

/** Who a resource-policy statement names: the caller itself (`*`, its ARN), its whole account (root, account id), or neither. */
export function principalMatch(
  statement: Statement,
  caller: { readonly arn: string; readonly account: string },
): 'caller' | 'account' | undefined {
  const names = statement.principal;
  if (!names) {
    if (!statement.notPrincipal) return undefined;
    return statement.notPrincipal.some((n) => n === caller.arn || accountOf(n) === caller.account)
      ? undefined
      : 'caller';
  }
  if (names.some((n) => n === '*' || n === caller.arn)) return 'caller';
  if (names.some((n) => accountOf(n) === caller.account)) return 'account';
  return undefined;
}

/** `123456789012` or `arn:aws:iam::123456789012:root` → the account; other ARNs → undefined. */
function accountOf(principal: string): string | undefined {
  if (/^\d{12}$/.test(principal)) return principal;
  const root = /^arn:[^:]+:iam::(\d{12}):root$/.exec(principal);
  return root?.[1];
}

export { glob as iamGlob };
