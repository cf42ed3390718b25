/**
 * The functions a CLM template can call (Go's built-ins and CLM's funcMap, reference/clm-behaviour.md §4.2 and
 * §4.4) and how `clm migrate` treats each. Every supported one exists in our engine under the same name with
 * the same argument order (test/core/migrate ties this list to the engine's helpers), so a call converts
 * word for word: `{{ f a b }}` → `{{f a b}}`, `a | f b` → `(f b a)`.
 */

/** Same name, same arguments. `and`/`or` evaluate lazily, as Go's do. */
export const SUPPORTED_FUNCTIONS: ReadonlySet<string> = new Set([
  // Go built-ins
  'and',
  'or',
  'not',
  'len',
  'index',
  'print',
  'printf',
  'println',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  // CLM (provisioner/template.go) and Sprig's join and indent
  'getAWSAccountID',
  'base64',
  'base64Decode',
  'manifestHash',
  'sha256',
  'asgSize',
  'azID',
  'azCount',
  'split',
  'join',
  'mountUnitName',
  'accountID',
  'portRanges',
  'sgIngressRanges',
  'splitHostPort',
  'extractEndpointHosts',
  'publicKey',
  'stupsNATSubnets',
  'amiID',
  'nodeCIDRMaxNodes',
  'nodeCIDRMaxNodesPodCIDR',
  'nodeCIDRMaxPods',
  'nthAddressFromCIDR',
  'parseInt64',
  'generateJWKSDocument',
  'generateOIDCDiscoveryDocument',
  'hasPrefix',
  'hasSuffix',
  'kubernetesSizeToKiloBytes',
  'indexedList',
  'zoneDistributedNodePoolGroups',
  'nodeLifeCycleProviderPerNodePoolGroup',
  'certificateExpiry',
  'sumQuantities',
  'awsValidID',
  'indent',
  'dict',
  'list',
  'append',
  'scaleQuantity',
  'instanceTypeCPUQuantity',
  'instanceTypeMemoryQuantity',
]);

/** Go built-ins the engine does not offer, with the reason given in the report. */
export const UNSUPPORTED_FUNCTIONS: Readonly<Record<string, string>> = {
  slice: "Go's slice has no equivalent helper",
  html: "Go's html escaping has no equivalent helper",
  js: "Go's js escaping has no equivalent helper",
  urlquery: "Go's urlquery escaping has no equivalent helper",
  call: "Go's call (calling a function value) has no equivalent",
};

/**
 * Names the engine reads as something else when they start a path (helpers, built-in blocks, literals): a
 * field or variable with such a name is written `this.name` or renamed.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  ...SUPPORTED_FUNCTIONS,
  'if',
  'unless',
  'each',
  'with',
  'let',
  'set',
  'lookup',
  'log',
  'else',
  'this',
  'true',
  'false',
  'null',
  'undefined',
  'as',
]);
