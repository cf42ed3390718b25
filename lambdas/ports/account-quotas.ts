/**
 * The cluster account's On-Demand vCPU quotas and what its instances hold of them (read only): what a rehearsal
 * compares a roll's surge with (core/capacity/vcpu-quotas.ts names the quota codes).
 */
export interface AccountQuotas {
  /**
   * Service Quotas GetServiceQuota (service `ec2`, the quota's code): the limit applied to the account, in vCPUs. A
   * quota that cannot be read (no right to, no such quota in the region, the service not answering) is `unknown`,
   * with why: never an error.
   */
  vcpuLimit(code: string): Promise<{ readonly limit: number } | { readonly unknown: string }>;
  /** vCPUs per quota code of the account's pending and running On-Demand instances (every instance of the region). */
  vcpusInUse(): Promise<Readonly<Record<string, number>>>;
}
