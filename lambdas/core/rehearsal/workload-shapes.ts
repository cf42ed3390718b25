import type { KubeObject } from '../../ports/kube-cluster';
import { isRecord } from '../config/plain-data';

/**
 * Live objects reduced to what scheduling and draining depend on, for the rehearsal's twin: a pod template keeps its
 * labels, its containers' names and requests, node selector, tolerations, affinity, topology spread, priority and
 * termination grace, and its PVC references; env, commands, images, config and secret references are dropped.
 */

type Json = Record<string, unknown>;

const POD_FIELDS = [
  'nodeSelector',
  'tolerations',
  'affinity',
  'topologySpreadConstraints',
  'terminationGracePeriodSeconds',
  'priorityClassName',
  'priority',
] as const;

function containers(list: unknown): Json[] {
  return (Array.isArray(list) ? list : []).filter(isRecord).map((c) => {
    const requests = isRecord(c.resources) && isRecord(c.resources.requests) ? c.resources.requests : undefined;
    return { name: String(c.name ?? 'main'), image: 'rehearsal', ...(requests ? { resources: { requests } } : {}) };
  });
}

function claimVolumes(list: unknown): Json[] {
  return (Array.isArray(list) ? list : [])
    .filter(isRecord)
    .filter((v) => isRecord(v.persistentVolumeClaim))
    .map((v) => ({ name: v.name, persistentVolumeClaim: { claimName: (v.persistentVolumeClaim as Json).claimName } }));
}

/** A pod spec with only the scheduling fields. */
export function schedulingSpec(spec: unknown): Json {
  const s = isRecord(spec) ? spec : {};
  const kept = Object.fromEntries(POD_FIELDS.filter((f) => s[f] !== undefined).map((f) => [f, s[f]]));
  const volumes = claimVolumes(s.volumes);
  const init = containers(s.initContainers);
  return {
    containers: containers(s.containers),
    ...(init.length ? { initContainers: init } : {}),
    ...(volumes.length ? { volumes } : {}),
    ...kept,
  };
}

function labelsOf(meta: unknown): Record<string, string> {
  return isRecord(meta) && isRecord(meta.labels) ? (meta.labels as Record<string, string>) : {};
}

function template(t: unknown): Json {
  const m = isRecord(t) ? t : {};
  return { metadata: { labels: labelsOf(m.metadata) }, spec: schedulingSpec(m.spec) };
}

/** A controller (Deployment, StatefulSet, DaemonSet, ReplicaSet) or a bare pod with only what the twin needs. */
export function schedulingShape(object: KubeObject): KubeObject {
  const metadata = {
    name: object.metadata.name,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    labels: { ...object.metadata.labels },
  };
  const spec = isRecord(object.spec) ? object.spec : {};
  if (object.kind === 'Pod') return { apiVersion: 'v1', kind: 'Pod', metadata, spec: schedulingSpec(spec) };
  if (object.kind === 'PodDisruptionBudget') {
    const { selector, minAvailable, maxUnavailable, unhealthyPodEvictionPolicy } = spec;
    const kept = { selector, minAvailable, maxUnavailable, unhealthyPodEvictionPolicy };
    return { apiVersion: object.apiVersion, kind: object.kind, metadata, spec: withoutUndefined(kept) };
  }
  const claims = Array.isArray(spec.volumeClaimTemplates)
    ? spec.volumeClaimTemplates.filter(isRecord).map((c) => ({
        metadata: { name: (c.metadata as Json | undefined)?.name },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }))
    : undefined;
  const kept = {
    replicas: spec.replicas,
    selector: spec.selector,
    serviceName: spec.serviceName,
    template: template(spec.template),
    volumeClaimTemplates: claims,
  };
  return { apiVersion: object.apiVersion, kind: object.kind, metadata, spec: withoutUndefined(kept) };
}

function withoutUndefined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * The scheduling constraints of a pod spec the twin's scheduler only approximates, named (reported as such). Required
 * node affinity, pod affinity and anti-affinity and DoNotSchedule spread are modelled (core/kube/scheduling-constraints.ts)
 * except: a namespaceSelector on namespace labels (read as every namespace), and a spread's nodeTaintsPolicy Honor or
 * nodeAffinityPolicy Ignore (read as their defaults).
 */
export function hardConstraints(spec: unknown): string[] {
  const s = isRecord(spec) ? spec : {};
  const affinity = isRecord(s.affinity) ? s.affinity : {};
  const found: string[] = [];
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const part = isRecord(affinity[kind]) ? affinity[kind] : {};
    const terms = Array.isArray(part.requiredDuringSchedulingIgnoredDuringExecution)
      ? part.requiredDuringSchedulingIgnoredDuringExecution.filter(isRecord)
      : [];
    if (terms.some((t) => isRecord(t.namespaceSelector) && Object.keys(t.namespaceSelector).length))
      found.push(`${kind} namespaceSelector (read as every namespace)`);
  }
  const spread = Array.isArray(s.topologySpreadConstraints) ? s.topologySpreadConstraints.filter(isRecord) : [];
  for (const c of spread)
    if (
      c.whenUnsatisfiable !== 'ScheduleAnyway' &&
      (c.nodeTaintsPolicy === 'Honor' || c.nodeAffinityPolicy === 'Ignore')
    )
      found.push(`topology spread over ${String(c.topologyKey)} with a node policy other than the default`);
  return found;
}
