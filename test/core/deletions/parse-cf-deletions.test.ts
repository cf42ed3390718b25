import { parseCfDeletions } from '../../../lambdas/core/deletions/parse-cf-deletions';
import { ValidationError } from '../../../lambdas/shared/errors';

const FILE = 'main/cluster/cf-manifests/cf-deletions.yaml';

describe('parseCfDeletions', () => {
  it('parses pre_apply and post_apply lists of stack names', () => {
    expect(
      parseCfDeletions('pre_apply:\n  - stackName: a\npost_apply:\n  - stackName: b\n  - stackName: c\n', FILE),
    ).toEqual({
      preApply: [{ stackName: 'a' }],
      postApply: [{ stackName: 'b' }, { stackName: 'c' }],
    });
  });

  it('accepts an empty file', () => {
    expect(parseCfDeletions('', FILE)).toEqual({ preApply: [], postApply: [] });
  });

  it('reports every problem with file and entry index', () => {
    let error: unknown;
    try {
      parseCfDeletions(
        'pre_apply:\n  - {}\n  - stackName: [x]\n  - {stackName: ok, tags: {a: b}}\n  - name-only\nlater: []\n',
        FILE,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      `${FILE}: unknown key "later" (allowed: pre_apply, post_apply)`,
      `${FILE}: pre_apply[0]: stackName is required`,
      `${FILE}: pre_apply[1]: stackName must be a string, found a list`,
      `${FILE}: pre_apply[2]: unknown field "tags" (only stackName is supported)`,
      `${FILE}: pre_apply[3]: expected a mapping with stackName, found a string`,
    ]);
  });
});
