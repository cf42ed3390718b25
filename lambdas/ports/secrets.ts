/** Decrypts `aws:kms:<base64>` config items (CLM §10.5). */
export interface SecretDecrypter {
  decrypt(ciphertextBase64: string): Promise<string>;
}
