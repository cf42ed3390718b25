import * as z from 'zod';

/** What a scenario says a simulated account holds before CLM acts in it (scenario.ts `accounts`). */

const stringMap = z.record(z.string(), z.string());

/** An ISSUED ACM certificate of a simulated account (publicly trusted: it verifies for the names it covers). */
export const CertificateSpec = z
  .object({
    /** Its subject's common name first, then the other names, as ACM lists them (`*.example.org`, `example.org`). */
    domains: z.array(z.string().min(1)).min(1),
    arn: z
      .string()
      .regex(/^arn:aws:acm:/)
      .optional(),
    /** @default 30 days before the world's start */
    notBefore: z.iso.datetime().optional(),
    /** @default 365 days after the world's start */
    notAfter: z.iso.datetime().optional(),
  })
  .strict();
export type CertificateSpec = z.infer<typeof CertificateSpec>;

/** What an account has before CLM acts in it. */
export const AccountScenario = z
  .object({
    account: z.string().regex(/^\d{12}$/, 'expected a 12-digit account id'),
    region: z.string().min(1),
    /**
     * Stacks deployed by other means (kubernetes-on-aws's etcd pre-stack: the key `alias/etcd-cluster` names, say):
     * CREATE_COMPLETE when the world starts. `template` is the template's text.
     */
    stacks: z
      .array(z.object({ name: z.string().min(1), template: z.string().min(1), tags: stringMap.default({}) }).strict())
      .default([]),
    /**
     * The account's ISSUED ACM certificates (`load_balancer_certificate`), then the only ones; without this list the
     * account holds one for `*.<zone>` and `<zone>` of each cluster's API server host.
     */
    certificates: z.array(CertificateSpec).optional(),
  })
  .strict();
export type AccountScenario = z.infer<typeof AccountScenario>;
