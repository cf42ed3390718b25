import * as z from 'zod';

/**
 * The parts of GitHub's webhook payloads CLM reads (docs.github.com, "Webhook events and payloads":
 * `push` and `ping`). Objects are loose: GitHub adds fields over time and they must not break us; only
 * what we read is required.
 */

const sha = z.string().regex(/^[0-9a-f]{40}$/i, 'must be a 40-character commit SHA');

const owner = z.looseObject({
  login: z.string().optional(),
  name: z.string().nullish(),
});

export const GithubRepository = z.looseObject({
  id: z.number().int(),
  name: z.string().min(1),
  /** `owner/name`. */
  full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
  owner,
  html_url: z.string().optional(),
  clone_url: z.string().optional(),
  default_branch: z.string().optional(),
  /** Unix seconds in push payloads, an ISO date elsewhere. */
  pushed_at: z.union([z.number(), z.string()]).nullish(),
});
export type GithubRepository = z.infer<typeof GithubRepository>;

const commit = z.looseObject({
  id: sha,
  message: z.string().optional(),
  timestamp: z.string().optional(),
  url: z.string().optional(),
});

/** `X-GitHub-Event: push`. */
export const GithubPushEvent = z.looseObject({
  ref: z.string().regex(/^refs\//, 'must be a full ref name (refs/heads/…, refs/tags/…)'),
  before: sha,
  after: sha,
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
  repository: GithubRepository,
  pusher: z.looseObject({ name: z.string().optional(), email: z.string().nullish() }).optional(),
  sender: z.looseObject({ login: z.string() }).optional(),
  head_commit: commit.nullish(),
  commits: z.array(commit).optional(),
});
export type GithubPushEvent = z.infer<typeof GithubPushEvent>;

/** `X-GitHub-Event: ping`, sent once when a webhook is created. Organization hooks carry no repository. */
export const GithubPingEvent = z.looseObject({
  zen: z.string(),
  hook_id: z.number().int(),
  hook: z
    .looseObject({
      type: z.string().optional(),
      events: z.array(z.string()).optional(),
      config: z.looseObject({ content_type: z.string().optional() }).optional(),
    })
    .optional(),
  repository: GithubRepository.optional(),
});
export type GithubPingEvent = z.infer<typeof GithubPingEvent>;

/** The all-zero SHA GitHub sends as `after` when a push deletes the ref. */
export const DELETED_REF_SHA = '0000000000000000000000000000000000000000';
