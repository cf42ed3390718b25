/**
 * Key and certificate helpers (CLM provisioner/template.go and jwks.go): `publicKey`, `certificateExpiry`,
 * `generateJWKSDocument`, `generateOIDCDiscoveryDocument`. Outputs match CLM's byte for byte: PEM with 64-column
 * lines, JSON indented with four spaces and keys in Go's order.
 */
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { expectString, helperError } from './args';

const PEM_BLOCK = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/;

/** The DER bytes of the first PEM block (headers such as `Proc-Type:` skipped), as Go's pem.Decode. */
function pemBody(pem: string, what: string): Buffer {
  const block = PEM_BLOCK.exec(pem);
  if (!block) throw helperError(`no PEM data found in ${what}`);
  const body = (block[2] ?? '')
    .split(/\r?\n/)
    .filter((line) => !line.includes(':'))
    .join('');
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

function toPem(type: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** A PKCS#1 RSA private key (PEM) → its public key as PEM `PUBLIC KEY` (PKIX). */
export function publicKey(privateKeyPem: unknown): string {
  const der = pemBody(expectString(privateKeyPem, 'private key'), 'the private key');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  } catch (error) {
    throw helperError(`not a PKCS#1 RSA private key: ${(error as Error).message}`, error);
  }
  // OpenSSL also accepts PKCS#8 here; Go's ParsePKCS1PrivateKey does not, so neither do we.
  if (key.asymmetricKeyType !== 'rsa' || !key.export({ type: 'pkcs1', format: 'der' }).equals(der)) {
    throw helperError('not a PKCS#1 RSA private key (PKCS#8 and other formats are not accepted)');
  }
  return toPem('PUBLIC KEY', createPublicKey(key).export({ type: 'spki', format: 'der' }));
}

/** The NotAfter time of a PEM certificate in RFC 3339, UTC: `2030-01-02T03:04:05Z`. */
export function certificateExpiry(certificatePem: unknown): string {
  const der = pemBody(expectString(certificatePem, 'certificate'), 'the certificate');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch (error) {
    throw helperError(`not an X.509 certificate: ${(error as Error).message}`, error);
  }
  const notAfter = new Date(certificate.validTo);
  if (Number.isNaN(notAfter.getTime()))
    throw helperError(`cannot read the certificate's expiry ${JSON.stringify(certificate.validTo)}`);
  return notAfter.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The JWKS document for an RSA public key (PEM, PKIX): kid = base64url(SHA-256 of the DER), alg RS256, use sig.
 * The key is listed twice, the second time with an empty kid (CLM does so for clients that look keys up by "").
 */
export function generateJWKSDocument(publicKeyPem: unknown): string {
  const der = pemBody(expectString(publicKeyPem, 'public key'), 'the public key');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch (error) {
    throw helperError(`failed to parse public key: ${(error as Error).message}`, error);
  }
  if (key.asymmetricKeyType !== 'rsa') throw helperError('Public key was not RSA');
  const canonical = key.export({ type: 'spki', format: 'der' });
  const kid = createHash('sha256').update(canonical).digest('base64url');
  const jwk = key.export({ format: 'jwk' });
  // Go marshals a map[string]string: keys sorted.
  const entry = (keyId: string): Record<string, string> => ({
    alg: 'RS256',
    e: String(jwk.e),
    kid: keyId,
    kty: 'RSA',
    n: String(jwk.n),
    use: 'sig',
  });
  return goJson({ keys: [entry(kid), entry('')] });
}

/** The OIDC discovery document of a cluster's service-account issuer (its API server URL). */
export function generateOIDCDiscoveryDocument(apiServerUrl: unknown): string {
  const issuer = expectString(apiServerUrl, 'API server URL');
  return goJson({
    issuer,
    authorization_endpoint: 'urn:kubernetes:programmatic_authorization',
    jwks_uri: `${issuer}/openid-configuration/keys.json`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: ['sub', 'iss'],
  });
}

/** json.MarshalIndent(v, "", "    "): Go also escapes <, > and & in strings. */
function goJson(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}
