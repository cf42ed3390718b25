// tsx test/infra/lint-findings-cli.ts CFN_LINT.json CHECKOV.json (see lint-templates.sh)
import { main } from './lint-findings';

process.exitCode = main(process.argv.slice(2));
