import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  configSourcesFromFlags,
  createConfigSources,
} from '../../../lambdas/adapters/config-source/create-config-sources';
import { DirectorySource } from '../../../lambdas/adapters/config-source/directory-source';
import { GitSource } from '../../../lambdas/adapters/config-source/git-source';
import { ConfigError, ValidationError } from '../../../lambdas/shared/errors';

describe('createConfigSources', () => {
  let cwd: string;

  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'clm-sources-'));
    mkdirSync(join(cwd, 'config'));
  });

  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('opens sources in flag order, directories relative to cwd', () => {
    const sources = configSourcesFromFlags(
      { configSources: ['main:git:https://github.com/org/kubernetes-on-aws.git', 'local:dir:config'] },
      { cwd, workdir: join(cwd, 'work') },
    );
    expect(sources.map((s) => [s.name, s.kind, s.location])).toEqual([
      ['main', 'git', 'https://github.com/org/kubernetes-on-aws.git'],
      ['local', 'dir', 'config'],
    ]);
    expect(sources[0]).toBeInstanceOf(GitSource);
    expect((sources[0] as GitSource).gitdir.startsWith(join(cwd, 'work'))).toBe(true);
    expect(sources[1]).toBeInstanceOf(DirectorySource);
  });

  it('makes --directory a source named main', () => {
    const [source] = configSourcesFromFlags({ directory: 'config' }, { cwd });
    expect([source.name, source.kind]).toEqual(['main', 'dir']);
  });

  it('refuses a directory that does not exist, at once', () => {
    expect(() => createConfigSources([{ name: 'x', kind: 'dir', location: 'nope' }], { cwd })).toThrow(ConfigError);
    expect(() => createConfigSources([{ name: 'x', kind: 'dir', location: 'nope' }], { cwd })).toThrow(
      /^config source x: nope \(.*nope\) is not a directory$/,
    );
  });

  it('refuses ssh git URLs', () => {
    expect(() => configSourcesFromFlags({ configSources: ['main:git:git@github.com:org/repo.git'] }, { cwd })).toThrow(
      /is not an http\(s\) or file:\/\/ URL; ssh is not supported/,
    );
  });

  it('passes flag errors through as usage errors', () => {
    expect(() => configSourcesFromFlags({ directory: 'config', configSources: ['a:dir:config'] }, { cwd })).toThrow(
      ValidationError,
    );
  });
});
