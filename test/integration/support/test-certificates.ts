import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportCertificateCommand, type ACMClient } from '@aws-sdk/client-acm';

/**
 * A private CA and a server certificate it signed for `host` (openssl), imported into ACM as an account's ISSUED
 * certificate: what `load_balancer_certificate` is looked up from. The CA's PEM file is what a process trusting it
 * names in `NODE_EXTRA_CA_CERTS` (as a host trusting a private CA would have it in its store).
 */
export interface ImportedCertificate {
  readonly arn: string;
  readonly caFile: string;
}

export async function importCertificateFor(acm: ACMClient, host: string): Promise<ImportedCertificate> {
  const dir = mkdtempSync(join(tmpdir(), 'clm-int-acm-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=clm integration CA'],
    ...['-keyout', file('ca.key'), '-out', file('ca.pem'), '-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  writeFileSync(file('leaf.ext'), `subjectAltName=DNS:${host}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${host}`,
    '-keyout',
    file('leaf.key'),
    '-out',
    file('leaf.csr'),
  );
  openssl(
    ...['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial'],
    ...['-days', '20', '-extfile', file('leaf.ext'), '-out', file('leaf.pem')],
  );
  const out = await acm.send(
    new ImportCertificateCommand({
      Certificate: readFileSync(file('leaf.pem')),
      PrivateKey: readFileSync(file('leaf.key')),
      CertificateChain: readFileSync(file('ca.pem')),
    }),
  );
  return { arn: out.CertificateArn!, caFile: file('ca.pem') };
}
