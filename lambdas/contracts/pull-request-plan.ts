import * as z from '../shared/zod';

/**
 * `action: plan` of a pull request (started by the dispatcher on a pull_request webhook): the config versions of the
 * PR's head to plan instead of what the channels resolve to, and where the plan is reported (one comment on the PR).
 */
export const PullRequestPlan = z.object({
  /** `owner/name`. */
  repository: z.string().check(z.minLength(1)),
  number: z.number().check(z.int(), z.positive()),
  /** The head commit planned. */
  head: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
  /** The base branch (`main`), whose clusters are planned. */
  base: z.string(),
  /** The config version planned (`<sha>`, or `name=<id>;…` for several sources) and each source's version. */
  configVersion: z.string().check(z.minLength(1)),
  sourceVersions: z.record(z.string(), z.string()),
  /** Every cluster planned for this head (the first 50), so the comment covers them all. */
  clusters: z.array(z.string()),
  /** The pull request's page. */
  url: z.optional(z.string()),
});
export type PullRequestPlan = z.infer<typeof PullRequestPlan>;
