/**
 * IPv4/IPv6 parsing and printing with Go's net package rules (pure: no node:net in core): `ParseCIDR`
 * (host bits allowed, the network is masked), `IP.String` (RFC 5952 zero compression, IPv4-mapped
 * addresses printed dotted).
 */
import { helperError } from './args';

export interface Cidr {
  /** 4 or 16 bytes, masked to the network. */
  readonly network: Uint8Array;
  readonly prefix: number;
}

function parseIPv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? '';
    // Go rejects leading zeros (ambiguous octal) and anything but 1-3 digits.
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith('0')) || Number(part) > 255) return undefined;
    bytes[i] = Number(part);
  }
  return bytes;
}

function parseIPv6(text: string): Uint8Array | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIPv4(part);
        if (!v4) return undefined;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
        out.push(parseInt(part, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/** Go's net.ParseCIDR: `addr/prefix`; an error names the input. */
export function parseCidr(text: string): Cidr {
  const slash = text.indexOf('/');
  const addr = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? '' : text.slice(slash + 1);
  const ip = addr.includes(':') ? parseIPv6(addr) : parseIPv4(addr);
  const bits = ip ? ip.length * 8 : 0;
  if (!ip || !/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)
    throw helperError(`invalid CIDR address: ${text}`);
  const prefix = Number(prefixText);
  const network = ip.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return { network, prefix };
}

function isV4Mapped(bytes: Uint8Array): boolean {
  return bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** Go's net.IP.String. */
export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return [...bytes].join('.');
  if (isV4Mapped(bytes)) return [...bytes.slice(12)].join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
  // The longest run of two or more zero groups (the first on a tie) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (from: number, to: number): string =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':');
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

/** Go's net.IPNet.String: `network/prefix`. */
export function formatCidr(cidr: Cidr): string {
  return `${formatIp(cidr.network)}/${cidr.prefix}`;
}
