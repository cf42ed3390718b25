import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bestCertificate,
  loadBalancerCertificate,
  namePatternMatches,
  type CertificateSummary,
} from '../../../lambdas/core/values/certificate-match';
import { certificateSummary, parsePemCertificates } from '../../../lambdas/core/values/certificate-verify';
import { ConfigError } from '../../../lambdas/shared/errors';

const pem = (name: string) => readFileSync(join(__dirname, '../../fixtures/certificates', `${name}.pem`), 'utf8');
const ROOTS = parsePemCertificates(pem('ca'));
const NOW = Date.parse('2030-06-01T00:00:00Z');
const DAY = 24 * 3600 * 1000;
const cert = (arn: string, domainNames: string[], from: number, to: number, verified = true): CertificateSummary => ({
  arn,
  domainNames,
  notBefore: from,
  notAfter: to,
  verified,
});

describe("kube-ingress-aws-controller's name match", () => {
  it('matches exact names and one label under a wildcard', () => {
    expect(namePatternMatches('kube-1.test.example.org', 'kube-1.test.example.org')).toBe(true);
    expect(namePatternMatches('*.test.example.org', 'kube-1.test.example.org')).toBe(true);
    expect(namePatternMatches('*.example.org', 'kube-1.test.example.org')).toBe(false);
    expect(namePatternMatches('*', 'anything.at.all')).toBe(true);
    expect(namePatternMatches('', '')).toBe(true);
  });
});

describe('bestCertificate', () => {
  const host = 'kube-1.test.example.org';
  it('prefers the longer (more specific) name while it is valid for a week more', () => {
    const wildcard = cert('wild', ['*.test.example.org'], NOW - 30 * DAY, NOW + 300 * DAY);
    const exact = cert('exact', [host], NOW - DAY, NOW + 300 * DAY);
    const expiring = cert('expiring', [host], NOW - DAY, NOW + 3 * DAY);
    expect(bestCertificate([wildcard, exact], host, NOW)?.arn).toBe('exact');
    expect(bestCertificate([wildcard, expiring], host, NOW)?.arn).toBe('wild');
  });

  it('among equal names takes the newer one unless it expires within a week, or the one living longer', () => {
    const older = cert('older', [host], NOW - 60 * DAY, NOW + 100 * DAY);
    const newer = cert('newer', [host], NOW - 10 * DAY, NOW + 200 * DAY);
    const newerExpiring = cert('newer-expiring', [host], NOW - 10 * DAY, NOW + 2 * DAY);
    expect(bestCertificate([older, newer], host, NOW)?.arn).toBe('newer');
    expect(bestCertificate([older, newerExpiring], host, NOW)?.arn).toBe('older');
    const sameDayLonger = cert('same-day-longer', [host], NOW - 60 * DAY, NOW + 150 * DAY);
    expect(bestCertificate([older, sameDayLonger], host, NOW)?.arn).toBe('same-day-longer');
  });

  it('ignores certificates that do not verify for the host, and fails naming the host when none is left', () => {
    const unverified = cert('self-signed', [host], NOW - DAY, NOW + 100 * DAY, false);
    expect(bestCertificate([unverified], host, NOW)).toBeUndefined();
    expect(() => loadBalancerCertificate([unverified], `https://${host}`, NOW, 'aws:1:eu:kube-1')).toThrow(ConfigError);
    expect(() => loadBalancerCertificate([unverified], `https://${host}`, NOW, 'aws:1:eu:kube-1')).toThrow(
      /no ISSUED ACM certificate matches the API server's host kube-1\.test\.example\.org \(1 certificate\(s\) in the account and region, 0 of them verifying for that host\)/,
    );
  });
});

describe('certificateSummary (the checks of Go x509 Verify for TLS)', () => {
  const host = 'kube-1.test.example.org';
  it('verifies a certificate chaining to a trusted root and covering the host by a DNS name', () => {
    const summary = certificateSummary('arn:wild', pem('wildcard'), pem('ca'), ROOTS, host, NOW);
    expect(summary).toMatchObject({
      arn: 'arn:wild',
      domainNames: ['*.test.example.org', '*.test.example.org', 'test.example.org'],
      verified: true,
    });
    expect(certificateSummary('arn:wild', pem('wildcard'), undefined, ROOTS, host, NOW).verified).toBe(true);
  });

  it('refuses a host it does not cover, an untrusted issuer, a client-only certificate, and one not valid now', () => {
    expect(certificateSummary('a', pem('wildcard'), pem('ca'), ROOTS, 'x.other.org', NOW).verified).toBe(false);
    expect(certificateSummary('a', pem('wildcard'), pem('ca'), [], host, NOW).verified).toBe(false);
    expect(certificateSummary('a', pem('self-signed'), undefined, ROOTS, host, NOW).verified).toBe(false);
    expect(certificateSummary('a', pem('client-only'), pem('ca'), ROOTS, host, NOW).verified).toBe(false);
    expect(certificateSummary('a', pem('wildcard'), pem('ca'), ROOTS, host, Date.parse('1990-01-01')).verified).toBe(
      false,
    );
  });
});
