import { KubeApiError } from '../../shared/errors';
import type { LabelSelector } from '../../ports/kube-cluster';

/**
 * Label selectors: the string form (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) and the object form
 * (`matchLabels` + `matchExpressions` with In, NotIn, Exists, DoesNotExist).
 */

export interface Requirement {
  readonly key: string;
  readonly op: 'in' | 'notin' | 'exists' | '!exists';
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>>;

/** Split on commas that are not inside parentheses. */
function terms(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((t) => t.trim()).filter(Boolean);
}

export function parseSelector(selector: string | undefined): Requirement[] {
  if (!selector) return [];
  return terms(selector).map((term) => {
    let match = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (match)
      return {
        key: match[1],
        op: match[2] as 'in' | 'notin',
        values: match[3]
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    match = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (match) return { key: match[1], op: match[2] === '!=' ? 'notin' : 'in', values: [match[3]] };
    match = /^(!?)([^\s!=(),]+)$/.exec(term);
    if (match) return { key: match[2], op: match[1] ? '!exists' : 'exists', values: [] };
    throw new KubeApiError(`unable to parse label selector requirement "${term}"`);
  });
}

const OPERATORS: Readonly<Record<string, Requirement['op']>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!exists',
};

export function selectorRequirements(selector: LabelSelector | undefined): Requirement[] {
  if (!selector) return [];
  const requirements: Requirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    op: 'in',
    values: [value],
  }));
  for (const expression of selector.matchExpressions ?? []) {
    const op = OPERATORS[expression.operator];
    // An operator Kubernetes does not know matches nothing (the API server would have refused the object).
    if (!op) return [{ key: expression.key, op: 'in', values: [] }];
    requirements.push({ key: expression.key, op, values: expression.values ?? [] });
  }
  return requirements;
}

export function matches(requirements: readonly Requirement[], labels: Labels): boolean {
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    switch (r.op) {
      case 'in':
        return has && r.values.includes(labels[r.key]);
      case 'notin':
        return !has || !r.values.includes(labels[r.key]);
      case 'exists':
        return has;
      case '!exists':
        return !has;
    }
  });
}

/** Kubernetes LabelSelector semantics (matchLabels AND matchExpressions): `{}` matches everything, no selector nothing. */
export function matchesSelector(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return false;
  return matches(selectorRequirements(selector), labels);
}
