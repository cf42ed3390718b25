import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { OctokitWebhookVerifier } from '../../adapters/webhook/octokit-webhook-verifier';
import type { FleetEvent } from '../../contracts/fleet-events';
import { parseWebhookSecret } from '../../runtime/lambda/webhook-secret';
import { CliExit, EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { FleetController } from '../fleet/controller';
import { addFleetOptions, type FleetFlags } from '../fleet/fleet-options';
import { openFleetSession } from '../fleet/fleet-session';
import { onInterrupt } from '../fleet/interrupt';
import { HEALTH_PATH, startWebhookServer, WEBHOOK_PATH } from '../fleet/webhook-server';
import { usage } from '../usage';

interface ServeOptions extends FleetFlags {
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
      throw new CliExit(await runServe(options, io));
    });
}

export async function runServe(options: ServeOptions, io: CliIo): Promise<ExitCode> {
  const log = (line: string) => io.stdout(`${new Date().toISOString()} ${line}\n`);
  const { port, interval } = usage(() => numbers(options));
  const secrets = usage(() => readSecrets(resolve(io.cwd, options.webhookSecretFile)));
  // A push the webhook accepts asks the controller for a pass, as the PushAccepted rule asks DispatchFleet.
  const wiring: { controller?: FleetController } = {};
  const onEvent = (event: FleetEvent) => {
    log(`event ${event.type} ${eventLine(event)}`);
    if (event.type === 'PushAccepted') {
      const { repository, ref, commit } = event.detail;
      wiring.controller?.request({ trigger: 'webhook', push: { repository, ref, commit } });
    }
  };
  const session = await openFleetSession(options, io, { verifier: new OctokitWebhookVerifier(secrets), onEvent });
  const { world } = session;
  const running = new FleetController(session, {
    log,
    ...(options.verbose ? { verbose: true } : {}),
    beforeScheduledPass: () => (world.simulated ? world.advanceClock(interval) : undefined),
  });
  wiring.controller = running;
  const http = await startWebhookServer({
    port,
    webhook: (request) => session.webhook(request),
    health: () => ({ status: 'ok', ...running.status() }),
    log,
  }).catch((error: Error) => {
    session.close();
    throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${error.message}`);
  });
  log(
    `clm serve: listening on http://127.0.0.1:${http.port} (POST ${WEBHOOK_PATH}, GET ${HEALTH_PATH}); a pass every ${interval} s${world.simulated ? ', simulated world' : ''}`,
  );
  const timer = setInterval(() => running.request({ trigger: 'schedule' }), interval * 1000);
  const removeHandlers = onInterrupt(() => running.stop(), log);
  running.request({ trigger: 'schedule' });
  try {
    await running.run();
  } finally {
    clearInterval(timer);
    removeHandlers();
    await new Promise<void>((done) => http.server.close(() => done()));
    world.save();
    session.close();
    log('clm serve: stopped');
  }
  // Only a signal ends it: 130, as a Ctrl-C'd command (and an update stopped mid-way leaves nothing to wait for).
  return EXIT.INTERRUPTED;
}

function numbers(options: ServeOptions): { port: number; interval: number } {
  const port = Number(options.port);
  const interval = Number(options.interval);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${options.port} is not a port`);
  if (!Number.isFinite(interval) || interval < 1)
    throw new UsageError(`--interval ${options.interval}: give seconds >= 1`);
  return { port, interval };
}

function readSecrets(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--webhook-secret-file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  return parseWebhookSecret(text, file);
}

function eventLine(event: FleetEvent): string {
  const detail = event.detail as Record<string, unknown>;
  const parts = ['clusterId', 'targetVersion', 'executionName', 'error', 'reason', 'ref', 'commit', 'affected', 'wave'];
  return parts.flatMap((key) => (detail[key] === undefined ? [] : [`${key}=${String(detail[key])}`])).join(' ');
}
