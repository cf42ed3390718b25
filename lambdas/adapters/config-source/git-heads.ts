import * as fs from 'node:fs';
import type IsomorphicGit from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';

/**
 * A remote's branch and tag heads from its smart-HTTP ref advertisement, as `git ls-remote` lists them: protocol
 * version 1 (one GET of `info/refs?service=git-upload-pack`; version 2 takes a second request), annotated tags peeled.
 */
export async function serverHeads(
  git: typeof IsomorphicGit,
  remote: { readonly http: HttpClient; readonly url: string; readonly headers: Record<string, string> },
): Promise<Map<string, string>> {
  const refs = await git.listServerRefs({
    http: remote.http,
    url: remote.url,
    headers: remote.headers,
    protocolVersion: 1,
    peelTags: true,
    onAuthFailure: () => ({ cancel: true }),
  });
  const heads = new Map<string, string>();
  for (const ref of refs) {
    if (ref.ref.startsWith('refs/heads/') || ref.ref.startsWith('refs/tags/'))
      heads.set(ref.ref, ref.peeled ?? ref.oid);
  }
  return heads;
}

/** A repository on this machine: its own branches and tags, tags peeled with `peel`. */
export async function localHeads(
  git: typeof IsomorphicGit,
  gitdir: string,
  peel: (oid: string, tag: string) => Promise<string>,
): Promise<Map<string, string>> {
  const heads = new Map<string, string>();
  for (const branch of await git.listBranches({ fs, gitdir })) {
    heads.set(`refs/heads/${branch}`, await git.resolveRef({ fs, gitdir, ref: `refs/heads/${branch}` }));
  }
  for (const tag of await git.listTags({ fs, gitdir })) {
    heads.set(`refs/tags/${tag}`, await peel(await git.resolveRef({ fs, gitdir, ref: `refs/tags/${tag}` }), tag));
  }
  return heads;
}
