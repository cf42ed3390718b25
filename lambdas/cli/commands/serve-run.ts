// `clm serve`'s implementation, loaded by its action (serve.ts declares the command).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OctokitWebhookVerifier } from '../../adapters/webhook/octokit-webhook-verifier';
import type { FleetEvent } from '../../contracts/fleet-events';
import { parseWebhookSecret } from '../../runtime/lambda/webhook-secret';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { FleetController } from '../fleet/controller';
import { openFleetSession } from '../fleet/fleet-session';
import { onInterrupt } from '../fleet/interrupt';
import { startWebhookServer } from '../fleet/webhook-server';
import { HEALTH_PATH, WEBHOOK_PATH } from '../fleet/webhook-paths';
import { usage } from '../usage';
import type { ServeOptions } from './serve';

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
  const scheduled = { trigger: 'schedule', periodMinutes: interval / 60 } as const;
  const timer = setInterval(() => running.request(scheduled), interval * 1000);
  const removeHandlers = onInterrupt(() => running.stop(), log);
  running.request(scheduled);
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
