import type { Command } from 'commander';
import { CliExit, type CliIo } from '../io';
import { addFleetOptions, type FleetFlags } from '../fleet/fleet-options';
import { HEALTH_PATH, WEBHOOK_PATH } from '../fleet/webhook-paths';
import { optimizeHotCode } from '../optimizing-compiler';

export interface ServeOptions extends FleetFlags {
  readonly port: string;
  readonly webhookSecretFile: string;
  readonly interval: string;
  readonly verbose?: boolean;
}

const EXAMPLES = `
Examples:
  # The controller over a local git repository and the simulated world: a push updates the clusters following it
  $ openssl rand -hex 20 > /tmp/hook-secret
  $ clm serve --simulate --registry examples/clusters.yaml \\
      --config-source main:git:file:///srv/git/acme/cluster-config.git \\
      --port 8080 --webhook-secret-file /tmp/hook-secret --interval 60

  # Ask it how it is doing
  $ curl -s http://127.0.0.1:8080/healthz

It listens on 127.0.0.1 only: POST ${WEBHOOK_PATH} takes GitHub's push webhook (content type application/json,
signed with the secret in --webhook-secret-file: X-Hub-Signature-256), GET ${HEALTH_PATH} reports the controller.
A pass runs at start, on every accepted push (over the clusters following the pushed ref), every --interval
seconds, and whenever an update ends (so the next wave starts); the updates it starts run here, one at a time, on
the same state machine as the deployed system. Each decision is logged. Ctrl-C stops at a safe point (between two
tasks; the update's lease released; exit code 130); start it again to resume. The secret file holds the secret, or JSON
{"secret": "...", "previous": "..."} while one is rotated.`;

export function registerServeCommand(program: Command, io: CliIo): void {
  addFleetOptions(
    program
      .command('serve')
      .description("CLM's controller mode: a webhook endpoint and a dispatcher loop that run the updates it starts."),
  )
    .requiredOption('--webhook-secret-file <file>', 'file holding the secret GitHub signs deliveries with')
    .option('--port <port>', 'port on 127.0.0.1 (0: any free port, printed at start)', '8080')
    .option('--interval <seconds>', 'seconds between two scheduled passes', '300')
    .option('-v, --verbose', "log every task's progress line of the updates")
    .addHelpText('after', EXAMPLES)
    .action(async (options: ServeOptions) => {
      const { runServe } = await import('./serve-run');
      optimizeHotCode();
      throw new CliExit(await runServe(options, io));
    });
}
