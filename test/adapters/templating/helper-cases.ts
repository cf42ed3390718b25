/**
 * What each CLM template helper gives, one-line templates by helper name (helpers.test.ts renders them against its
 * CONTEXT through the real engine).
 */
export const HELPER_CASES: Record<string, [template: string, expected: string][]> = {
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
