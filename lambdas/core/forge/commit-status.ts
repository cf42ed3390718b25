import type { ConfigSourceSpec } from '../model/config-source-spec';
import { repositoryPath } from '../webhook/push-match';
import { repositoryHost } from './forge-hosts';

/** GitHub's commit status states (REST "Create a commit status"). */
export type CommitState = 'pending' | 'success' | 'failure' | 'error';

/** One commit status to set: a context per cluster on the commit of each config source the update applied. */
export interface CommitStatus {
  /** `owner/name`, from the config source's URL: its last two path segments. */
  readonly repository: string;
  /** The whole repository path (GitLab's `group/subgroup/name`). */
  readonly project: string;
  /** The config source URL's host (routes the status to its forge); empty for a local path. */
  readonly host: string;
  readonly sha: string;
  readonly state: CommitState;
  /** `clm/<cluster alias>`. */
  readonly context: string;
  /** At most DESCRIPTION_MAX characters (GitHub refuses longer ones). */
  readonly description: string;
  readonly targetUrl?: string;
}

/** GitHub refuses a description over 140 characters (422). */
export const DESCRIPTION_MAX = 140;

/** The commit status context of a cluster. */
export function statusContext(alias: string): string {
  return `clm/${alias}`;
}

/** A cluster-update execution's status as a commit state: RUNNING pending, SUCCEEDED success, ABORTED error, else failure. */
export function commitState(executionStatus: string): CommitState {
  switch (executionStatus) {
    case 'RUNNING':
      return 'pending';
    case 'SUCCEEDED':
      return 'success';
    case 'ABORTED':
      return 'error';
    default:
      return 'failure';
  }
}

const FULL_SHA = /^[0-9a-f]{40}$/i;

/** A commit of a git config source a config version names, and the `owner/name` its URL ends in. */
export interface VersionCommit {
  readonly source: string;
  readonly repository: string;
  /** The whole path of the URL (`group/subgroup/name` on GitLab). */
  readonly project: string;
  readonly host: string;
  readonly sha: string;
}

/**
 * The commits of a config version (`<sha>` for one source; `name=<id>;…` for several; a `stack=` entry and directory
 * hashes are not commits): each with the repository of its git source. Sources whose URL has fewer than two path
 * segments have no `owner/name` and are left out.
 */
export function versionCommits(configVersion: string, sources: readonly ConfigSourceSpec[]): VersionCommit[] {
  const config = configVersion.split('#')[0];
  const entries = config.includes('=')
    ? config.split(';').flatMap((entry) => {
        const at = entry.indexOf('=');
        return at > 0 ? [[entry.slice(0, at), entry.slice(at + 1)] as const] : [];
      })
    : sources.length
      ? [[sources[0].name, config] as const]
      : [];
  return entries.flatMap(([name, id]) => {
    const source = sources.find((s) => s.name === name);
    if (!source || source.kind !== 'git' || !FULL_SHA.test(id)) return [];
    const path = repositoryPath(source.location);
    if (path.length < 2) return [];
    return [
      {
        source: name,
        repository: path.slice(-2).join('/'),
        project: path.join('/'),
        host: repositoryHost(source.location),
        sha: id.toLowerCase(),
      },
    ];
  });
}

/** Where a status links: the Step Functions console for an execution in AWS; none for a local one. */
export function executionLink(executionArn: string | undefined): string | undefined {
  const match = /^arn:(aws[\w-]*):states:([\w-]+):\d{12}:execution:/.exec(executionArn ?? '');
  if (!match) return undefined;
  const [, partition, region] = match;
  const host =
    partition === 'aws-cn'
      ? 'console.amazonaws.cn'
      : partition === 'aws-us-gov'
        ? 'console.amazonaws-us-gov.com'
        : 'console.aws.amazon.com';
  return `https://${region}.${host}/states/home?region=${region}#/v2/executions/details/${executionArn}`;
}

/** What the status says, cut to DESCRIPTION_MAX. */
export function statusDescription(input: {
  readonly state: CommitState;
  readonly action: string;
  readonly executionName: string;
  readonly clusterId: string;
  readonly error?: string;
  /** No link (a local run): say how to look. */
  readonly local: boolean;
}): string {
  const what = input.action === 'decommission' ? 'decommission' : 'update';
  const verb = {
    pending: `${what} running`,
    success: `${what} succeeded`,
    failure: `${what} failed${input.error ? `: ${input.error}` : ''}`,
    error: `${what} stopped`,
  }[input.state];
  const hint = input.local ? ` · clm status --cluster ${input.clusterId}` : ` · ${input.executionName}`;
  return clip(`${verb}${hint}`, DESCRIPTION_MAX);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
