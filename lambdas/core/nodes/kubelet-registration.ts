/**
 * How a node registers itself: the labels and taints its kubelet starts with. A node's user data sets them in its
 * environment file (`NODE_LABELS=k=v,…` → `--node-labels`, `NODE_TAINTS=` or kubernetes-on-aws's `NODEPOOL_TAINTS=`
 * `key[=value]:Effect,…` → `--register-with-taints`), and the kubelet refuses to start on what it cannot accept:
 * a malformed label or taint, or a label in the `kubernetes.io`/`k8s.io` namespaces outside the set a kubelet may
 * set on its own Node (since Kubernetes 1.16; the NodeRestriction admission plugin enforces the same set). Such a
 * node never becomes Ready; a role label like `node-role.kubernetes.io/…` must be set by something else after it
 * registers. A bare key (`key`, no `=`) is read as `key=`: the kubelet's own flag parser wants `key=value`, but
 * kubernetes-on-aws's masters set one (`node.kubernetes.io/exclude-from-external-load-balancers`) and boot, so its
 * image passes them on as empty values.
 */

export interface RegisteredTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export type KubeletRegistration =
  | {
      readonly ok: true;
      /** The user data names none of the variables: the image decides (the simulator keeps its own defaults). */
      readonly declared: boolean;
      readonly labels: Readonly<Record<string, string>>;
      readonly taints: readonly RegisteredTaint[] | undefined;
    }
  | { readonly ok: false; readonly reason: string };

/** The `NotReady` condition reason of a node whose kubelet refused its flags. */
export const KUBELET_REFUSED_REASON = 'KubeletFailedToStart';

const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
const NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** The kubernetes.io / k8s.io labels a kubelet may set itself (beyond the kubelet.* and node.* prefixes). */
const SELF_LABELS = new Set([
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/os',
  'node.kubernetes.io/instance-type',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
]);
const SELF_PREFIXES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** The registration the user data's environment lines ask for, or why the kubelet would refuse it. */
export function kubeletRegistration(userData: string): KubeletRegistration {
  const labelsLine = envValue(userData, 'NODE_LABELS');
  const taintLines = [envValue(userData, 'NODE_TAINTS'), envValue(userData, 'NODEPOOL_TAINTS')];
  const declared = labelsLine !== undefined || taintLines.some((line) => line !== undefined);
  const labels: Record<string, string> = {};
  for (const item of splitList(labelsLine)) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    const value = eq < 0 ? '' : item.slice(eq + 1);
    const bad = keyProblem(key) ?? (VALUE.test(value) ? undefined : `value "${value}" is not a valid label value`);
    if (bad) return refused(`--node-labels ${item}: ${bad}`);
    if (!selfLabelAllowed(key))
      return refused(
        `--node-labels ${item}: a kubelet may not set labels in the kubernetes.io/k8s.io namespaces except ` +
          `kubelet.kubernetes.io/*, node.kubernetes.io/* and the well-known node labels; set it after the node registers`,
      );
    labels[key] = value;
  }
  const taints: RegisteredTaint[] = [];
  for (const item of taintLines.flatMap(splitList)) {
    const taint = parseTaint(item);
    if (typeof taint === 'string') return refused(`--register-with-taints ${item}: ${taint}`);
    taints.push(taint);
  }
  const anyTaintLine = taintLines.some((line) => line !== undefined);
  return { ok: true, declared, labels, taints: anyTaintLine ? taints : undefined };
}

const refused = (reason: string): KubeletRegistration => ({ ok: false, reason: `kubelet refused to start: ${reason}` });

/** `NAME=value` of an environment line (indentation allowed, as in a cloud-config `write_files` block), last wins. */
function envValue(text: string, name: string): string | undefined {
  let found: string | undefined;
  for (const match of text.matchAll(new RegExp(`^[ \\t]*${name}=(.*)$`, 'gm')))
    found = match[1]!.trim().replace(/^"(.*)"$/, '$1');
  return found;
}

const splitList = (line: string | undefined): string[] =>
  (line ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

function keyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `key "${key}" has more than one "/"`;
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]!];
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    return `key prefix "${prefix}" is not a DNS subdomain`;
  return NAME.test(name!) ? undefined : `key name "${name}" is not a valid label name`;
}

function selfLabelAllowed(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return true;
  const namespace = key.slice(0, slash);
  const kubernetes = ['kubernetes.io', 'k8s.io'].some((ns) => namespace === ns || namespace.endsWith(`.${ns}`));
  if (!kubernetes || SELF_LABELS.has(key)) return true;
  return SELF_PREFIXES.some((prefix) => namespace === prefix || namespace.endsWith(`.${prefix}`));
}

function parseTaint(item: string): RegisteredTaint | string {
  const colon = item.lastIndexOf(':');
  if (colon < 0) return 'a taint is key[=value]:Effect';
  const effect = item.slice(colon + 1);
  if (!EFFECTS.has(effect)) return `effect "${effect}" is not NoSchedule, PreferNoSchedule or NoExecute`;
  const spec = item.slice(0, colon);
  const eq = spec.indexOf('=');
  const key = eq < 0 ? spec : spec.slice(0, eq);
  const value = eq < 0 ? undefined : spec.slice(eq + 1);
  const bad = keyProblem(key) ?? (value === undefined || VALUE.test(value) ? undefined : `value "${value}" is invalid`);
  if (bad) return bad;
  return { key, ...(value ? { value } : {}), effect: effect as RegisteredTaint['effect'] };
}
