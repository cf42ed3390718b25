import type { Cluster, NodePool } from '../model/cluster';
import type { Values } from './pool-values';
import { templateContext } from './template-context';

/**
 * `templateContext` shaped as the TemplateEngine port's `context` (a plain record): `Cluster`, `Values`
 * and, for node-pool templates, `NodePool`.
 */
export function renderContext(cluster: Cluster, values?: Values, pool?: NodePool): Readonly<Record<string, unknown>> {
  return { ...templateContext(cluster, values ? { ...values } : undefined, pool) };
}
