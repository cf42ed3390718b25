// `clm serve`'s implementation, loaded by its action (serve.ts declares the command).
import type { FleetEvent } from '../../contracts/fleet-events';
import type { ExecutionStatusChange } from '../../contracts/triggers';
import { forgeFromFlags, verifierFromFlags } from '../fleet/serve-credentials';
import { EXIT, UsageError, type CliIo, type ExitCode } from '../io';
import { FleetController } from '../fleet/controller';
import { openFleetSession, type FleetSession } from '../fleet/fleet-session';
import { onInterrupt } from '../fleet/interrupt';
import { startWebhookServer } from '../fleet/webhook-server';
import { HEALTH_PATH, WEBHOOK_PATH } from '../fleet/webhook-paths';
import { usage } from '../usage';
import type { ServeOptions } from './serve';

export async function runServe(options: ServeOptions, io: CliIo): Promise<ExitCode> {
  const log = (line: string) => io.stdout(`${new Date().toISOString()} ${line}\n`);
  const { port, interval } = usage(() => numbers(options));
  const verifier = usage(() => verifierFromFlags(options, io.cwd));
  const forge = usage(() => forgeFromFlags(options, io.cwd));
  // A push the webhook accepts asks the controller for a pass, as the PushAccepted rule asks DispatchFleet.
  const wiring: { controller?: FleetController; session?: FleetSession } = {};
  const onEvent = (event: FleetEvent) => {
    log(`event ${event.type} ${eventLine(event)}`);
    if (event.type === 'PushAccepted') {
      const { repository, ref, commit } = event.detail;
      wiring.controller?.request({ trigger: 'webhook', push: { repository, ref, commit } });
    }
    if (event.type === 'PullRequestAccepted') {
      // As the PullRequestAccepted rule invokes PlanPullRequest: the plans are queued, then run like the updates.
      const accepted = event.detail;
      wiring.controller?.later(async () => log(`plans: ${(await wiring.session!.planPullRequest(accepted)).message}`));
    }
  };
  const session = await openFleetSession(options, io, { verifier, onEvent, ...(forge ? { forge } : {}) });
  const { world } = session;
  wiring.session = session;
  const running = new FleetController(session, {
    log,
    ...(options.verbose ? { verbose: true } : {}),
    beforeScheduledPass: () => (world.simulated ? world.advanceClock(interval) : undefined),
    ...(forge ? { onExecution: (change) => reportToForge(session, change, log) } : {}),
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

/** Tell the forge; a failure is logged, never stops the controller. */
async function reportToForge(
  session: FleetSession,
  change: ExecutionStatusChange,
  log: (line: string) => void,
): Promise<void> {
  try {
    const report = await session.report(change);
    log(`forge: ${report.message}${report.problems.length ? `; ${report.problems.join('; ')}` : ''}`);
  } catch (error) {
    log(`forge: ${change.name} ${change.status.toLowerCase()} not reported: ${(error as Error).message}`);
  }
}

function eventLine(event: FleetEvent): string {
  const detail = event.detail as Record<string, unknown>;
  const parts = ['clusterId', 'targetVersion', 'executionName', 'error', 'reason', 'ref', 'commit', 'affected', 'wave'];
  return parts.flatMap((key) => (detail[key] === undefined ? [] : [`${key}=${String(detail[key])}`])).join(' ');
}
