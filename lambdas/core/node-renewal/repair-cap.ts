/**
 * The cap on node repair (`node_repair_max_unhealthy`, per pool and per cluster), as Cluster API's MachineHealthCheck
 * `maxUnhealthy`: when more nodes are unhealthy at once than the cap allows, nothing is repaired — a zone outage or a
 * broken network is not fixed by replacing half the fleet, and the replacements would fail the same way. Pure.
 */

/** `40%` of the nodes, or a count. */
export type RepairCap = { readonly percent: number } | { readonly count: number };

export const DEFAULT_REPAIR_CAP: RepairCap = { percent: 40 };

/** `40%` or `3`; undefined when neither. */
export function parseRepairCap(text: string): RepairCap | undefined {
  const trimmed = text.trim();
  const percent = /^(\d{1,3})%$/.exec(trimmed);
  if (percent) {
    const value = Number(percent[1]);
    return value <= 100 ? { percent: value } : undefined;
  }
  return /^\d+$/.test(trimmed) ? { count: Number(trimmed) } : undefined;
}

/**
 * How many unhealthy nodes of `total` the cap allows. A percentage rounds down but allows at least one node (a single
 * failed node is never a mass failure: a pool of two with 40% still repairs one); a count is taken as it is (0 turns
 * repair off for the scope without turning off detection).
 */
export function allowedUnhealthy(cap: RepairCap, total: number): number {
  if ('count' in cap) return cap.count;
  return Math.max(1, Math.floor((total * cap.percent) / 100));
}

export function describeCap(cap: RepairCap): string {
  return 'count' in cap ? String(cap.count) : `${cap.percent}%`;
}

export interface CapScope {
  /** `pool default`, `cluster`. */
  readonly name: string;
  readonly unhealthy: number;
  readonly total: number;
  readonly cap: RepairCap;
}

/** Undefined when every scope is within its cap; else why nothing is repaired, naming the scope and the figures. */
export function capExceeded(scopes: readonly CapScope[]): string | undefined {
  for (const scope of scopes) {
    const allowed = allowedUnhealthy(scope.cap, scope.total);
    if (scope.unhealthy > allowed)
      return `${scope.unhealthy} of ${scope.total} nodes of the ${scope.name} are unhealthy, more than node_repair_max_unhealthy ${describeCap(scope.cap)} allows (${allowed}): nothing is repaired until fewer are`;
  }
  return undefined;
}
