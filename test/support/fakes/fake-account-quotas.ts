import type { AccountQuotas } from '../../../lambdas/ports/account-quotas';

/** AccountQuotas with set limits and use; a code without a limit is unknown (as Service Quotas without the right). */
export class FakeAccountQuotas implements AccountQuotas {
  readonly calls: string[] = [];
  constructor(
    public limits: Record<string, number> = {},
    public inUse: Record<string, number> = {},
  ) {}

  async vcpuLimit(code: string): Promise<{ readonly limit: number } | { readonly unknown: string }> {
    this.calls.push(`vcpuLimit ${code}`);
    const limit = this.limits[code];
    return limit === undefined ? { unknown: `no limit set for ${code}` } : { limit };
  }

  async vcpusInUse(): Promise<Readonly<Record<string, number>>> {
    this.calls.push('vcpusInUse');
    return { ...this.inUse };
  }
}
