import { formatCidr, formatIp, parseCidr } from '../../../lambdas/core/template-helpers/ip';
import {
  extractEndpointHosts,
  nodeCIDRMaxNodes,
  nodeCIDRMaxNodesPodCIDR,
  nodeCIDRMaxPods,
  nthAddressFromCIDR,
  portRanges,
  sgIngressRanges,
  splitHostPort,
  stupsNATSubnets,
} from '../../../lambdas/core/template-helpers/network';

describe('parseCidr / formatCidr (Go net.ParseCIDR, IPNet.String)', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['127.0.0.1/32', '127.0.0.1/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['172.31.255.255/20', '172.31.240.0/20'],
    ['2a05:d014:9c0:bf05::/64', '2a05:d014:9c0:bf05::/64'],
    ['2A05:D014:09C0:BF05:1:2:3:4/64', '2a05:d014:9c0:bf05::/64'],
    ['::/0', '::/0'],
    ['2001:db8:0:0:1:0:0:1/128', '2001:db8::1:0:0:1/128'],
    ['2001:0:0:1:0:0:0:1/128', '2001:0:0:1::1/128'],
    ['1:0:0:0:0:0:0:0/128', '1::/128'],
    ['1:2:3:4:5:6:7:0/128', '1:2:3:4:5:6:7:0/128'],
    ['::ffff:10.1.2.3/128', '10.1.2.3/128'],
    ['64:ff9b::10.1.2.3/128', '64:ff9b::a01:203/128'],
  ])('%s → %s', (input, expected) => {
    expect(formatCidr(parseCidr(input))).toBe(expected);
  });

  it.each([
    '10.0.0.0',
    '10.0.0/8',
    '10.0.0.256/8',
    '010.0.0.0/8',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '1::2::3/64',
    '2a05::/129',
    'example',
    '10.0.0.0/8/1',
    '1:2:3:4:5:6:7:8:9/64',
  ])('rejects %p', (input) => {
    expect(() => parseCidr(input)).toThrow(`invalid CIDR address: ${input}`);
  });

  it('prints IPv4 addresses dotted', () => {
    expect(formatIp(Uint8Array.of(192, 168, 0, 1))).toBe('192.168.0.1');
  });
});

describe('portRanges', () => {
  it('parses a list of ranges', () => {
    expect(portRanges('0-100,300-400')).toEqual([
      { FromPort: 0, ToPort: 100 },
      { FromPort: 300, ToPort: 400 },
    ]);
  });

  it.each([
    ['0-1-2', 'invalid input for portRange: 0-1-2'],
    ['0-1,-2', 'invalid start port:  in input: 0-1,-2'],
    ['80', 'invalid input for portRange: 80'],
    ['a-2', 'invalid start port: a in input: a-2'],
    ['1-b', 'invalid end port: b in input: 1-b'],
    ['30-20', 'port range 30-20 is invalid'],
    ['0-200000', 'port range 0-200000 is invalid'],
    ['', 'invalid input for portRange: '],
  ])('rejects %p', (input, message) => {
    expect(() => portRanges(input)).toThrow(message);
  });
});

describe('sgIngressRanges', () => {
  it('parses protocol, CIDR (normalised) and ports; tcp by default, a single port is from and to', () => {
    expect(sgIngressRanges('10.0.0.0/8:0-100,0.0.0.0/0:300-400,127.0.0.1/32:500,udp:10.1.2.3/16:53')).toEqual([
      { CIDR: '10.0.0.0/8', FromPort: 0, ToPort: 100, Protocol: 'tcp' },
      { CIDR: '0.0.0.0/0', FromPort: 300, ToPort: 400, Protocol: 'tcp' },
      { CIDR: '127.0.0.1/32', FromPort: 500, ToPort: 500, Protocol: 'tcp' },
      { CIDR: '10.1.0.0/16', FromPort: 53, ToPort: 53, Protocol: 'udp' },
    ]);
  });

  it.each([
    ['0.0.0.0/0:0-1-2', 'invalid input for sgIngressRanges'],
    ['0.0.0.0/0:0-1,-2', 'invalid input for sgIngressRanges'],
    ['0.0.0.0/0:30-20', 'port range 30-20 is invalid'],
    ['0.0.0.0/0:0-200000', 'port range 0-200000 is invalid'],
    ['10.0.0:0-1', 'invalid CIDR address: 10.0.0'],
    ['icmp:0.0.0.0/0:1', "invalid protocol 'icmp' only 'tcp' or 'udp' supported"],
    ['a:b:c:d', 'invalid input for sgIngressRanges: a:b:c:d'],
  ])('rejects %p', (input, message) => {
    expect(() => sgIngressRanges(input)).toThrow(message);
  });
});

describe('splitHostPort', () => {
  it.each([
    ['example.org:80', { Host: 'example.org', Port: '80' }],
    ['[::1]:443', { Host: '::1', Port: '443' }],
    [':80', { Host: '', Port: '80' }],
    ['host:', { Host: 'host', Port: '' }],
  ])('%s', (input, expected) => {
    expect(splitHostPort(input)).toEqual(expected);
  });

  it.each([
    ['a:b:c', 'too many colons in address'],
    ['example.org', 'missing port in address'],
    ['[::1]', 'missing port in address'],
    ['[::1:80', "missing ']' in address"],
  ])('rejects %p: %s', (input, message) => {
    expect(() => splitHostPort(input)).toThrow(message);
  });
});

describe('extractEndpointHosts', () => {
  it.each([
    ['etcd-server.etcd.example.org:2379', ['etcd-server.etcd.example.org']],
    ['http://etcd-server.etcd.example.org:2379', ['etcd-server.etcd.example.org']],
    ['http://etcd-server.etcd.example.org:2379,zalan.do:2479', ['etcd-server.etcd.example.org', 'zalan.do']],
    ['https://b.example.org:2479,http://a.example.org,https://b.example.org', ['a.example.org', 'b.example.org']],
    ['https://user@[2001:db8::1]:2379/path', ['2001:db8::1']],
  ])('%s', (input, expected) => {
    expect(extractEndpointHosts(input)).toEqual(expected);
  });
});

describe('nodeCIDRMaxNodesPodCIDR / nodeCIDRMaxNodes / nodeCIDRMaxPods', () => {
  it.each([
    [16, 24, 0, 256],
    [16, 24, 10, 246],
    [16, 27, 0, 2048],
    [15, 26, 0, 2048],
    [15, 25, 0, 1024],
    [14, 26, 0, 4096],
  ])('pod /%i, node /%i, reserved %i → %i nodes', (pod, node, reserved, expected) => {
    expect(nodeCIDRMaxNodesPodCIDR(pod, node, reserved)).toBe(expected);
  });

  it.each([
    [16, 19, 'invalid value for maskSize: 19'],
    [16, 29, 'invalid value for maskSize: 29'],
    [13, 24, 'invalid for podCIDRMaskSize: 13'],
    [17, 24, 'invalid for podCIDRMaskSize: 17'],
  ])('rejects pod /%i, node /%i', (pod, node, message) => {
    expect(() => nodeCIDRMaxNodesPodCIDR(pod, node, 0)).toThrow(message);
  });

  it('nodeCIDRMaxNodes assumes a /16 pod CIDR', () => {
    expect(nodeCIDRMaxNodes(24, 6)).toBe(250);
  });

  it.each([
    [24, 0, 110],
    [24, 10, 110],
    [25, 0, 64],
    [27, 5, 21],
    [28, 0, 8],
  ])('node /%i with %i extra → %i pods', (node, extra, expected) => {
    expect(nodeCIDRMaxPods(node, extra)).toBe(expected);
  });

  it.each([19, 29])('nodeCIDRMaxPods rejects /%i', (node) => {
    expect(() => nodeCIDRMaxPods(node, 0)).toThrow(`invalid value for maskSize: ${node}`);
  });

  it('wants integers, and says how to convert a config item', () => {
    expect(() => nodeCIDRMaxPods('24', 0)).toThrow(
      'node CIDR mask size must be an integer, got string "24" (convert strings with parseInt64)',
    );
  });
});

describe('nthAddressFromCIDR', () => {
  it.each([
    ['172.20.0.0/16', 50, '172.20.0.50'],
    ['172.20.5.7/16', 10, '172.20.0.10'],
    ['10.0.0.0/8', 0, '10.0.0.0'],
    // only the last byte moves, wrapping as CLM's byte arithmetic does
    ['10.0.0.0/8', 300, '10.0.0.44'],
    ['2a05:d014:9c0:bf05::/64', 50, '2a05:d014:9c0:bf05::32'],
  ])('%s, n=%i → %s', (cidr, n, expected) => {
    expect(nthAddressFromCIDR(cidr, n)).toBe(expected);
  });

  it.each(['172.20.0.0/100', '2a05:d014:9c0:bf05::/2000'])('rejects %p', (cidr) => {
    expect(() => nthAddressFromCIDR(cidr, 50)).toThrow(`invalid CIDR address: ${cidr}`);
  });
});

describe('stupsNATSubnets', () => {
  it.each([
    ['172.31.0.0/16', ['172.31.64.0/28', '172.31.64.16/28', '172.31.64.32/28']],
    ['10.153.192.0/19', ['10.153.200.0/28', '10.153.200.16/28', '10.153.200.32/28']],
    ['10.149.64.0/19', ['10.149.72.0/28', '10.149.72.16/28', '10.149.72.32/28']],
    ['10.0.0.0/24', ['10.0.0.64/28', '10.0.0.80/28', '10.0.0.96/28']],
  ])('%s', (vpc, expected) => {
    expect(stupsNATSubnets(vpc)).toEqual(expected);
  });

  it.each([
    ['172.31.0.0/25', 'invalid subnet, expecting at least /24: 172.31.0.0/25'],
    ['0.0.0.0/0', 'invalid subnet, expecting at least /24'],
    ['2001::/19', 'only ipv4 subnets are supported, got 2001::/19'],
    ['example', 'invalid CIDR address: example'],
  ])('rejects %p', (vpc, message) => {
    expect(() => stupsNATSubnets(vpc)).toThrow(message);
  });
});
