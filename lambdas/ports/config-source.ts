/** One checked-out config source: every file under the source root, keyed by posix path ("cluster/cluster.yaml"). */
export interface ConfigSnapshot {
  readonly sourceName: string;
  /** Git: the commit SHA. Directory: a hash of the content. */
  readonly version: string;
  readonly files: ReadonlyMap<string, string>;
}

/** A config source from `--config-source NAME:git:URL` or `NAME:dir:PATH` (CLM §3.1). */
export interface ConfigSource {
  readonly name: string;
  readonly kind: 'git' | 'dir';
  /** Where it comes from, for messages (URL or path; never a token). */
  readonly location: string;
  /** Resolve a channel (branch, tag, SHA) to a version id. Directories ignore the channel. */
  resolveVersion(channel: string): Promise<string>;
  /** The files at a version returned by `resolveVersion`. */
  checkout(version: string): Promise<ConfigSnapshot>;
  /**
   * Git only: every branch and tag head (`refs/heads/x`, `refs/tags/y`, annotated tags peeled to their commit), as
   * `git ls-remote` lists them: one request to the server (its smart-HTTP ref advertisement), nothing fetched.
   */
  listHeads?(): Promise<ReadonlyMap<string, string>>;
}
