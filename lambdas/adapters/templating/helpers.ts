/**
 * CLM's template functions as helpers of the template interpreter. Each entry is thin: it checks the argument
 * count and maps to a pure function in lambdas/core/template-helpers/. Errors are reported with the template
 * path, the line and the helper name. Built-ins (`if`, `unless`, `each`, `with`, `lookup`) live in the
 * interpreter.
 *
 * Go template → handlebars, for porting CLM configs:
 *   {{ .Cluster.ConfigItems.x }}                   → {{Cluster.ConfigItems.x}}
 *   {{ if eq .Cluster.Environment "production" }}  → {{#if (eq Cluster.Environment "production")}}
 *   {{ else }} / {{ end }}                         → {{else}} / {{/if}}
 *   {{ if not (index .NodePool.ConfigItems "t") }} → {{#unless (index NodePool.ConfigItems "t")}}…{{/unless}}
 *   {{ .Values.x | base64 }}                       → {{base64 Values.x}}   (no pipes: the value is the last argument)
 *   {{ range $i, $p := .Cluster.NodePools }}       → {{#each Cluster.NodePools as |p i|}}…{{/each}}
 *   {{ range split .Cluster.ConfigItems.x "," }}   → {{#each (split Cluster.ConfigItems.x ",")}}{{this}}{{/each}}
 *   {{ $.Cluster.ID }} inside range                → {{@root.Cluster.ID}}
 *   {{ with $x := … }}                             → {{#with (…) as |x|}}…{{/with}}
 *   {{ $x := … }} / {{ $x = … }}                   → {{let x=(…)}} / {{set x=(…)}}
 *   {{ define "n" }}…{{ end }} / {{ template "n" . }} → {{#*inline "n"}}…{{/inline}} / {{> n this}}
 *   {{- x -}} (trim whitespace)                    → {{~x~}}; a block tag alone on its line leaves no blank line
 *   {{ printf "%s-%d" .a .b }}                     → {{printf "%s-%d" a b}}
 *   {{ index .NodePool.ConfigItems "taints" }}     → {{index NodePool.ConfigItems "taints"}}   ("" when missing)
 * `clm migrate` does all of this (core/migrate) and marks converted files with the Go-semantics pragma
 * (core/render/go-semantics-pragma.ts), under which the differences below disappear.
 * Differences to keep in mind: values print as JavaScript does (a list prints `a,b`, Go prints `[a b]`; use
 * `join`); `{{#if}}` follows handlebars (0, "", null and [] are false, an empty map is true), while the
 * helpers `and`, `or` and `not` follow Go (an empty map is false).
 */
import { posix } from 'node:path';
import { expectString, helperError } from '../../core/template-helpers/args';
import * as collections from '../../core/template-helpers/collections';
import * as cryptoDocs from '../../core/template-helpers/crypto-docs';
import { base64, base64Decode, sha256Hex } from '../../core/template-helpers/encoding';
import { print, printf, println } from '../../core/template-helpers/format';
import * as kube from '../../core/template-helpers/kube';
import * as logic from '../../core/template-helpers/logic';
import * as network from '../../core/template-helpers/network';
import * as quantities from '../../core/template-helpers/quantities';
import * as strings from '../../core/template-helpers/strings';
import type { InstanceTypeInfo } from '../../ports/template-engine';
import { TemplateRenderError, TransientApiError, isRetryable } from '../../shared/errors';
import { PENDING } from './cloud-lookup-cache';
import type { RenderScope } from './render-scope';
import type { InlineHelper } from './template-interpreter';

interface HelperSpec {
  readonly min: number;
  /** Undefined: variadic. */
  readonly max?: number;
  readonly fn: (scope: RenderScope, args: unknown[]) => unknown;
}

type Pure = (...args: never[]) => unknown;

function call(fn: Pure): HelperSpec['fn'] {
  return (_scope, args) => (fn as (...a: unknown[]) => unknown)(...args);
}
/** A helper that needs nothing but its arguments, exactly as many as the function declares. */
const pure = (fn: Pure): HelperSpec => ({ min: fn.length, max: fn.length, fn: call(fn) });
/** A pure helper taking `min` or more arguments. */
const variadic = (fn: Pure, min = 0): HelperSpec => ({ min, fn: call(fn) });

export const CLM_HELPERS: Readonly<Record<string, HelperSpec>> = {
  // encoding
  base64: pure(base64),
  base64Decode: pure(base64Decode),
  sha256: pure(sha256Hex),
  manifestHash: { min: 1, max: 1, fn: manifestHash },
  // strings
  split: pure(strings.split),
  join: pure(strings.join),
  indent: pure(strings.indent),
  hasPrefix: pure(strings.hasPrefix),
  hasSuffix: pure(strings.hasSuffix),
  awsValidID: pure(strings.awsValidID),
  indexedList: pure(strings.indexedList),
  mountUnitName: pure(strings.mountUnitName),
  accountID: pure(strings.accountID),
  getAWSAccountID: pure(strings.getAWSAccountID),
  azID: pure(strings.azID),
  parseInt64: pure(strings.parseInt64),
  print: variadic(print),
  printf: variadic(printf, 1),
  println: variadic(println),
  // collections
  dict: variadic(collections.dict),
  list: variadic(collections.list),
  append: variadic(collections.append, 2),
  index: variadic(collections.index, 1),
  len: pure(collections.len),
  // logic
  eq: variadic(logic.eq, 2),
  ne: pure(logic.ne),
  lt: pure(logic.lt),
  le: pure(logic.le),
  gt: pure(logic.gt),
  ge: pure(logic.ge),
  and: variadic(logic.and, 1),
  or: variadic(logic.or, 1),
  not: pure(logic.not),
  // network
  portRanges: pure(network.portRanges),
  sgIngressRanges: pure(network.sgIngressRanges),
  splitHostPort: pure(network.splitHostPort),
  extractEndpointHosts: pure(network.extractEndpointHosts),
  nodeCIDRMaxNodes: pure(network.nodeCIDRMaxNodes),
  nodeCIDRMaxNodesPodCIDR: pure(network.nodeCIDRMaxNodesPodCIDR),
  nodeCIDRMaxPods: pure(network.nodeCIDRMaxPods),
  nthAddressFromCIDR: pure(network.nthAddressFromCIDR),
  stupsNATSubnets: pure(network.stupsNATSubnets),
  // quantities
  sumQuantities: variadic(quantities.sumQuantities),
  scaleQuantity: pure(quantities.scaleQuantity),
  kubernetesSizeToKiloBytes: pure(quantities.kubernetesSizeToKiloBytes),
  // node pools
  asgSize: pure(kube.asgSize),
  azCount: pure(kube.azCount),
  zoneDistributedNodePoolGroups: pure(kube.zoneDistributedNodePoolGroups),
  nodeLifeCycleProviderPerNodePoolGroup: pure(kube.nodeLifeCycleProviderPerNodePoolGroup),
  // keys and certificates
  publicKey: pure(cryptoDocs.publicKey),
  certificateExpiry: pure(cryptoDocs.certificateExpiry),
  generateJWKSDocument: pure(cryptoDocs.generateJWKSDocument),
  generateOIDCDiscoveryDocument: pure(cryptoDocs.generateOIDCDiscoveryDocument),
  // through the CloudLookups port
  amiID: { min: 2, max: 2, fn: amiID },
  instanceTypeCPUQuantity: {
    min: 1,
    max: 1,
    fn: (scope, [type]) =>
      instanceTypeQuantity(scope, 'instanceTypeCPUQuantity', type, (info) => quantities.cpuQuantity(info.vcpu)),
  },
  instanceTypeMemoryQuantity: {
    min: 1,
    max: 1,
    fn: (scope, [type]) =>
      instanceTypeQuantity(scope, 'instanceTypeMemoryQuantity', type, (info) =>
        quantities.memoryQuantityFromMiB(info.memoryMiB),
      ),
  },
};

/*
 * Lookup helpers return a placeholder while their value is unknown (the engine renders again once it is).
 * The placeholders are well-formed (an AMI id, a quantity), so helpers fed with them in the same pass still work;
 * the AMI placeholder carries a mark, and a lookup whose arguments carry it waits for the next pass.
 */
const PLACEHOLDER_MARK = '\u0000pending';
const AMI_PLACEHOLDER = `ami-00000000000000000${PLACEHOLDER_MARK}`;
const PLACEHOLDER_INSTANCE: InstanceTypeInfo = {
  instanceType: 'pending',
  vcpu: 1,
  memoryMiB: 1024,
  architecture: 'amd64',
  instanceStorageDevices: 0,
  instanceStorageDeviceSizeGB: 0,
};

function amiID(scope: RenderScope, [name, owner]: unknown[]): string {
  const imageName = expectString(name, 'image name');
  const ownerId = expectString(owner, 'image owner');
  // Arguments made from a placeholder: wait for the real value instead of asking AWS about a made-up name.
  if (imageName.includes(PLACEHOLDER_MARK) || ownerId.includes(PLACEHOLDER_MARK)) return AMI_PLACEHOLDER;
  const value = scope.lookups.read(
    'amiID',
    {
      key: `amiId\u0000${imageName}\u0000${ownerId}`,
      label: `amiID(${JSON.stringify(imageName)}, ${JSON.stringify(ownerId)})`,
      run: (lookups) => lookups.amiId(imageName, ownerId),
    },
    scope.round,
  );
  return value === PENDING ? AMI_PLACEHOLDER : expectString(value, 'the AMI id found');
}

function instanceTypeQuantity(
  scope: RenderScope,
  helper: string,
  type: unknown,
  pick: (info: InstanceTypeInfo) => string,
): string {
  const instanceType = expectString(type, 'instance type');
  if (instanceType.includes(PLACEHOLDER_MARK)) return pick(PLACEHOLDER_INSTANCE);
  const value = scope.lookups.read(
    helper,
    {
      key: `instanceType\u0000${instanceType}`,
      label: `${helper}(${JSON.stringify(instanceType)})`,
      run: (lookups) => lookups.instanceType(instanceType),
    },
    scope.round,
  );
  return pick(value === PENDING ? PLACEHOLDER_INSTANCE : (value as InstanceTypeInfo));
}

/** `manifestHash "relative/path"`: hex SHA-256 of the sibling template rendered with the same context. */
function manifestHash(scope: RenderScope, [relative]: unknown[]): string {
  const rel = expectString(relative, 'manifestHash path');
  if (scope.computingManifestHash) {
    throw helperError(`manifestHash is not reentrant: ${scope.file.path} is itself rendered for manifestHash`);
  }
  const sibling = scope.request.sibling?.(rel);
  if (!sibling) {
    const wanted = posix.normalize(posix.join(posix.dirname(scope.file.path), rel));
    throw helperError(`sibling template ${wanted} (from "${rel}") not found for ${scope.file.path}`);
  }
  const output = scope.renderNested(sibling, { ...scope, file: sibling, computingManifestHash: true });
  return sha256Hex(output);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function arityError(spec: HelperSpec, got: number): TemplateRenderError {
  const wanted =
    spec.max === undefined
      ? `at least ${plural(spec.min, 'argument')}`
      : spec.min === spec.max
        ? plural(spec.min, 'argument')
        : `${spec.min} to ${spec.max} arguments`;
  return helperError(`wants ${wanted}, got ${got}`);
}

const SPECS: ReadonlyMap<string, HelperSpec> = new Map(Object.entries(CLM_HELPERS));

/** Calls a CLM helper: checks the call, and reports any error with the template path, the line and the helper's name. */
function callHelper(
  name: string,
  spec: HelperSpec,
  scope: RenderScope,
  args: unknown[],
  hash: Record<string, unknown>,
  line: number,
): unknown {
  try {
    if (Object.keys(hash).length > 0) throw helperError('takes no key=value arguments');
    if (args.length < spec.min || (spec.max !== undefined && args.length > spec.max))
      throw arityError(spec, args.length);
    return spec.fn(scope, args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const located = message.startsWith(name) ? message : `${name}: ${message}`;
    const options = { location: { file: scope.file.path, line }, cause: error };
    throw isRetryable(error) ? new TransientApiError(located, options) : new TemplateRenderError(located, options);
  }
}

/** The CLM helper `name` bound to a render, or undefined when there is no such helper. */
export function clmHelper(name: string, scope: RenderScope): InlineHelper | undefined {
  const spec = SPECS.get(name);
  return spec && ((args, hash, line) => callHelper(name, spec, scope, args, hash, line));
}
