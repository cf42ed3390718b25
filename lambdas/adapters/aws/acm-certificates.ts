/**
 * The account's ISSUED ACM certificates as `load_balancer_certificate`'s matcher sees them (CLM's `GetCertificates`):
 * ListCertificates (status ISSUED, every page), then GetCertificate of each for its PEM and chain, verified for the
 * API server's host against the trusted roots.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { X509Certificate } from 'node:crypto';
import { GetCertificateCommand, paginateListCertificates } from '@aws-sdk/client-acm';
import type { ACMClient } from '@aws-sdk/client-acm';
import type { CertificateSummary } from '../../core/values/certificate-match';
import { certificateSummary, parsePemCertificates } from '../../core/values/certificate-verify';
import { toClmError } from './aws-errors';

/**
 * The roots Go's `x509` would trust on the host: Node's bundled list (the Mozilla store, with Amazon's roots, which
 * ACM-issued certificates chain to) plus the PEM file `NODE_EXTRA_CA_CERTS` names (a private CA's imported
 * certificates), read once.
 */
let platformRoots: X509Certificate[] | undefined;
export function platformTrustedRoots(
  env: Readonly<Record<string, string | undefined>> = process.env,
): X509Certificate[] {
  if (platformRoots) return platformRoots;
  const extra = env.NODE_EXTRA_CA_CERTS ? readFileSync(env.NODE_EXTRA_CA_CERTS, 'utf8') : '';
  platformRoots = [...rootCertificates.flatMap((pem) => parsePemCertificates(pem)), ...parsePemCertificates(extra)];
  return platformRoots;
}

export async function acmCertificates(
  acm: ACMClient,
  apiServerUrl: string,
  now: number,
  trustedRoots?: readonly string[],
): Promise<CertificateSummary[]> {
  const roots = trustedRoots ? trustedRoots.flatMap((pem) => parsePemCertificates(pem)) : platformTrustedRoots();
  const host = new URL(apiServerUrl.includes('://') ? apiServerUrl : `https://${apiServerUrl}`).hostname;
  const arns: string[] = [];
  try {
    for await (const page of paginateListCertificates({ client: acm }, { CertificateStatuses: ['ISSUED'] }))
      for (const summary of page.CertificateSummaryList ?? [])
        if (summary.CertificateArn) arns.push(summary.CertificateArn);
  } catch (error) {
    throw toClmError(error, 'ACM ListCertificates');
  }
  const summaries: CertificateSummary[] = [];
  for (const arn of arns) {
    let out;
    try {
      out = await acm.send(new GetCertificateCommand({ CertificateArn: arn }));
    } catch (error) {
      throw toClmError(error, `ACM GetCertificate ${arn}`);
    }
    if (out.Certificate)
      summaries.push(certificateSummary(arn, out.Certificate, out.CertificateChain, roots, host, now));
  }
  return summaries;
}
