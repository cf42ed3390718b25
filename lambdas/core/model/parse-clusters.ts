import { ValidationError } from '../../shared/errors';
import type { Cluster } from './cluster';
import { didYouMean } from './did-you-mean';
import { describeValue, formatPath, validateWireCluster } from './validate-wire-cluster';
import type { FieldIssue } from './validate-wire-cluster';
import type { WireMode } from './wire-cluster-schema';
import { loadYamlWithPositions } from './yaml-positions';
import { configItemNumbersAsText } from './config-item-numbers';
import type { DocPath } from './yaml-positions';

export interface ParsedClusters {
  /** In file order. */
  readonly clusters: Cluster[];
  /** Non-fatal findings, each `file:line: cluster <id>: <field>: <message>`. */
  readonly warnings: string[];
}

const FILE_KEYS = ['clusters'] as const;

/**
 * Parse a `clusters.yaml` registry file (CLM §2.2): a top-level `clusters:` list of clusters in the
 * snake_case format. Reports every problem at once in one ValidationError whose issues read like
 * `examples/clusters.yaml:14: cluster aws:123456789012:eu-central-1:kube-1: node_pools[0].max_size: expected a number, got "ten"`.
 * Unknown fields are errors; duplicate cluster ids, and two clusters sharing a main stack (same account,
 * region and local_id), are errors. A missing `status` block is an empty status. An unquoted number as a config
 * item value is taken as its text, with a warning (CLM reads config items as strings).
 */
export function parseClustersYaml(text: string, file: string): ParsedClusters {
  const doc = loadYamlWithPositions(text, file);
  const root = doc.value;
  if (root === null || root === undefined)
    return { clusters: [], warnings: [`${file}:1: the file defines no clusters`] };
  if (typeof root !== 'object' || Array.isArray(root)) {
    throw new ValidationError(`${file}: not a cluster registry file`, {
      issues: [`${file}:1: expected a mapping with a "clusters:" list, got ${describeValue(root)}`],
    });
  }
  const findings: Findings = { at: (path) => doc.lineOf(path) ?? 1, issues: [], warnings: [] };
  const entries = clusterEntries(root as Record<string, unknown>, findings);
  const clusters = validateEntries(entries, findings, configItemNumbersAsText(entries, text));
  const render = (list: readonly Finding[]): string[] =>
    [...list].sort((a, b) => a.line - b.line).map((item) => `${file}:${item.line}: ${item.text}`);
  const { issues, warnings } = findings;
  if (issues.length > 0) {
    throw new ValidationError(
      `${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'} in the cluster registry file`,
      { issues: render(issues) },
    );
  }
  return { clusters, warnings: render(warnings) };
}

/** A problem or warning at a line of the file. */
interface Finding {
  readonly line: number;
  readonly text: string;
}

/** What parsing one file has found so far, and the line of a document path. */
interface Findings {
  readonly at: (path: DocPath) => number;
  readonly issues: Finding[];
  readonly warnings: Finding[];
}

/** The entries of the top-level `clusters:` list; unknown top-level fields and a non-list are issues. */
function clusterEntries(top: Record<string, unknown>, { at, issues }: Findings): unknown[] {
  for (const key of Object.keys(top)) {
    if (!(FILE_KEYS as readonly string[]).includes(key)) {
      issues.push({
        line: at([key]),
        text: `${key}: unknown top-level field${didYouMean(key, FILE_KEYS)}; the file holds a "clusters:" list`,
      });
    }
  }
  const entries = top.clusters ?? [];
  if (Array.isArray(entries)) return entries;
  issues.push({ line: at(['clusters']), text: `clusters: expected a list of clusters, got ${describeValue(entries)}` });
  return [];
}

/**
 * Each entry validated and converted; duplicate ids and two clusters owning one main stack are issues.
 * `numberWarnings`: per entry, the config items that were unquoted numbers (already taken as their text).
 */
function validateEntries(
  entries: readonly unknown[],
  findings: Findings,
  numberWarnings: ReadonlyMap<number, readonly FieldIssue[]>,
): Cluster[] {
  const { at, issues, warnings } = findings;
  const clusters: Cluster[] = [];
  // Lines are looked up only for messages: finding one parses the file a second time.
  const firstIndexById = new Map<string, number>();
  const stackOwners = new Map<string, string>();
  entries.forEach((entry, index) => {
    const path = ['clusters', index];
    const id = idOf(entry);
    const label = typeof id === 'string' && id !== '' ? `cluster ${id}: ` : `clusters[${index}]: `;
    const report = (sink: Finding[], issue: FieldIssue): void => {
      const field = formatPath(issue.path);
      sink.push({ line: at([...path, ...issue.path]), text: `${label}${field ? `${field}: ` : ''}${issue.message}` });
    };
    const result = validateWireCluster(entry, 'strict');
    result.issues.forEach((issue) => report(issues, issue));
    result.warnings.forEach((warning) => report(warnings, warning));
    numberWarnings.get(index)?.forEach((warning) => report(warnings, warning));

    if (typeof id === 'string') {
      const first = firstIndexById.get(id);
      if (first !== undefined) {
        issues.push({
          line: at([...path, 'id']),
          text: `${label}id: duplicate cluster id (first defined at line ${at(['clusters', first])})`,
        });
      } else {
        firstIndexById.set(id, index);
      }
    }
    const cluster = result.cluster;
    if (!cluster) return;
    const stack = `${cluster.infrastructureAccount}/${cluster.region}/${cluster.localId}`;
    const owner = stackOwners.get(stack);
    if (owner !== undefined && owner !== cluster.id) {
      issues.push({
        line: at([...path, 'local_id']),
        text: `${label}local_id: ${cluster.localId} is also the local_id of cluster ${owner} in ${cluster.infrastructureAccount} ${cluster.region}; both would own the same main stack`,
      });
    }
    stackOwners.set(stack, cluster.id);
    clusters.push(cluster);
  });
  return clusters;
}

/** The `id` field of a cluster document, if it is a mapping. */
function idOf(entry: unknown): unknown {
  return entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).id : undefined;
}

/**
 * Validate cluster documents a registry server returned (`where` names the source in messages, e.g.
 * `GET https://registry.example.org/kubernetes-clusters`). Returns the clusters and the issues, each
 * `cluster <id>: <field>: <message>`; the caller decides which error to raise.
 */
export function parseRegistryClusters(
  items: readonly unknown[],
  mode: WireMode = 'lenient',
): { clusters: Cluster[]; issues: string[] } {
  const clusters: Cluster[] = [];
  const issues: string[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const id = idOf(item);
    const label = typeof id === 'string' && id !== '' ? `cluster ${id}` : `items[${index}]`;
    const result = validateWireCluster(item, mode);
    for (const issue of result.issues)
      issues.push(`${label}: ${issue.path.length ? `${formatPath(issue.path)}: ` : ''}${issue.message}`);
    if (!result.cluster) return;
    if (seen.has(result.cluster.id)) {
      issues.push(`${label}: id: duplicate cluster id`);
      return;
    }
    seen.add(result.cluster.id);
    clusters.push(result.cluster);
  });
  return { clusters, issues };
}
