import { isRecord, scalarText, yamlTypeName } from '../config/plain-data';
import { parseSelector } from '../kube/label-selector';
import { PROPAGATION_POLICIES } from './deletion';
import type { Deletion, Deletions, PropagationPolicy } from './deletion';
import { parsePrePostLists } from './parse-pre-post-lists';

/**
 * Parse and validate a rendered `deletions.yaml` with CLM's code semantics (§5.1). Every problem is
 * reported, each as `<file>: pre_apply[2]: <what is wrong>`; any problem throws one ValidationError
 * carrying them all. A YAML syntax error throws ConfigError with the line.
 */
export function parseDeletions(text: string, file: string): Deletions {
  return parsePrePostLists(text, file, 'deletions', parseEntry);
}

/** A kind, optionally qualified by its group (`Deployment`, `Ingress.networking.k8s.io`). */
const KIND_PATTERN = /^[A-Za-z][A-Za-z0-9]*(\.[a-z0-9]([a-z0-9.-]*[a-z0-9])?)?$/;

/** The selector is parsed now, so a typo fails before any stack is touched, not when the deletion runs. */
function checkSelector(selector: string, where: string, issues: string[]): void {
  try {
    parseSelector(selector);
  } catch (error) {
    issues.push(`${where}: selector: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const ENTRY_FIELDS = [
  'kind',
  'namespace',
  'name',
  'selector',
  'labels',
  'has_owner',
  'propagation_policy',
  'grace_period_seconds',
];

function parseEntry(entry: unknown, where: string, issues: string[]): Deletion | undefined {
  if (!isRecord(entry)) {
    issues.push(`${where}: expected a mapping, found ${yamlTypeName(entry)}`);
    return undefined;
  }
  const before = issues.length;
  for (const key of Object.keys(entry)) {
    if (!ENTRY_FIELDS.includes(key))
      issues.push(`${where}: unknown field "${key}" (allowed: ${ENTRY_FIELDS.join(', ')})`);
  }
  const kind = optionalString(entry, 'kind', where, issues);
  if (!kind) issues.push(`${where}: kind is required`);
  else if (!KIND_PATTERN.test(kind)) issues.push(`${where}: kind "${kind}" is not a Kubernetes kind (e.g. Deployment)`);
  const namespace = optionalString(entry, 'namespace', where, issues);
  const name = optionalString(entry, 'name', where, issues);
  const selector = optionalString(entry, 'selector', where, issues);
  if (selector) checkSelector(selector, where, issues);
  const labels = optionalLabels(entry, where, issues);
  const targets = [name ? 'name' : '', selector ? 'selector' : '', labels ? 'labels' : ''].filter(Boolean);
  if (targets.length !== 1) {
    issues.push(
      `${where}: exactly one of name, selector or labels is required, found ${targets.length ? targets.join(' and ') : 'none'}`,
    );
  }
  const hasOwner = optionalBoolean(entry, 'has_owner', where, issues);
  if (hasOwner !== undefined && !selector && !labels)
    issues.push(`${where}: has_owner is only valid with selector or labels`);
  const propagationPolicy = optionalPolicy(entry, where, issues);
  const gracePeriodSeconds = optionalGracePeriod(entry, where, issues);
  if (issues.length > before || !kind) return undefined;

  const base = {
    kind,
    ...(namespace ? { namespace } : {}),
    ...(propagationPolicy ? { propagationPolicy } : {}),
    ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
  };
  const owner = hasOwner !== undefined ? { hasOwner } : {};
  if (name) return { ...base, name };
  if (selector) return { ...base, selector, ...owner };
  return { ...base, labels: labels!, ...owner };
}

/** A string field; empty counts as absent (as a Go string field). Numbers are taken as their text. */
function optionalString(
  entry: Record<string, unknown>,
  key: string,
  where: string,
  issues: string[],
): string | undefined {
  if (!(key in entry)) return undefined;
  const text = scalarText(entry[key]);
  if (text === undefined) {
    issues.push(`${where}: ${key} must be a string, found ${yamlTypeName(entry[key])}`);
    return undefined;
  }
  return text || undefined;
}

function optionalLabels(
  entry: Record<string, unknown>,
  where: string,
  issues: string[],
): Record<string, string> | undefined {
  const value = entry.labels;
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    issues.push(`${where}: labels must be a mapping of label names to values, found ${yamlTypeName(value)}`);
    return undefined;
  }
  const labels: Record<string, string> = {};
  for (const [key, labelValue] of Object.entries(value)) {
    const text = scalarText(labelValue);
    if (text === undefined) issues.push(`${where}: labels.${key} must be a string, found ${yamlTypeName(labelValue)}`);
    else labels[key] = text;
  }
  return Object.keys(labels).length ? labels : undefined;
}

function optionalBoolean(
  entry: Record<string, unknown>,
  key: string,
  where: string,
  issues: string[],
): boolean | undefined {
  const value = entry[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    issues.push(`${where}: ${key} must be true or false, found ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

function optionalPolicy(
  entry: Record<string, unknown>,
  where: string,
  issues: string[],
): PropagationPolicy | undefined {
  const value = entry.propagation_policy;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(PROPAGATION_POLICIES as readonly string[]).includes(value)) {
    issues.push(
      `${where}: propagation_policy must be one of ${PROPAGATION_POLICIES.join(', ')}, found ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  return value as PropagationPolicy;
}

function optionalGracePeriod(entry: Record<string, unknown>, where: string, issues: string[]): number | undefined {
  const value = entry.grace_period_seconds;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    issues.push(`${where}: grace_period_seconds must be a non-negative integer, found ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}
