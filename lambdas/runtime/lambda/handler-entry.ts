import { relative } from 'node:path';
import { taskFileName, type AnyTask, type PortName } from '../../tasks/define-task';
import { PORT_MODULES, type PortModuleName } from './port-modules';

/** Where the task and runtime sources live, and where the generated entry will be written. */
export interface EntryPaths {
  /** The repository's `lambdas/` directory. */
  readonly lambdasDir: string;
  /** The directory of the generated entry file. */
  readonly entryDir: string;
}

/** The port modules a task's entry loads, in a stable order. */
export function portModulesOf(task: AnyTask): PortModuleName[] {
  return [...new Set(Object.keys(task.ports).map((name) => PORT_MODULES[name as PortName]))].sort();
}

/**
 * The source of a task's Lambda entry: its task file, the handler wrapper, and an `import()` per port module it
 * needs. Generated (by infra at synth, by the bundle tests), never written by hand: adding a task needs no entry file.
 */
export function handlerEntrySource(task: AnyTask, paths: EntryPaths): string {
  const from = (path: string) => {
    const spec = relative(paths.entryDir, `${paths.lambdasDir}/${path}`).split('\\').join('/');
    return JSON.stringify(spec.startsWith('.') ? spec : `./${spec}`);
  };
  const loaders = portModulesOf(task).map((module) => `  () => import(${from(`runtime/lambda/ports/${module}`)}),`);
  return [
    `// Generated from the task catalogue (lambdas/runtime/lambda/handler-entry.ts): the Lambda entry of ${task.name}.`,
    `import { task } from ${from(`tasks/${taskFileName(task.name)}`)};`,
    `import { lambdaHandler } from ${from('runtime/lambda/lambda-handler')};`,
    '',
    'export const handler = lambdaHandler(task, [',
    ...loaders,
    ']);',
    '',
  ].join('\n');
}
