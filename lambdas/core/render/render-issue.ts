import {
  ClmError,
  ConfigError,
  ERROR_NAMES,
  TemplateRenderError,
  ValidationError,
  isRetryable,
} from '../../shared/errors';

/**
 * One problem found while rendering. A render goes on after a problem (every broken file is reported in
 * one pass); the state machine's tasks turn a non-empty list into a terminal error with `throwIfIssues`.
 * Plain data, so it travels in JSON output and artefacts.
 */
export interface RenderIssue {
  /** The error class name, e.g. TemplateRenderError, ValidationError, ConfigError. */
  readonly error: string;
  /** Full message, already naming file, line and field where known. */
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
}

/** A thrown error as an issue. Retryable errors (throttling, a KMS hiccup) are not issues: they are rethrown. */
export function toIssue(error: unknown, file?: string): RenderIssue {
  if (isRetryable(error)) throw error;
  if (error instanceof ClmError) {
    const where = error.location?.file ?? file;
    const message = error.location?.file || !file ? error.message : `${file}: ${error.message}`;
    return {
      error: error.name,
      message,
      ...(where ? { file: where } : {}),
      ...(error.location?.line ? { line: error.location.line } : {}),
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { error: ERROR_NAMES.ConfigError, message: file ? `${file}: ${text}` : text, ...(file ? { file } : {}) };
}

/** Run one step; on failure record the issue and give undefined, so the caller renders the rest. */
export async function collecting<T>(
  issues: RenderIssue[],
  file: string | undefined,
  step: () => Promise<T> | T,
): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    issues.push(toIssue(error, file));
    return undefined;
  }
}

/** For the state machine: any issue fails the task with a terminal error of the first issue's kind, listing all. */
export function throwIfIssues(issues: readonly RenderIssue[], what: string): void {
  if (!issues.length) return;
  const message =
    issues.length === 1
      ? `${what}: ${issues[0].message}`
      : `${what}: ${issues.length} problems\n  - ${issues.map((i) => i.message.replaceAll('\n', '\n    ')).join('\n  - ')}`;
  switch (issues[0].error) {
    case ERROR_NAMES.TemplateRenderError:
      throw new TemplateRenderError(message);
    case ERROR_NAMES.ValidationError:
      throw new ValidationError(message);
    default:
      throw new ConfigError(message);
  }
}
