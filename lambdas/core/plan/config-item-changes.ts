import type { ConfigItems } from '../model/cluster';

export interface ConfigItemChange {
  readonly item: string;
  readonly before?: string;
  readonly after?: string;
}

/** Encrypted values are shown as such, never their ciphertext (which changes on every encryption). */
function shown(value: string | undefined): string | undefined {
  return value?.startsWith('aws:kms:') ? '(encrypted value)' : value;
}

/** Config items that differ between the version the cluster runs and the target version, by name. */
export function configItemChanges(current: ConfigItems, target: ConfigItems): ConfigItemChange[] {
  const names = [...new Set([...Object.keys(current), ...Object.keys(target)])].sort();
  return names
    .filter((name) => current[name] !== target[name])
    .map((item) => {
      const before = shown(current[item]);
      const after = shown(target[item]);
      return { item, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
    });
}
