/**
 * Network helpers (reference/clm-behaviour.md §4.4): `portRanges`, `sgIngressRanges`, `splitHostPort`,
 * `extractEndpointHosts`, `nodeCIDRMaxNodes`, `nodeCIDRMaxNodesPodCIDR`, `nodeCIDRMaxPods`,
 * `nthAddressFromCIDR`, `stupsNATSubnets`. Field names of the returned objects are CLM's (`FromPort`, `CIDR`...).
 */
import { expectInteger, expectString, helperError } from './args';
import { formatCidr, formatIp, parseCidr } from './ip';

export interface PortRange {
  readonly FromPort: number;
  readonly ToPort: number;
}

export interface SGIngressRange extends PortRange {
  readonly CIDR: string;
  readonly Protocol: 'tcp' | 'udp';
}

export interface HostPort {
  readonly Host: string;
  readonly Port: string;
}

/** strconv.Atoi: an optional sign and decimal digits. */
function atoi(text: string): number | undefined {
  return /^[-+]?\d{1,15}$/.test(text) ? Number(text) : undefined;
}

function portRange(from: string, to: string, input: string): PortRange {
  const fromPort = atoi(from);
  if (fromPort === undefined) throw helperError(`invalid start port: ${from} in input: ${input}`);
  const toPort = atoi(to);
  if (toPort === undefined) throw helperError(`invalid end port: ${to} in input: ${input}`);
  if (fromPort > toPort || toPort > 65535 || fromPort < 0)
    throw helperError(`port range ${fromPort}-${toPort} is invalid`);
  return { FromPort: fromPort, ToPort: toPort };
}

/** `"80-80,8000-8100"` → [{FromPort, ToPort}]; ports 0..65535, from ≤ to. */
export function portRanges(value: unknown): PortRange[] {
  const input = expectString(value, 'portRanges input');
  return input.split(',').map((range) => {
    const parts = range.split('-');
    if (parts.length !== 2) throw helperError(`invalid input for portRange: ${input}`);
    return portRange(parts[0] ?? '', parts[1] ?? '', input);
  });
}

/** `"[tcp|udp:]cidr:port[-port],…"` → [{CIDR (normalised to the network), FromPort, ToPort, Protocol}]. */
export function sgIngressRanges(value: unknown): SGIngressRange[] {
  const input = expectString(value, 'sgIngressRanges input');
  return input.split(',').map((range) => {
    const fields = range.split(':');
    if (fields.length !== 2 && fields.length !== 3) throw helperError(`invalid input for sgIngressRanges: ${input}`);
    const [protocol, cidr, ports] =
      fields.length === 2
        ? ['tcp', fields[0] ?? '', fields[1] ?? '']
        : [fields[0] ?? '', fields[1] ?? '', fields[2] ?? ''];
    if (protocol !== 'tcp' && protocol !== 'udp')
      throw helperError(`invalid protocol '${protocol}' only 'tcp' or 'udp' supported: ${input}`);
    const network = formatCidr(parseCidr(cidr));
    const bounds = ports.split('-');
    if (bounds.length > 2) throw helperError(`invalid input for sgIngressRanges: ${input}`);
    const { FromPort, ToPort } = portRange(bounds[0] ?? '', bounds[1] ?? bounds[0] ?? '', input);
    return { CIDR: network, FromPort, ToPort, Protocol: protocol };
  });
}

/** Go's net.SplitHostPort: `host:port` or `[v6]:port`. */
export function splitHostPort(value: unknown): HostPort {
  const input = expectString(value, 'splitHostPort input');
  const fail = (why: string): never => {
    throw helperError(`address ${input}: ${why}`);
  };
  const colon = input.lastIndexOf(':');
  if (colon < 0) return fail('missing port in address');
  let host: string;
  if (input.startsWith('[')) {
    const close = input.indexOf(']');
    if (close < 0) return fail("missing ']' in address");
    if (close + 1 === input.length) return fail('missing port in address');
    if (close + 1 !== colon)
      return fail(input[close + 1] === ':' ? 'too many colons in address' : 'missing port in address');
    host = input.slice(1, close);
    if (host.includes('[') || host.includes(']')) return fail("unexpected '[' in address");
  } else {
    host = input.slice(0, colon);
    if (host.includes(':')) return fail('too many colons in address');
    if (host.includes('[') || host.includes(']')) return fail("unexpected '[' in address");
  }
  const port = input.slice(colon + 1);
  if (port.includes('[') || port.includes(']')) return fail("unexpected ']' in address");
  return { Host: host, Port: port };
}

/** The hostname of a URL as Go's url.Parse + Hostname() see it ("" for an opaque URL such as `host:port`). */
function urlHostname(url: string): string {
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(url);
  const rest = scheme ? url.slice(scheme[0].length) : url;
  if (!rest.startsWith('//')) {
    if (!scheme && /^[^/]*:/.test(rest))
      throw helperError(`unable to parse endpoint '${url}': first path segment in URL cannot contain colon`);
    return '';
  }
  const authority = rest.slice(2).split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) throw helperError(`unable to parse endpoint '${url}': missing ']' in host`);
    return host.slice(1, close);
  }
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** `"url1,url2"` → unique, sorted hostnames; `http://` is added to entries not starting with `http`. */
export function extractEndpointHosts(value: unknown): string[] {
  const input = expectString(value, 'extractEndpointHosts input');
  const hosts = new Set(
    input.split(',').map((endpoint) => urlHostname(endpoint.startsWith('http') ? endpoint : `http://${endpoint}`)),
  );
  return [...hosts].sort();
}

function checkNodeMask(maskSize: number): void {
  if (maskSize < 24 || maskSize > 28) throw helperError(`invalid value for maskSize: ${maskSize}`);
}

/** 2^(nodeMask − podMask) − reserved; podMask 14..16, nodeMask 24..28. */
export function nodeCIDRMaxNodesPodCIDR(podMask: unknown, nodeMask: unknown, reserved: unknown): number {
  const pod = expectInteger(podMask, 'pod CIDR mask size');
  const node = expectInteger(nodeMask, 'node CIDR mask size');
  const keep = expectInteger(reserved, 'reserved');
  if (pod < 14 || pod > 16) throw helperError(`invalid for podCIDRMaskSize: ${pod}`);
  checkNodeMask(node);
  return 2 ** (node - pod) - keep;
}

/** Legacy: nodeCIDRMaxNodesPodCIDR with a /16 pod CIDR. */
export function nodeCIDRMaxNodes(nodeMask: unknown, reserved: unknown): number {
  return nodeCIDRMaxNodesPodCIDR(16, nodeMask, reserved);
}

/** min(110, 2^(32 − nodeMask − 1) + extra); nodeMask 24..28. */
export function nodeCIDRMaxPods(nodeMask: unknown, extraCapacity: unknown): number {
  const node = expectInteger(nodeMask, 'node CIDR mask size');
  const extra = expectInteger(extraCapacity, 'extra capacity');
  checkNodeMask(node);
  return Math.min(110, 2 ** (32 - node - 1) + extra);
}

/** The network address plus n, incrementing only the last byte (wrapping at 256, as CLM does). */
export function nthAddressFromCIDR(cidr: unknown, n: unknown): string {
  const { network } = parseCidr(expectString(cidr, 'CIDR'));
  const steps = expectInteger(n, 'n');
  const ip = Uint8Array.from(network);
  const last = ip.length - 1;
  if (steps > 0) ip[last] = ((ip[last] ?? 0) + steps) % 256;
  return formatIp(ip);
}

function ipv4ToNumber(bytes: Uint8Array): number {
  return (((bytes[0] ?? 0) << 24) >>> 0) + ((bytes[1] ?? 0) << 16) + ((bytes[2] ?? 0) << 8) + (bytes[3] ?? 0);
}

function numberToIpv4(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/**
 * The STUPS NAT subnets of a VPC (/24 or larger): split the VPC in four, take the second quarter, and return
 * its first three /28 subnets.
 */
export function stupsNATSubnets(vpcCidr: unknown): string[] {
  const vpc = parseCidr(expectString(vpcCidr, 'VPC CIDR'));
  if (vpc.prefix === 0 || vpc.prefix > 24)
    throw helperError(`invalid subnet, expecting at least /24: ${formatCidr(vpc)}`);
  if (vpc.network.length !== 4) throw helperError(`only ipv4 subnets are supported, got ${formatCidr(vpc)}`);
  const quarter = 2 ** (32 - (vpc.prefix + 2));
  const second = ipv4ToNumber(vpc.network) + quarter;
  return [0, 1, 2].map((i) => formatCidr({ network: numberToIpv4(second + i * 16), prefix: 28 }));
}
