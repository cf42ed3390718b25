import * as z from '../shared/zod';
import { VcpuFigures } from './aws/vcpu-quota';

/** What a scenario says a simulated account holds before CLM acts in it (scenario.ts `accounts`). */

const stringMap = z.record(z.string(), z.string());

/** An ISSUED ACM certificate of a simulated account (publicly trusted: it verifies for the names it covers). */
export const CertificateSpec = z.strictObject({
  /** Its subject's common name first, then the other names, as ACM lists them (`*.example.org`, `example.org`). */
  domains: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  arn: z.optional(z.string().check(z.regex(/^arn:aws:acm:/))),
  /** @default 30 days before the world's start */
  notBefore: z.optional(z.iso.datetime()),
  /** @default 365 days after the world's start */
  notAfter: z.optional(z.iso.datetime()),
});
export type CertificateSpec = z.infer<typeof CertificateSpec>;

/** What an account has before CLM acts in it. */
export const AccountScenario = z.strictObject({
  account: z.string().check(z.regex(/^\d{12}$/, 'expected a 12-digit account id')),
  region: z.string().check(z.minLength(1)),
  /**
   * Stacks deployed by other means (kubernetes-on-aws's etcd pre-stack: the key `alias/etcd-cluster` names, say):
   * CREATE_COMPLETE when the world starts. `template` is the template's text.
   */
  stacks: z._default(
    z.array(
      z.strictObject({
        name: z.string().check(z.minLength(1)),
        template: z.string().check(z.minLength(1)),
        tags: z._default(stringMap, {}),
      }),
    ),
    [],
  ),
  /**
   * The account's ISSUED ACM certificates (`load_balancer_certificate`), then the only ones; without this list the
   * account holds one for `*.<zone>` and `<zone>` of each cluster's API server host.
   */
  certificates: z.optional(z.array(CertificateSpec)),
  /**
   * The account's On-Demand vCPU limits per Service Quotas code (`L-1216C47A: 640`), over the scenario's
   * `quotas.onDemandVcpus`: a launch that would go over is refused with VcpuLimitExceeded (aws/vcpu-quota.ts).
   */
  vcpuQuotas: z.optional(VcpuFigures),
  /** vCPUs per quota code the account's other instances hold (workloads the world does not model). */
  vcpusUsedElsewhere: z.optional(VcpuFigures),
  /**
   * Service Quotas answers GetServiceQuota for these codes with NoSuchResourceException, or with AccessDeniedException
   * for every code when `'*'` is listed: what a role without the right, or a region without the quota, sees.
   */
  unreadableQuotas: z.optional(z.array(z.string().check(z.minLength(1)))),
});
export type AccountScenario = z.infer<typeof AccountScenario>;
