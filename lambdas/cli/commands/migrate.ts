/**
 * `clm migrate --from DIR --to DIR [--report FILE]`: copies a Zalando CLM config repository, converting its Go
 * templates to our handlebars dialect (core/migrate). Every file of --from arrives in --to: converted, or
 * unchanged (not a template, nothing to convert, or refused: then listed with line and reason). --to must be new
 * or empty, so nothing is overwritten.
 */
import type { Command } from 'commander';
import { CliExit, EXIT } from '../io';
import type { CliIo } from '../io';

export interface MigrateOptions {
  readonly from: string;
  readonly to: string;
  readonly report?: string;
}

const EXAMPLES = `
Examples:
  # Convert a checkout of a CLM config repository, then render it with the converted templates
  $ clm migrate --from ~/src/kubernetes-on-aws --to /tmp/koa-migrated --report /tmp/koa-migrated.md
  $ clm render --registry clusters.yaml --directory /tmp/koa-migrated --values values.yaml

  # A JSON report for tooling (the extension decides)
  $ clm migrate --from ./config --to ./config-hbs --report migrate.json

What is converted: the .yaml/.yml files under cluster/ (what CLM renders). Field access, if/else if/else,
range (with index and value variables), with, variables ($x := and $x =), pipelines, printf, trim markers,
comments, define/template/block (as inline partials) and every CLM function keep their meaning and their
argument order. A converted file starts with a {{!-- clm:go-template … --}} line: the engine then keeps Go's
whitespace, truth and printing, so each file renders byte for byte as CLM rendered it.
What is refused stays a Go template, copied unchanged and listed with its line and the reason
(e.g. {{break}}, Go's html/js/urlquery/slice/call). Everything else is copied as it is.
Exit codes: 0 every template converted (or copied), 1 some files refused, 2 usage error.`;

export function registerMigrateCommand(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('Convert a Zalando CLM config repository (Go templates) to handlebars templates for this CLM.')
    .requiredOption('--from <dir>', 'the CLM config repository (its root, with cluster/)')
    .requiredOption('--to <dir>', 'where to write the converted repository (must not exist, or be empty)')
    .option('--report <file>', 'write a report of every file: Markdown, or JSON when the name ends in .json')
    .addHelpText('after', EXAMPLES)
    .action(async (options: MigrateOptions) => {
      const { runMigrate } = await import('./migrate-run');
      const code = await runMigrate(options, io);
      if (code !== EXIT.OK) throw new CliExit(code);
    });
}
