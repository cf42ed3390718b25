import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import {
  certificateExpiry,
  generateJWKSDocument,
  generateOIDCDiscoveryDocument,
  publicKey,
} from '../../../lambdas/core/template-helpers/crypto-docs';

/** A self-signed EC certificate made for this test with openssl (notAfter Nov 19 10:42:02 2036 GMT). */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBfDCCASGgAwIBAgIUO/uRL4sAb1+jLnDn5BU01shzhPkwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIY2xtLXRlc3QwHhcNMjYxMTIyMTA0MjAyWhcNMzYxMTE5MTA0
MjAyWjATMREwDwYDVQQDDAhjbG0tdGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABLMZ7K7SKQfk50HISiTlJKq7NauEpNCZQLjgFQ4FB2HPE+J3xmuEBj94qxIj
MVKMIIfQlR9S1pRa4pGdhJYntoijUzBRMB0GA1UdDgQWBBSQHBclQBPHFn/KRjyh
CXYmIG3HAjAfBgNVHSMEGDAWgBSQHBclQBPHFn/KRjyhCXYmIG3HAjAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQCYWADyqLmFg2vkX4A53t4aF0da
BRZDlucqUjyOb5wfrwIhALJu5Ak7JMmOdJUXrHmV8B9PBRbxe1h9pgZRoT7SIlMZ
-----END CERTIFICATE-----
`;

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PUBLIC_PEM = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const RSA_PRIVATE_PKCS1_PEM = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

describe('publicKey', () => {
  it('turns a PKCS#1 RSA private key into its PKIX public key PEM, 64-column lines and a final newline', () => {
    // Act
    const pem = publicKey(RSA_PRIVATE_PKCS1_PEM);
    // Assert
    expect(pem).toBe(RSA_PUBLIC_PEM);
    expect(pem.startsWith('-----BEGIN PUBLIC KEY-----\n')).toBe(true);
    expect(pem.endsWith('-----END PUBLIC KEY-----\n')).toBe(true);
    expect(
      pem
        .split('\n')
        .slice(1, -3)
        .every((line) => line.length === 64),
    ).toBe(true);
  });

  it('fails for a PKCS#8 key, as Go x509.ParsePKCS1PrivateKey does', () => {
    const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => publicKey(pkcs8)).toThrow('not a PKCS#1 RSA private key');
  });

  it('fails without PEM data', () => {
    expect(() => publicKey('garbage')).toThrow('no PEM data found in the private key');
  });
});

describe('certificateExpiry', () => {
  it("gives the certificate's NotAfter in RFC 3339, UTC, without fractions", () => {
    expect(certificateExpiry(CERTIFICATE)).toBe('2036-11-19T10:42:02Z');
  });

  it('reads the first PEM block of a bundle', () => {
    expect(certificateExpiry(`${CERTIFICATE}${RSA_PUBLIC_PEM}`)).toBe('2036-11-19T10:42:02Z');
  });

  it('fails for a key that is not a certificate', () => {
    expect(() => certificateExpiry(RSA_PUBLIC_PEM)).toThrow('not an X.509 certificate');
  });
});

describe('generateJWKSDocument', () => {
  it('lists the RSA key twice: kid = base64url(SHA-256 of the DER), RS256, sig; the second with an empty kid', () => {
    // Arrange
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    const expectedKid = createHash('sha256').update(der).digest('base64url');
    const jwk = rsa.publicKey.export({ format: 'jwk' });
    // Act
    const document = generateJWKSDocument(RSA_PUBLIC_PEM);
    // Assert
    const parsed = JSON.parse(document) as { keys: Record<string, string>[] };
    expect(parsed.keys).toEqual([
      { alg: 'RS256', e: jwk.e, kid: expectedKid, kty: 'RSA', n: jwk.n, use: 'sig' },
      { alg: 'RS256', e: jwk.e, kid: '', kty: 'RSA', n: jwk.n, use: 'sig' },
    ]);
    expect(expectedKid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("is indented with four spaces and keys sorted, as Go's MarshalIndent of a map", () => {
    const document = generateJWKSDocument(RSA_PUBLIC_PEM);
    const firstKey = document.split('\n').slice(0, 10);
    expect(firstKey[0]).toBe('{');
    expect(firstKey[1]).toBe('    "keys": [');
    expect(firstKey[2]).toBe('        {');
    expect(firstKey.slice(3, 9).map((line) => line.trim().split('"')[1])).toEqual([
      'alg',
      'e',
      'kid',
      'kty',
      'n',
      'use',
    ]);
  });

  it('gives a kid that verifies against the key (a JWT consumer finds it)', () => {
    const { keys } = JSON.parse(generateJWKSDocument(RSA_PUBLIC_PEM)) as { keys: { n: string; e: string }[] };
    const key = createPublicKey({ key: { kty: 'RSA', n: keys[0]!.n, e: keys[0]!.e }, format: 'jwk' });
    expect(key.export({ type: 'spki', format: 'pem' })).toBe(RSA_PUBLIC_PEM);
  });

  it('fails for a key that is not RSA', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(() => generateJWKSDocument(ec.publicKey.export({ type: 'spki', format: 'pem' }))).toThrow(
      'Public key was not RSA',
    );
  });
});

describe('generateOIDCDiscoveryDocument', () => {
  it("has CLM's fields in CLM's order", () => {
    const doc = generateOIDCDiscoveryDocument('https://kube-1.example.org');
    expect(JSON.parse(doc)).toEqual({
      issuer: 'https://kube-1.example.org',
      authorization_endpoint: 'urn:kubernetes:programmatic_authorization',
      jwks_uri: 'https://kube-1.example.org/openid-configuration/keys.json',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['sub', 'iss'],
    });
    expect(Object.keys(JSON.parse(doc))).toEqual([
      'issuer',
      'authorization_endpoint',
      'jwks_uri',
      'response_types_supported',
      'subject_types_supported',
      'id_token_signing_alg_values_supported',
      'claims_supported',
    ]);
  });

  it("escapes <, > and & as Go's encoder does", () => {
    expect(generateOIDCDiscoveryDocument('https://a.org/?x=1&y=<2>')).toContain(
      '"issuer": "https://a.org/?x=1\\u0026y=\\u003c2\\u003e"',
    );
  });
});
