import type { LabelSelector } from '../../ports/kube-cluster';

/** Kubernetes LabelSelector semantics (matchLabels AND matchExpressions). An empty selector matches everything. */
export function matchesSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  for (const expression of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, expression.key);
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
        if (!has || !values.includes(labels[expression.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[expression.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
