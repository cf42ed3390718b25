import { parseConfigSourceFlag, parseConfigSourceFlags } from '../../../lambdas/core/model/config-source-spec';
import { ValidationError } from '../../../lambdas/shared/errors';

describe('parseConfigSourceFlag', () => {
  it('splits on the first two colons only, so URLs keep theirs', () => {
    expect(parseConfigSourceFlag('main:git:https://user@github.com:443/org/repo.git')).toEqual({
      name: 'main',
      kind: 'git',
      location: 'https://user@github.com:443/org/repo.git',
    });
  });

  it('accepts dir and its alias directory', () => {
    expect(parseConfigSourceFlag('local:dir:./config')).toEqual({ name: 'local', kind: 'dir', location: './config' });
    expect(parseConfigSourceFlag('local:directory:/abs/c:d')).toEqual({
      name: 'local',
      kind: 'dir',
      location: '/abs/c:d',
    });
  });

  it.each([
    ['main', /expected NAME:git:URL or NAME:dir:PATH/],
    ['main:git', /expected NAME:git:URL or NAME:dir:PATH/],
    ['main:svn:https://x', /unknown source type "svn"; use git, dir or directory/],
    ['main:git:', /the URL is empty/],
    [':git:https://x', /the name "" must match/],
    ['a=b:git:https://x', /the name "a=b" must match/],
  ])('rejects %j', (flag, message) => {
    expect(() => parseConfigSourceFlag(flag)).toThrow(ValidationError);
    expect(() => parseConfigSourceFlag(flag)).toThrow(message);
  });
});

describe('parseConfigSourceFlags', () => {
  it('keeps flag order', () => {
    const specs = parseConfigSourceFlags({ configSources: ['b:dir:/b', 'a:git:https://x/a.git'] });
    expect(specs.map((s) => s.name)).toEqual(['b', 'a']);
  });

  it('turns --directory into one source named main', () => {
    expect(parseConfigSourceFlags({ directory: './cfg' })).toEqual([{ name: 'main', kind: 'dir', location: './cfg' }]);
  });

  it('refuses --directory together with --config-source', () => {
    expect(() => parseConfigSourceFlags({ directory: './cfg', configSources: ['a:dir:/a'] })).toThrow(
      /cannot be used together/,
    );
  });

  it('refuses duplicate names and no source at all', () => {
    expect(() => parseConfigSourceFlags({ configSources: ['a:dir:/a', 'a:dir:/b'] })).toThrow(
      /the name a is used twice/,
    );
    expect(() => parseConfigSourceFlags({})).toThrow(/at least one --config-source/);
  });
});
