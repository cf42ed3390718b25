import { collecting, throwIfIssues, toIssue } from '../../../lambdas/core/render/render-issue';
import { ConfigError, StackBusyError, TemplateRenderError, ValidationError } from '../../../lambdas/shared/errors';

describe('render issues', () => {
  it('keeps file and line of located errors', () => {
    const issue = toIssue(
      new TemplateRenderError('"x" is not defined', { location: { file: 'main/a.yaml', line: 3 } }),
    );
    expect(issue).toEqual({
      error: 'TemplateRenderError',
      file: 'main/a.yaml',
      line: 3,
      message: 'main/a.yaml:3: "x" is not defined',
    });
  });

  it('names the given file for errors without a location', () => {
    expect(toIssue(new Error('boom'), 'main/b.yaml')).toEqual({
      error: 'ConfigError',
      file: 'main/b.yaml',
      message: 'main/b.yaml: boom',
    });
    expect(toIssue(new ConfigError('bad'), 'main/b.yaml')).toEqual({
      error: 'ConfigError',
      file: 'main/b.yaml',
      message: 'main/b.yaml: bad',
    });
  });

  it('rethrows retryable errors instead of recording them', async () => {
    const issues: never[] = [];
    await expect(
      collecting(issues, 'f', () => {
        throw new StackBusyError('busy');
      }),
    ).rejects.toBeInstanceOf(StackBusyError);
    expect(issues).toEqual([]);
  });

  it('records a failure and gives undefined, or gives the result', async () => {
    const issues: ReturnType<typeof toIssue>[] = [];
    expect(await collecting(issues, 'f', async () => 42)).toBe(42);
    expect(
      await collecting(issues, 'f', () => {
        throw new ConfigError('no');
      }),
    ).toBeUndefined();
    expect(issues).toHaveLength(1);
  });

  it('throws a terminal error of the first kind listing every issue', () => {
    expect(() => throwIfIssues([], 'x')).not.toThrow();
    const issues = [
      { error: 'ValidationError', message: 'a.yaml: pre_apply[0]: bad' },
      { error: 'ConfigError', message: 'b.yaml: missing' },
    ];
    expect(() => throwIfIssues(issues, 'Rendering kube-1')).toThrow(ValidationError);
    expect(() => throwIfIssues(issues, 'Rendering kube-1')).toThrow(
      'Rendering kube-1: 2 problems\n  - a.yaml: pre_apply[0]: bad\n  - b.yaml: missing',
    );
    expect(() => throwIfIssues([{ error: 'TemplateRenderError', message: 'c' }], 'R')).toThrow(TemplateRenderError);
  });
});
