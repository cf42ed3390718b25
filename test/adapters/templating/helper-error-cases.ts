/**
 * How each CLM template helper fails: one-line templates by helper name, each with a fragment of the message, which
 * must also name the helper (helpers.test.ts renders them against its CONTEXT through the real engine).
 */
export const HELPER_ERROR_CASES: Record<string, [template: string, message: string][]> = {
  base64: [
    ['{{base64 Cluster.NodePools}}', 'base64 input must be a string, got list of 3'],
    ['{{base64 "a" "b"}}', 'wants 1 argument, got 2'],
  ],
  base64Decode: [
    ['{{base64Decode "not base64!"}}', 'illegal base64 data'],
    ['{{base64Decode "aGVsbG8"}}', 'illegal base64 data'],
  ],
  sha256: [['{{sha256 1}}', 'sha256 input must be a string, got number 1']],
  manifestHash: [
    [
      '{{manifestHash "other.yaml"}}',
      'sibling template main/cluster/manifests/01-test/other.yaml (from "other.yaml") not found for main/cluster/manifests/01-test/foo.yaml',
    ],
  ],
  split: [['{{split "a"}}', 'wants 2 arguments, got 1']],
  join: [['{{join 1 (list "a")}}', 'join separator must be a string']],
  indent: [
    ['{{indent "2" "a"}}', 'indent width must be an integer'],
    ['{{indent -1 "a"}}', 'must not be negative'],
  ],
  hasPrefix: [['{{hasPrefix "a"}}', 'wants 2 arguments, got 1']],
  hasSuffix: [['{{hasSuffix 1 "a"}}', 'hasSuffix input must be a string']],
  awsValidID: [['{{awsValidID null}}', 'awsValidID input must be a string, got null']],
  indexedList: [
    ['{{indexedList "x" -42}}', 'expecting non-negative integer, got: -42'],
    ['{{indexedList 1 3}}', 'indexedList template must be a string'],
  ],
  mountUnitName: [['{{mountUnitName "var/lib"}}', 'not an absolute path: var/lib']],
  accountID: [['{{accountID Cluster.ID}}', 'invalid account (expected type:id): aws:123456789012:eu-central-1:kube-1']],
  getAWSAccountID: [['{{getAWSAccountID "nocolon"}}', 'has no ":"']],
  azID: [['{{azID 1}}', 'azID input must be a string']],
  azCount: [['{{azCount "x"}}', 'azCount subnets must be a map']],
  asgSize: [
    ['{{asgSize 10 3}}', 'pool size must be an exact multiple of 3'],
    ['{{asgSize 10 0}}', 'ASG count must not be 0'],
    ['{{asgSize "10" 2}}', 'pool size must be an integer'],
  ],
  parseInt64: [
    ['{{parseInt64 "foobar"}}', 'invalid syntax'],
    ['{{parseInt64 "9223372036854775808"}}', 'value out of range'],
    ['{{parseInt64 "12 "}}', 'invalid syntax'],
  ],
  print: [],
  println: [],
  printf: [
    ['{{printf "%d" "x"}}', '%d needs an integer, got string "x"'],
    ['{{printf "%s %s" "x"}}', 'more verbs than arguments'],
    ['{{printf "%s" "x" "y"}}', 'uses 1 of 2 arguments'],
    ['{{printf "%z" 1}}', 'printf verb %z is not supported'],
  ],
  dict: [
    ['{{dict "a"}}', 'dict: invalid number of arguments: 1'],
    ['{{dict 1 2}}', 'dict: key argument 0 must be string'],
    ['{{dict "a" 1 "a" 2}}', 'dict: duplicate key a'],
    ['{{dict}}', 'dict: invalid number of arguments: 0'],
  ],
  list: [],
  append: [
    ['{{append "x" "y"}}', 'append list must be a list of strings'],
    ['{{append (list 1) "y"}}', 'append list[0] must be a string'],
  ],
  index: [
    ['{{index (split "a,b" ",") 5}}', 'index out of range: 5 (length 2)'],
    ['{{index Cluster.ConfigItems 1}}', 'cannot index a map with number 1'],
    ['{{index (list "a") "0"}}', 'cannot index a list with string "0"'],
    ['{{index true 1}}', 'cannot index boolean true'],
  ],
  len: [
    ['{{len 5}}', 'len of number 5'],
    ['{{len null}}', 'len of null'],
  ],
  eq: [
    ['{{eq "1" 1}}', 'incompatible types for comparison: string "1" and number 1'],
    ['{{eq "a"}}', 'wants at least 2 arguments, got 1'],
    ['{{eq Cluster.NodePools "x"}}', 'cannot compare list of 3'],
  ],
  ne: [['{{ne 1 "1"}}', 'incompatible types for comparison']],
  lt: [['{{lt 1 "2"}}', 'cannot order number 1 and string "2"']],
  le: [['{{le true false}}', 'cannot order boolean true and boolean false']],
  gt: [['{{gt null 1}}', 'cannot order null and number 1']],
  ge: [['{{ge 1}}', 'wants 2 arguments, got 1']],
  and: [['{{and}}', 'wants at least 1 argument, got 0']],
  or: [['{{or}}', 'wants at least 1 argument, got 0']],
  not: [['{{not 1 2}}', 'wants 1 argument, got 2']],
  portRanges: [
    ['{{portRanges "30-20"}}', 'port range 30-20 is invalid'],
    ['{{portRanges "0-1-2"}}', 'invalid input for portRange: 0-1-2'],
  ],
  sgIngressRanges: [
    ['{{sgIngressRanges "10.0.0:0-1"}}', 'invalid CIDR address: 10.0.0'],
    ['{{sgIngressRanges "0.0.0.0/0:0-200000"}}', 'port range 0-200000 is invalid'],
  ],
  splitHostPort: [['{{splitHostPort "a:b:c"}}', 'too many colons in address']],
  extractEndpointHosts: [['{{extractEndpointHosts 1}}', 'extractEndpointHosts input must be a string']],
  nodeCIDRMaxNodes: [['{{nodeCIDRMaxNodes 29 0}}', 'invalid value for maskSize: 29']],
  nodeCIDRMaxNodesPodCIDR: [['{{nodeCIDRMaxNodesPodCIDR 13 24 0}}', 'invalid for podCIDRMaskSize: 13']],
  nodeCIDRMaxPods: [['{{nodeCIDRMaxPods 19 0}}', 'invalid value for maskSize: 19']],
  nthAddressFromCIDR: [
    ['{{nthAddressFromCIDR "172.20.0.0/100" 50}}', 'invalid CIDR address: 172.20.0.0/100'],
    ['{{nthAddressFromCIDR "172.20.0.0/16" "5"}}', 'n must be an integer'],
  ],
  stupsNATSubnets: [
    ['{{stupsNATSubnets "172.31.0.0/25"}}', 'invalid subnet, expecting at least /24'],
    ['{{stupsNATSubnets "2001::/19"}}', 'only ipv4 subnets are supported'],
  ],
  sumQuantities: [['{{sumQuantities "1" "x"}}', 'quantities must match the regular expression']],
  scaleQuantity: [
    ['{{scaleQuantity "1.0" -1.0}}', 'scaling factor must be greater than 0.0'],
    ['{{scaleQuantity "InvalidQuantity" 1}}', 'failed to parse InvalidQuantity as k8sresource.Quantity'],
  ],
  kubernetesSizeToKiloBytes: [['{{kubernetesSizeToKiloBytes "1.5" 1}}', 'unexpected size for quantity: 1.5']],
  zoneDistributedNodePoolGroups: [
    [
      '{{zoneDistributedNodePoolGroups Cluster.ConfigItems}}',
      'needs a list of node pools (e.g. Cluster.NodePools), got map',
    ],
  ],
  nodeLifeCycleProviderPerNodePoolGroup: [
    ['{{nodeLifeCycleProviderPerNodePoolGroup (list "a")}}', 'item 0 is not a node pool'],
  ],
  publicKey: [
    ['{{publicKey "not a key"}}', 'no PEM data found'],
    [
      '{{publicKey "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----"}}',
      'not a PKCS#1 RSA private key',
    ],
  ],
  certificateExpiry: [
    [
      '{{certificateExpiry "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"}}',
      'not an X.509 certificate',
    ],
  ],
  generateJWKSDocument: [
    ['{{generateJWKSDocument "x"}}', 'no PEM data found'],
    [
      '{{generateJWKSDocument "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"}}',
      'failed to parse public key',
    ],
  ],
  generateOIDCDiscoveryDocument: [['{{generateOIDCDiscoveryDocument}}', 'wants 1 argument, got 0']],
  amiID: [['{{amiID "a" "b"}}', 'amiID needs AWS access; pass --values or run with --simulate']],
  instanceTypeCPUQuantity: [
    [
      '{{instanceTypeCPUQuantity "m5.large"}}',
      'instanceTypeCPUQuantity needs AWS access; pass --values or run with --simulate',
    ],
  ],
  instanceTypeMemoryQuantity: [
    [
      '{{instanceTypeMemoryQuantity "m5.large"}}',
      'instanceTypeMemoryQuantity needs AWS access; pass --values or run with --simulate',
    ],
  ],
};
