import { ConfigError } from '../../shared/errors';

/**
 * `load_balancer_certificate` (CLM §6.2 step 6): of the account's ISSUED ACM certificates, the one that best matches the
 * API server's host name, by kube-ingress-aws-controller's rules (its `certs.FindBestMatchingCertificate`, which CLM
 * calls): only certificates that verify for the host (certificate-verify.ts) count; a longer matching name (more
 * specific) wins while it is valid now and for 7 more days; among names of equal length the newer one wins unless it
 * expires within 7 days, an equally old one that lives longer wins, an older one wins when the current pick expires
 * within 7 days and the older one lives longer; a shorter name replaces a longer one only when the longer one is not
 * valid yet and expires within 7 days. Pure.
 */

export interface CertificateSummary {
  readonly arn: string;
  /** The subject's common name (when set) followed by the DNS names of the subject alternative names. */
  readonly domainNames: readonly string[];
  /** ms since the epoch */
  readonly notBefore: number;
  readonly notAfter: number;
  /** It verifies for the host: a chain to a trusted root, valid now, the name covered, usable for server auth. */
  readonly verified: boolean;
}

const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;

/** kube-ingress-aws-controller's name match: no wildcard → equal; `*.example.org` → one label before `.example.org`. */
export function namePatternMatches(pattern: string, host: string): boolean {
  if (pattern === '') return host === '';
  if (pattern === '*') return true;
  if (!pattern.startsWith('*')) return host === pattern;
  const suffix = pattern.slice(1);
  const rest = host.endsWith(suffix) ? host.slice(0, host.length - suffix.length) : host;
  return !rest.includes('.');
}

/** The best match for `host` at `now`, or undefined when none verifies and matches. */
export function bestCertificate(
  certificates: readonly CertificateSummary[],
  host: string,
  now: number,
): CertificateSummary | undefined {
  let pick: CertificateSummary | undefined;
  let longest = -1;
  const validAWeek = (c: CertificateSummary) => c.notAfter - SEVEN_DAYS_MS > now;
  for (const cert of certificates) {
    if (!cert.verified) continue;
    for (const name of cert.domainNames) {
      if (!namePatternMatches(name, host)) continue;
      if (longest < 0 || !pick || takes(cert, pick, name.length, longest, now, validAWeek)) {
        longest = name.length;
        pick = cert;
      }
    }
  }
  return pick;
}

function takes(
  cert: CertificateSummary,
  pick: CertificateSummary,
  length: number,
  longest: number,
  now: number,
  validAWeek: (c: CertificateSummary) => boolean,
): boolean {
  if (length > longest) return cert.notBefore < now && validAWeek(cert);
  if (length === longest) {
    if (cert.notBefore > pick.notBefore) return validAWeek(cert) || cert.notAfter - SEVEN_DAYS_MS === now;
    if (cert.notBefore === pick.notBefore) return pick.notAfter <= cert.notAfter;
    return !validAWeek(pick) && pick.notAfter - SEVEN_DAYS_MS !== now && cert.notAfter > pick.notAfter;
  }
  return (
    pick.notAfter - SEVEN_DAYS_MS < now &&
    now < pick.notBefore &&
    cert.notBefore < now &&
    now < cert.notAfter - SEVEN_DAYS_MS
  );
}

/**
 * The certificate's ARN for `apiServerUrl`'s host, or a ConfigError naming the host and the cluster, and how many
 * certificates were looked at, when none matches (CLM fails the provisioning there too).
 */
export function loadBalancerCertificate(
  certificates: readonly CertificateSummary[],
  apiServerUrl: string,
  now: number,
  clusterId: string,
): string {
  const host = new URL(apiServerUrl.includes('://') ? apiServerUrl : `https://${apiServerUrl}`).hostname;
  const found = bestCertificate(certificates, host, now);
  if (found) return found.arn;
  const verified = certificates.filter((c) => c.verified).length;
  throw new ConfigError(
    `no ISSUED ACM certificate matches the API server's host ${host} (${certificates.length} certificate(s) in the account and region, ${verified} of them verifying for that host)`,
    { location: { clusterId, field: 'api_server_url' } },
  );
}
