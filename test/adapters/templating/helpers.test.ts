/**
 * One-line templates per helper, through the real engine (as CLM's template_test.go does): what each helper
 * gives, and that its error cases fail the render with the path, the line and the helper's name.
 */
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import { CLM_HELPERS } from '../../../lambdas/adapters/templating/helpers';
import { TemplateRenderError } from '../../../lambdas/shared/errors';

const PATH = 'main/cluster/manifests/01-test/foo.yaml';

const CONTEXT = {
  Cluster: {
    ID: 'aws:123456789012:eu-central-1:kube-1',
    InfrastructureAccount: 'aws:123456789012',
    Environment: 'production',
    ConfigItems: { list: 'a,b,c', empty: '', number: '42', taints: 'dedicated=x:NoSchedule' },
    NodePools: [
      { Name: 'default', Profile: 'worker-splitaz', ConfigItems: {}, MinSize: 6, MaxSize: 9 },
      {
        Name: 'db',
        Profile: 'worker-splitaz',
        ConfigItems: { labels: 'dedicated=db', taints: 'dedicated=db:NoSchedule' },
        MinSize: 0,
        MaxSize: 3,
      },
      { Name: 'master', Profile: 'master-default', ConfigItems: {}, MinSize: 1, MaxSize: 1 },
    ],
  },
  Values: { subnets: { 'eu-central-1a': 'subnet-a', 'eu-central-1b': 'subnet-b', '*': 'subnet-a,subnet-b' } },
  NodePool: null,
};

const engine = new HandlebarsTemplateEngine();
const render = (content: string): Promise<string> =>
  engine.render({ template: { path: PATH, content }, context: CONTEXT });

/** Renders and returns the TemplateRenderError it must throw. */
async function renderError(content: string): Promise<TemplateRenderError> {
  const error = await render(content).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TemplateRenderError))
    throw new Error(`expected a TemplateRenderError for ${content}, got ${String(error)}`);
  return error;
}

const OK: Record<string, [template: string, expected: string][]> = {
  base64: [
    ['{{base64 "hello"}}', 'aGVsbG8='],
    ['{{base64 ""}}', ''],
  ],
  base64Decode: [
    ['{{base64Decode "aGVsbG8="}}', 'hello'],
    ['{{base64Decode "aGVs\nbG8="}}', 'hello'],
  ],
  sha256: [['{{sha256 "abc"}}', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad']],
  split: [
    ['{{#each (split Cluster.ConfigItems.list ",")}}{{@index}}={{this}};{{/each}}', '0=a;1=b;2=c;'],
    ['{{#each (split Cluster.ConfigItems.empty ",")}}x{{/each}}', ''],
    ['{{len (split "foo" ",")}}', '1'],
  ],
  join: [
    ['{{join "-" (split Cluster.ConfigItems.list ",")}}', 'a-b-c'],
    ['{{join ", " (list 1 "a" true)}}', '1, a, true'],
    ['{{join "," "single"}}', 'single'],
  ],
  indent: [
    ['{{indent 2 "a\nb"}}', '  a\n  b'],
    ['{{indent 0 "a"}}', 'a'],
  ],
  hasPrefix: [['{{hasPrefix "kube-1" "kube"}} {{hasPrefix "kube-1" "x"}}', 'true false']],
  hasSuffix: [['{{hasSuffix "kube-1" "-1"}} {{hasSuffix "kube-1" "x"}}', 'true false']],
  awsValidID: [['{{awsValidID Cluster.ID}}', 'aws__123456789012__eu-central-1__kube-1']],
  indexedList: [
    ['{{indexedList "foo.bar$.baz" 3}}', 'foo.bar0.baz,foo.bar1.baz,foo.bar2.baz'],
    ['{{indexedList "foo$.bar$" (parseInt64 "2")}}', 'foo0.bar0,foo1.bar1'],
    ['{{indexedList "" 3}}', ',,'],
    ['{{indexedList "x$" 0}}', ''],
  ],
  mountUnitName: [['{{mountUnitName "/var/lib/docker"}}', 'var-lib-docker']],
  accountID: [['{{accountID Cluster.InfrastructureAccount}}', '123456789012']],
  getAWSAccountID: [['{{getAWSAccountID Cluster.ID}}', '123456789012']],
  azID: [
    ['{{azID "eu-central-1a"}}', '1a'],
    ['{{azID "nodash"}}', 'nodash'],
  ],
  azCount: [['{{azCount Values.subnets}}', '2']],
  asgSize: [
    ['{{asgSize 9 3}}', '3'],
    ['{{#with (index Cluster.NodePools 0)}}{{asgSize MinSize 3}}{{/with}}', '2'],
  ],
  parseInt64: [
    ['{{parseInt64 Cluster.ConfigItems.number}}', '42'],
    ['{{parseInt64 "-7"}}', '-7'],
  ],
  println: [['{{println "a" 1 2 "b"}}', 'a 1 2 b\n']],
  print: [
    ['{{print "a" 1 2 "b"}}', 'a1 2b'],
    ['{{print (list "x" "y")}}', '[x y]'],
  ],
  printf: [
    ['{{printf "%s-%d/%v %q %05d %x %%" "a" 7 true "q" 42 255}}', 'a-7/true "q" 00042 ff %'],
    ['{{printf "%.2f|%-4s|" 3.14159 "ab"}}', '3.14|ab  |'],
  ],
  dict: [['{{#with (dict "a" 1 "b" "two")}}{{a}}-{{b}}{{/with}}', '1-two']],
  list: [
    ['{{#each (list "x" 2 true)}}[{{this}}]{{/each}}', '[x][2][true]'],
    ['{{len (list)}}', '0'],
  ],
  append: [['{{join "," (append (split "a,b" ",") "c" "d")}}', 'a,b,c,d']],
  index: [
    ['[{{index Cluster.ConfigItems "missing"}}]', '[]'],
    ['{{index Cluster.ConfigItems "number"}}', '42'],
    ['{{index (split "a,b,c" ",") 2}}', 'c'],
    ['{{index Cluster.NodePools 1 "ConfigItems" "labels"}}', 'dedicated=db'],
    ['{{#if (index Cluster.ConfigItems "missing")}}set{{else}}unset{{/if}}', 'unset'],
    // `@index` inside a loop is still the loop index, although a helper of that name exists
    ['{{#each (list "a" "b")}}{{@index}}{{this}}{{#if (eq @index 1)}}!{{/if}}{{/each}}', '0a1b!'],
  ],
  len: [['{{len "abc"}} {{len Cluster.NodePools}} {{len Cluster.ConfigItems}} {{len "ü"}}', '3 3 4 2']],
  eq: [
    [
      '{{eq Cluster.Environment "production"}} {{eq 1 2}} {{eq "b" "a" "b"}} {{eq NodePool null}}',
      'true false true true',
    ],
  ],
  ne: [['{{ne Cluster.Environment "test"}} {{ne 1 1}}', 'true false']],
  lt: [['{{lt 1 2}} {{lt "b" "a"}}', 'true false']],
  le: [['{{le 2 2}} {{le 3 2}}', 'true false']],
  gt: [['{{gt 3 2}} {{gt "a" "b"}}', 'true false']],
  ge: [['{{ge 2 2}} {{ge 1 2}}', 'true false']],
  and: [['{{and 1 "x"}}|{{and 1 0 "x"}}|{{and (eq 1 1) (ne 1 2)}}', 'x|0|true']],
  or: [
    [
      '{{or 0 "" "x"}}|{{or 0 ""}}|{{#if (or (eq Cluster.Environment "test") (eq Cluster.Environment "production"))}}yes{{/if}}',
      'x||yes',
    ],
  ],
  not: [['{{not ""}} {{not "x"}} {{not (list)}} {{not 0}}', 'true false true true']],
  portRanges: [['{{#each (portRanges "0-100,300-400")}}{{FromPort}}:{{ToPort}};{{/each}}', '0:100;300:400;']],
  sgIngressRanges: [
    [
      '{{#each (sgIngressRanges "10.1.0.0/8:0-100,udp:0.0.0.0/0:53")}}{{Protocol}} {{CIDR}} {{FromPort}}-{{ToPort}};{{/each}}',
      'tcp 10.0.0.0/8 0-100;udp 0.0.0.0/0 53-53;',
    ],
  ],
  splitHostPort: [['{{#with (splitHostPort "example.org:80")}}{{Host}} - {{Port}}{{/with}}', 'example.org - 80']],
  extractEndpointHosts: [
    ['{{#each (extractEndpointHosts "http://b.org:2379,a.org:1,https://b.org")}}{{this}}, {{/each}}', 'a.org, b.org, '],
  ],
  nodeCIDRMaxNodes: [['{{nodeCIDRMaxNodes 24 10}}', '246']],
  nodeCIDRMaxNodesPodCIDR: [['{{nodeCIDRMaxNodesPodCIDR 15 26 0}}', '2048']],
  nodeCIDRMaxPods: [['{{nodeCIDRMaxPods 27 5}} {{nodeCIDRMaxPods 24 0}}', '21 110']],
  nthAddressFromCIDR: [
    [
      '{{nthAddressFromCIDR "172.20.0.0/16" 50}} {{nthAddressFromCIDR "2a05:d014:9c0:bf05::/64" 50}}',
      '172.20.0.50 2a05:d014:9c0:bf05::32',
    ],
  ],
  stupsNATSubnets: [
    [
      '{{#each (stupsNATSubnets "172.31.0.0/16")}}{{this}} {{/each}}',
      '172.31.64.0/28 172.31.64.16/28 172.31.64.32/28 ',
    ],
  ],
  sumQuantities: [['{{sumQuantities "2" "256m" "-1"}} {{sumQuantities "2Gi" "-512Mi"}}', '1256m 1536Mi']],
  scaleQuantity: [['{{scaleQuantity "1Gi" 0.5}} {{scaleQuantity "4" 0.3}}', '512Mi 1200m']],
  kubernetesSizeToKiloBytes: [['{{kubernetesSizeToKiloBytes "4Gi" 0.8}}', '3355444KB']],
  zoneDistributedNodePoolGroups: [
    ['{{#each (zoneDistributedNodePoolGroups Cluster.NodePools)}}[{{@key}}={{this}}]{{/each}}', '[=true][db=true]'],
  ],
  nodeLifeCycleProviderPerNodePoolGroup: [
    [
      '{{#each (nodeLifeCycleProviderPerNodePoolGroup Cluster.NodePools)}}[{{@key}}={{this}}]{{/each}}',
      '[db=zalando][default=zalando]',
    ],
  ],
  generateOIDCDiscoveryDocument: [
    [
      '{{generateOIDCDiscoveryDocument "https://k.example.org"}}',
      `{
    "issuer": "https://k.example.org",
    "authorization_endpoint": "urn:kubernetes:programmatic_authorization",
    "jwks_uri": "https://k.example.org/openid-configuration/keys.json",
    "response_types_supported": [
        "id_token"
    ],
    "subject_types_supported": [
        "public"
    ],
    "id_token_signing_alg_values_supported": [
        "RS256"
    ],
    "claims_supported": [
        "sub",
        "iss"
    ]
}`,
    ],
  ],
};

/** Each case: the template and a fragment of the message, which must also name the helper. */
const ERRORS: Record<string, [template: string, message: string][]> = {
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

describe('CLM template helpers, one template each', () => {
  const cases = Object.entries(OK).flatMap(([helper, list]) =>
    list.map(([template, expected]) => [helper, template, expected] as const),
  );

  it.each(cases)('%s: %s', async (_helper, template, expected) => {
    // Act
    const output = await render(template);
    // Assert
    expect(output).toBe(expected);
  });
});

describe('CLM template helpers, error cases', () => {
  const cases = Object.entries(ERRORS).flatMap(([helper, list]) =>
    list.map(([template, message]) => [helper, template, message] as const),
  );

  it.each(cases)('%s: %s', async (helper, template, message) => {
    // Act
    const error = await renderError(`line one\n${template}`);
    // Assert: the path, the line (2) and the helper's name lead the message
    expect(error.message).toContain(message);
    expect(error.message).toMatch(new RegExp(`^${PATH}:2: `));
    expect(error.message).toContain(helper);
    expect(error.location).toMatchObject({ file: PATH, line: 2 });
  });

  it('every registered helper has at least one test here or in the lookup, key and manifestHash suites', () => {
    const covered = new Set([...Object.keys(OK), ...Object.keys(ERRORS)]);
    expect(Object.keys(CLM_HELPERS).filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('helper calls that handlebars allows but CLM helpers do not', () => {
  it('fails a helper used as a block', async () => {
    const error = await renderError('{{#base64 "x"}}y{{/base64}}');
    expect(error.message).toBe(`${PATH}:1: base64: is not a block helper; call it as {{base64 …}} or (base64 …)`);
  });

  it('fails key=value arguments', async () => {
    const error = await renderError('{{base64 "x" pad=true}}');
    expect(error.message).toBe(`${PATH}:1: base64: takes no key=value arguments`);
  });
});
