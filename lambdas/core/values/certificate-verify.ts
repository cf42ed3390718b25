import { X509Certificate } from 'node:crypto';
import type { CertificateSummary } from './certificate-match';

/**
 * What kube-ingress-aws-controller's `CertificateSummary.Verify(host)` checks before a certificate may be matched (Go's
 * `x509.Certificate.Verify` for TLS): a chain through the certificate's own chain to a trusted root, every link's
 * signature and validity period covering now, the host covered by a DNS name of the subject alternative names (the
 * common name is not looked at, as Go ≥ 1.15), and every certificate of the chain usable for server authentication when
 * it restricts its extended key usage. Pure (node:crypto); the trusted roots are given (the platform's for AWS).
 */

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const ANY_USAGE = '2.5.29.37.0';
const MAX_CHAIN = 8;

/** PEM text with one or more certificates → the certificates, in order. */
export function parsePemCertificates(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}

const validAt = (cert: X509Certificate, now: number) =>
  Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);

const serverAuthAllowed = (cert: X509Certificate) =>
  !cert.keyUsage || cert.keyUsage.includes(SERVER_AUTH) || cert.keyUsage.includes(ANY_USAGE);

const signs = (issuer: X509Certificate, cert: X509Certificate) =>
  cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

/** Whether `leaf` verifies for `host` at `now` through `intermediates` to one of `roots`. */
export function verifiesForHost(
  leaf: X509Certificate,
  intermediates: readonly X509Certificate[],
  roots: readonly X509Certificate[],
  host: string,
  now: number,
): boolean {
  if (!leaf.checkHost(host, { subject: 'never', partialWildcards: false })) return false;
  let cert = leaf;
  for (let depth = 0; depth < MAX_CHAIN; depth += 1) {
    if (!validAt(cert, now) || !serverAuthAllowed(cert)) return false;
    if (roots.some((root) => root.fingerprint256 === cert.fingerprint256 || (signs(root, cert) && validAt(root, now))))
      return true;
    const next = intermediates.find((candidate) => candidate !== cert && signs(candidate, cert));
    if (!next) return false;
    cert = next;
  }
  return false;
}

/** An ACM certificate (its PEM and chain) as the matcher sees it for `host`. */
export function certificateSummary(
  arn: string,
  pem: string,
  chainPem: string | undefined,
  roots: readonly X509Certificate[],
  host: string,
  now: number,
): CertificateSummary {
  const [leaf] = parsePemCertificates(pem);
  if (!leaf) return { arn, domainNames: [], notBefore: 0, notAfter: 0, verified: false };
  const commonName = /(?:^|\n)CN=([^\n]*)/.exec(leaf.subject)?.[1];
  const dnsNames = (leaf.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
  return {
    arn,
    domainNames: [...(commonName ? [commonName] : []), ...dnsNames],
    notBefore: Date.parse(leaf.validFrom),
    notAfter: Date.parse(leaf.validTo),
    verified: verifiesForHost(leaf, parsePemCertificates(chainPem ?? ''), roots, host, now),
  };
}
