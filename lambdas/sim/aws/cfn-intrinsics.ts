/**
 * CloudFormation intrinsic functions on plain (long-form) template data: Ref, Fn::GetAtt, Fn::Sub, Fn::Join,
 * Fn::Select, Fn::Split, Fn::If, Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition, Fn::Base64, Fn::GetAZs,
 * Fn::ImportValue, Fn::FindInMap, Fn::ToJsonString, Fn::Length and Fn::Cidr (IPv4). `AWS::NoValue` removes
 * the key or list item it stands in.
 */

export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** An error in a template, reported as the stack's failure reason (or a ValidationError before it starts). */
export class CfnEvalError extends Error {
  override name = 'CfnEvalError';
  /** The resource whose properties failed, when one did (its stack event names it). */
  resource?: { readonly logicalId: string; readonly type: string };
}

export interface EvalScope {
  readonly region: string;
  readonly accountId: string;
  readonly stackName: string;
  readonly stackId: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly mappings: Readonly<Record<string, unknown>>;
  condition(name: string): boolean;
  /** Physical id of a resource, or undefined when the logical id is unknown. */
  ref(logicalId: string): unknown;
  getAtt(logicalId: string, attribute: string): unknown;
  importValue(name: string): string;
  azs(region: string): string[];
}

const PSEUDO = [
  'AWS::Region',
  'AWS::AccountId',
  'AWS::StackName',
  'AWS::StackId',
  'AWS::Partition',
  'AWS::URLSuffix',
  'AWS::NoValue',
  'AWS::NotificationARNs',
];

function pseudo(name: string, scope: EvalScope): unknown {
  switch (name) {
    case 'AWS::Region':
      return scope.region;
    case 'AWS::AccountId':
      return scope.accountId;
    case 'AWS::StackName':
      return scope.stackName;
    case 'AWS::StackId':
      return scope.stackId;
    case 'AWS::Partition':
      return 'aws';
    case 'AWS::URLSuffix':
      return 'amazonaws.com';
    case 'AWS::NotificationARNs':
      return [];
    default:
      return NO_VALUE;
  }
}

export function isPseudoParameter(name: string): boolean {
  return PSEUDO.includes(name);
}

function ref(name: unknown, scope: EvalScope): unknown {
  if (typeof name !== 'string') throw new CfnEvalError('Ref must name a resource or parameter');
  if (isPseudoParameter(name)) return pseudo(name, scope);
  if (name in scope.parameters) return scope.parameters[name];
  const value = scope.ref(name);
  if (value === undefined)
    throw new CfnEvalError(`Unresolved resource dependencies [${name}] in the Resources block of the template`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new CfnEvalError(`${what}: expected a string, got ${JSON.stringify(value)}`);
}

function list(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new CfnEvalError(`${what}: expected a list, got ${JSON.stringify(value)}`);
}

function sub(args: unknown, scope: EvalScope): string {
  const [template, vars] = Array.isArray(args) ? [args[0], args[1] ?? {}] : [args, {}];
  const variables = evaluate(vars, scope) as Record<string, unknown>;
  return text(template, 'Fn::Sub').replace(/\$\{(!?)([^}]+)\}/g, (_match, bang: string, name: string) => {
    if (bang) return `\${${name}}`;
    const key = name.trim();
    if (key in variables) return text(variables[key], `Fn::Sub \${${key}}`);
    const dot = key.indexOf('.');
    if (dot > 0 && !isPseudoParameter(key))
      return text(scope.getAtt(key.slice(0, dot), key.slice(dot + 1)), `Fn::Sub \${${key}}`);
    return text(ref(key, scope), `Fn::Sub \${${key}}`);
  });
}

function cidr(args: unknown[]): string[] {
  const [block, count, bits] = args;
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text(block, 'Fn::Cidr'));
  if (!match) throw new CfnEvalError(`Fn::Cidr: ${String(block)} is not an IPv4 CIDR`);
  const base = match.slice(1, 5).reduce((acc, octet) => acc * 256 + Number(octet), 0);
  const size = 2 ** Number(bits);
  return Array.from({ length: Number(count) }, (_, i) => {
    const address = base + i * size;
    const octets = [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256);
    return `${octets.join('.')}/${32 - Number(bits)}`;
  });
}

type Fn = (args: unknown, scope: EvalScope) => unknown;

const FUNCTIONS: Record<string, Fn> = {
  Ref: (args, scope) => ref(args, scope),
  'Fn::GetAtt': (args, scope) => {
    const parts = typeof args === 'string' ? args.split('.') : (evaluate(args, scope) as unknown[]);
    const [resource, ...attribute] = list(parts, 'Fn::GetAtt');
    return scope.getAtt(text(resource, 'Fn::GetAtt'), attribute.map((a) => text(a, 'Fn::GetAtt')).join('.'));
  },
  'Fn::Sub': sub,
  'Fn::Join': (args, scope) => {
    const [separator, items] = list(args, 'Fn::Join');
    return list(evaluate(items, scope), 'Fn::Join')
      .map((item) => text(item, 'Fn::Join'))
      .join(text(separator, 'Fn::Join'));
  },
  'Fn::Select': (args, scope) => {
    const [index, items] = list(evaluate(args, scope), 'Fn::Select');
    const values = list(items, 'Fn::Select');
    const i = Number(index);
    if (!Number.isInteger(i) || i < 0 || i >= values.length)
      throw new CfnEvalError(`Fn::Select: index ${String(index)} out of bounds (${values.length} items)`);
    return values[i];
  },
  'Fn::Split': (args, scope) => {
    const [separator, source] = list(evaluate(args, scope), 'Fn::Split');
    return text(source, 'Fn::Split').split(text(separator, 'Fn::Split'));
  },
  'Fn::If': (args, scope) => {
    const [name, whenTrue, whenFalse] = list(args, 'Fn::If');
    return evaluate(scope.condition(text(name, 'Fn::If')) ? whenTrue : whenFalse, scope);
  },
  'Fn::Equals': (args, scope) => {
    const [a, b] = list(evaluate(args, scope), 'Fn::Equals');
    return JSON.stringify(a) === JSON.stringify(b) || String(a) === String(b);
  },
  'Fn::Not': (args, scope) => !truthy(list(args, 'Fn::Not')[0], scope),
  'Fn::And': (args, scope) => list(args, 'Fn::And').every((item) => truthy(item, scope)),
  'Fn::Or': (args, scope) => list(args, 'Fn::Or').some((item) => truthy(item, scope)),
  Condition: (args, scope) => scope.condition(text(args, 'Condition')),
  'Fn::Base64': (args, scope) => Buffer.from(text(evaluate(args, scope), 'Fn::Base64'), 'utf8').toString('base64'),
  'Fn::GetAZs': (args, scope) => {
    const region = evaluate(args, scope);
    return scope.azs(typeof region === 'string' && region !== '' ? region : scope.region);
  },
  'Fn::ImportValue': (args, scope) => scope.importValue(text(evaluate(args, scope), 'Fn::ImportValue')),
  'Fn::FindInMap': (args, scope) => {
    const [map, top, second] = list(evaluate(args, scope), 'Fn::FindInMap').map((v) => text(v, 'Fn::FindInMap'));
    const value = (scope.mappings[map] as Record<string, Record<string, unknown>> | undefined)?.[top]?.[second];
    if (value === undefined) throw new CfnEvalError(`Fn::FindInMap: no ${map}.${top}.${second}`);
    return value;
  },
  'Fn::ToJsonString': (args, scope) => JSON.stringify(evaluate(args, scope)),
  'Fn::Length': (args, scope) => list(evaluate(args, scope), 'Fn::Length').length,
  'Fn::Cidr': (args, scope) => cidr(list(evaluate(args, scope), 'Fn::Cidr')),
};

function truthy(value: unknown, scope: EvalScope): boolean {
  const result = evaluate(value, scope);
  return result === true || result === 'true';
}

/** The intrinsic function an object stands for, if it is `{ <Fn>: args }`. */
export function intrinsicOf(value: unknown): [string, unknown] | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || !(keys[0] in FUNCTIONS)) return undefined;
  return [keys[0], (value as Record<string, unknown>)[keys[0]]];
}

/** Evaluate every intrinsic in `value`. */
export function evaluate(value: unknown, scope: EvalScope): unknown {
  if (Array.isArray(value)) return value.map((item) => evaluate(item, scope)).filter((item) => item !== NO_VALUE);
  if (value === null || typeof value !== 'object') return value;
  const fn = intrinsicOf(value);
  if (fn) return FUNCTIONS[fn[0]](fn[1], scope);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const result = evaluate(item, scope);
    if (result !== NO_VALUE) out[key] = result;
  }
  return out;
}

/** Logical ids a value refers to (Ref, Fn::GetAtt, `${X}` / `${X.Attr}` in Fn::Sub), parameters included. */
export function referencedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedNames(item, into);
    return into;
  }
  if (value === null || typeof value !== 'object') return into;
  const fn = intrinsicOf(value);
  if (fn?.[0] === 'Ref' && typeof fn[1] === 'string') into.add(fn[1]);
  else if (fn?.[0] === 'Fn::GetAtt') {
    const target = typeof fn[1] === 'string' ? fn[1].split('.')[0] : Array.isArray(fn[1]) ? fn[1][0] : undefined;
    if (typeof target === 'string') into.add(target);
  } else if (fn?.[0] === 'Fn::Sub') {
    const [template, vars] = Array.isArray(fn[1]) ? [fn[1][0], fn[1][1]] : [fn[1], undefined];
    const local = vars && typeof vars === 'object' ? Object.keys(vars) : [];
    if (typeof template === 'string') {
      for (const match of template.matchAll(/\$\{([^!}][^}]*)\}/g)) {
        const name = match[1].trim().split('.')[0];
        if (!local.includes(name)) into.add(name);
      }
    }
    referencedNames(vars, into);
    return into;
  }
  for (const item of Object.values(value)) referencedNames(item, into);
  return into;
}
