/**
 * The config repository the deployed app follows: the integration suite's copy of examples/config, committed to a
 * bare repository `acme/cluster-config.git` served by git's smart-HTTP backend on 127.0.0.1 (the Lambdas, local
 * processes of the emulator, clone it as they would clone GitHub). A push to GitHub for Acme/cluster-config matches
 * it: CLM matches repositories by their path.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createBareRepo, startGitServer, type GitServer, type TestRepo } from '../../support/git-server';
import { exampleConfigForIntegration } from '../../integration/support/example-config';

export interface ConfigRepository {
  readonly repo: TestRepo;
  readonly server: GitServer;
  /** `http://127.0.0.1:PORT/acme/cluster-config.git` */
  readonly url: string;
  /** The files of the first commit (relative path → content), to change in later ones. */
  readonly files: Readonly<Record<string, string>>;
}

function filesUnder(dir: string, root = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) Object.assign(files, filesUnder(path, root));
    else files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

export async function startConfigRepository(): Promise<ConfigRepository> {
  const root = mkdtempSync(join(tmpdir(), 'clm-deployed-git-'));
  mkdirSync(join(root, 'acme'));
  const repo = createBareRepo(join(root, 'acme'), 'cluster-config');
  const files = filesUnder(exampleConfigForIntegration());
  repo.commit(files, 'cluster config');
  const server = await startGitServer({ projectRoot: root });
  return { repo, server, url: `${server.url}/acme/cluster-config.git`, files };
}
