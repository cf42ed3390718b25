// `clm migrate`'s implementation, loaded by its action (migrate.ts declares the command).
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { migrateFile } from '../../core/migrate/migrate-file';
import type { MigrationOutcome } from '../../core/migrate/migrate-file';
import { jsonReport, markdownReport, refusalLine, summarize, summaryLine } from '../../core/migrate/migrate-report';
import { EXIT, UsageError } from '../io';
import type { CliIo, ExitCode } from '../io';
import type { MigrateOptions } from './migrate';

export async function runMigrate(options: MigrateOptions, io: CliIo): Promise<ExitCode> {
  const from = resolve(io.cwd, options.from);
  const to = resolve(io.cwd, options.to);
  checkDirectories(from, to);
  const outcomes: MigrationOutcome[] = [];
  for (const path of await filesUnder(from)) outcomes.push(await migrateOne(from, to, path));

  const summary = summarize(outcomes);
  io.stdout(`${options.from} → ${options.to}: ${summaryLine(summary)}\n`);
  for (const outcome of outcomes) if (outcome.action === 'refused') io.stdout(`  refused ${refusalLine(outcome)}\n`);
  if (options.report) {
    const report = resolve(io.cwd, options.report);
    const text = report.endsWith('.json') ? jsonReport(outcomes, from, to) : markdownReport(outcomes, from, to);
    await mkdir(dirname(report), { recursive: true });
    await writeFile(report, text);
    io.stdout(`report written to ${options.report}\n`);
  }
  return summary.refused > 0 ? EXIT.FAILED : EXIT.OK;
}

function checkDirectories(from: string, to: string): void {
  if (!existsSync(from) || !lstatSync(from).isDirectory()) throw new UsageError(`--from ${from} is not a directory`);
  if (!existsSync(join(from, 'cluster')))
    throw new UsageError(`--from ${from} has no cluster/ directory: pass the root of the CLM config repository`);
  if (existsSync(to) && (!lstatSync(to).isDirectory() || readdirSync(to).length > 0))
    throw new UsageError(`--to ${to} exists and is not an empty directory; nothing is overwritten`);
  if (to === from || to.startsWith(from + sep)) throw new UsageError('--to must not be inside --from');
}

/** Every file and symbolic link under `root` (`/`-separated, sorted), without `.git`. */
async function filesUnder(root: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(full);
      else files.push(relative(root, full).split(sep).join('/'));
    }
  };
  await walk(root);
  return files.sort();
}

async function migrateOne(from: string, to: string, path: string): Promise<MigrationOutcome> {
  const source = join(from, ...path.split('/'));
  const target = join(to, ...path.split('/'));
  await mkdir(dirname(target), { recursive: true });
  const stat = lstatSync(source);
  if (stat.isSymbolicLink()) {
    const link = await readlink(source);
    // A link out of the repository would point, from --to, at whatever is there; a directory source refuses it.
    const pointsAt = resolve(dirname(source), link);
    if (pointsAt !== from && !pointsAt.startsWith(from + sep))
      return { path, action: 'refused', reason: `symbolic link to ${link}, outside the repository: not copied` };
    await symlink(link, target);
    return { path, action: 'copied', reason: 'symbolic link' };
  }
  const bytes = await readFile(source);
  const text = bytes.toString('utf8');
  const outcome = migrateFile(path, Buffer.from(text, 'utf8').equals(bytes) ? text : undefined);
  await writeFile(target, outcome.action === 'converted' ? outcome.content : bytes);
  await chmod(target, stat.mode & 0o777);
  return outcome;
}
