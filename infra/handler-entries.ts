import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handlerEntrySource } from '../lambdas/runtime/lambda/handler-entry';
import { taskFileName, type AnyTask } from '../lambdas/tasks/define-task';

/** Where synth writes the generated Lambda entries (inside the project root, as NodejsFunction requires; git-ignored). */
export const ENTRY_DIR = join('.build', 'handlers');

/**
 * Write the Lambda entry of a task (lambdas/runtime/lambda/handler-entry.ts says what it holds) and return its path.
 * The file is rewritten only when its content changes, so repeated synths keep their asset hashes.
 */
export function writeHandlerEntry(task: AnyTask, repoRoot: string): string {
  const dir = join(repoRoot, ENTRY_DIR);
  const file = join(dir, `${taskFileName(task.name)}.ts`);
  const source = handlerEntrySource(task, { lambdasDir: join(repoRoot, 'lambdas'), entryDir: dir });
  if (!existsSync(file) || readFileSync(file, 'utf8') !== source) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, source);
  }
  return file;
}
