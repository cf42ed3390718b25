import type { Problem } from '../model/cluster';
import { redactSecrets } from '../../shared/redact';

export const MAX_PROBLEMS = 25;
export const GENERAL_ERROR_TYPE = 'https://cluster-lifecycle-manager.zalando.org/problems/general-error';
export const TOO_MANY_PROBLEMS_TYPE = 'https://cluster-lifecycle-manager.zalando.org/problems/too-many-problems';

/**
 * Append a problem as CLM does (§9.4): a problem equal to the last one is not repeated; when more than 25
 * remain, the last 25 are kept and the first of those becomes "<multiple problems>".
 */
export function appendProblem(problems: readonly Problem[], recorded: Problem): Problem[] {
  const problem = redactProblem(recorded);
  const last = problems[problems.length - 1];
  const next = last && sameProblem(last, problem) ? [...problems] : [...problems, problem];
  if (next.length <= MAX_PROBLEMS) return next;
  const kept = next.slice(next.length - MAX_PROBLEMS);
  kept[0] = { type: TOO_MANY_PROBLEMS_TYPE, title: '<multiple problems>' };
  return kept;
}

/** What is recorded carries no secret (shared/redact.ts): problems are shown by `clm status` and the registry. */
function redactProblem(problem: Problem): Problem {
  return {
    ...problem,
    title: redactSecrets(problem.title),
    ...(problem.detail !== undefined ? { detail: redactSecrets(problem.detail) } : {}),
  };
}

function sameProblem(a: Problem, b: Problem): boolean {
  return (
    a.type === b.type &&
    a.title === b.title &&
    a.detail === b.detail &&
    a.status === b.status &&
    a.instance === b.instance
  );
}

/** CLM's general-error problem: the title is the error's first line; multi-line messages go to `detail`. */
export function problemFromError(error: { name?: string; message: string }, instance?: string): Problem {
  const [firstLine = error.message] = error.message.split('\n');
  const title = error.name && error.name !== 'Error' ? `${error.name}: ${firstLine}` : firstLine;
  return {
    type: GENERAL_ERROR_TYPE,
    title,
    ...(error.message.includes('\n') ? { detail: error.message } : {}),
    ...(instance ? { instance } : {}),
  };
}
