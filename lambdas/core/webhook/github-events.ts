import * as z from '../../shared/zod';

/**
 * The parts of GitHub's webhook payloads CLM reads (docs.github.com, "Webhook events and payloads":
 * `push` and `ping`). Objects are loose: GitHub adds fields over time and they must not break us; only
 * what we read is required.
 */

const sha = z.string().check(z.regex(/^[0-9a-f]{40}$/i, 'must be a 40-character commit SHA'));

const owner = z.looseObject({
  login: z.optional(z.string()),
  name: z.nullish(z.string()),
});

export const GithubRepository = z.looseObject({
  id: z.number().check(z.int()),
  name: z.string().check(z.minLength(1)),
  /** `owner/name`. */
  full_name: z.string().check(z.regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name')),
  owner,
  html_url: z.optional(z.string()),
  clone_url: z.optional(z.string()),
  default_branch: z.optional(z.string()),
  /** Unix seconds in push payloads, an ISO date elsewhere. */
  pushed_at: z.nullish(z.union([z.number(), z.string()])),
});
export type GithubRepository = z.infer<typeof GithubRepository>;

const commit = z.looseObject({
  id: sha,
  message: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  url: z.optional(z.string()),
});

/** `X-GitHub-Event: push`. */
export const GithubPushEvent = z.looseObject({
  ref: z.string().check(z.regex(/^refs\//, 'must be a full ref name (refs/heads/…, refs/tags/…)')),
  before: sha,
  after: sha,
  created: z.optional(z.boolean()),
  deleted: z.optional(z.boolean()),
  forced: z.optional(z.boolean()),
  repository: GithubRepository,
  pusher: z.optional(z.looseObject({ name: z.optional(z.string()), email: z.nullish(z.string()) })),
  sender: z.optional(z.looseObject({ login: z.string() })),
  head_commit: z.nullish(commit),
  commits: z.optional(z.array(commit)),
});
export type GithubPushEvent = z.infer<typeof GithubPushEvent>;

/** `X-GitHub-Event: ping`, sent once when a webhook is created. Organization hooks carry no repository. */
export const GithubPingEvent = z.looseObject({
  zen: z.string(),
  hook_id: z.number().check(z.int()),
  hook: z.optional(
    z.looseObject({
      type: z.optional(z.string()),
      events: z.optional(z.array(z.string())),
      config: z.optional(z.looseObject({ content_type: z.optional(z.string()) })),
    }),
  ),
  repository: z.optional(GithubRepository),
});
export type GithubPingEvent = z.infer<typeof GithubPingEvent>;

/** The all-zero SHA GitHub sends as `after` when a push deletes the ref. */
export const DELETED_REF_SHA = '0000000000000000000000000000000000000000';

const prRef = z.looseObject({
  ref: z.string().check(z.minLength(1)),
  sha,
  repo: z.nullish(z.looseObject({ full_name: z.string() })),
});

/** `X-GitHub-Event: pull_request`: the actions a plan is made for, and the branches it joins. */
export const GithubPullRequestEvent = z.looseObject({
  action: z.string(),
  number: z.number().check(z.int(), z.positive()),
  pull_request: z.looseObject({
    number: z.number().check(z.int(), z.positive()),
    html_url: z.optional(z.string()),
    state: z.optional(z.string()),
    head: prRef,
    base: prRef,
  }),
  repository: GithubRepository,
});
export type GithubPullRequestEvent = z.infer<typeof GithubPullRequestEvent>;

/** The pull request actions that get a plan: a new head to plan. */
export const PLANNED_PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened'] as const;
