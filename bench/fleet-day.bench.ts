/**
 * A business day of the whole fleet (issue 29): 1,000 and 10,000 clusters (~50 per account, three regions, one
 * deployment each) one config version behind, updated by the real dispatcher's planning core (waves by environment and
 * criticality with a 30-minute soak, halts beyond a failure tolerance, the caps per account and the StartExecution
 * pace) in virtual time, every cluster's update played by a roll model calibrated from the real simulator (boot,
 * drain, a PDB blocking 2 % of the clusters, 0.1 % of the updates failing part-way), its launches taken from its
 * account and region's launch budget, and the busiest minute of every AWS quota counted. Not a test: it reports.
 * docs/scale.md reads the figures.
 *
 *   npm run bench -- fleet-day
 */
import type { BenchResult } from './bench-result';
import { calibrate, type Calibration } from './fleet-day/calibration';
import { FleetDay } from './fleet-day/day-simulation';
import { bindingLimit, dayFigures } from './fleet-day/day-report';
import { generateFleet } from './fleet-day/fleet';
import { DEFAULT_QUOTAS, type RaisableQuotas } from './fleet-day/quotas';
import { RollModel } from './fleet-day/roll-model';

export const name = 'fleet-day';

/** The day's last lines, one per fleet size: `fleet-day: N clusters, done in H h, binding limit: …`. */
const lines: string[] = [];

/**
 * The quotas and settings with which the 10,000-cluster day fits in 10 hours (docs/scale.md): EC2's RunInstances
 * refill raised to 4 a second in the accounts, the launch budget to 3 (three quarters of it, as the defaults keep 1.5
 * of 2), and the Lambda concurrency of each region's CLM account to 2,000.
 */
const RAISED = {
  settings: { launchesPerSecond: 3 },
  quotas: { lambdaConcurrency: 2000, runInstances: { burst: 1000, perSecond: 4 } },
  label: 'EC2 RunInstances refill 4/s, launchesPerSecond 3, Lambda concurrency 2,000',
};

export async function run(): Promise<BenchResult[]> {
  lines.length = 0;
  const calibration = await calibrate();
  const model = new RollModel(calibration);
  const results: BenchResult[] = [calibrationFigure(calibration, model)];
  const last: string[] = [];
  for (const size of [1_000, 10_000]) {
    const { day, figures } = playDay(model, size, '', size === 10_000 ? 10 : undefined);
    results.push(...figures);
    last.push(`fleet-day: ${size} clusters, ${doneIn(day)}, binding limit: ${bindingLimit(day)}`);
  }
  const raised = playDay(model, 10_000, ` (${RAISED.label})`, 10, RAISED.settings, {
    ...DEFAULT_QUOTAS,
    ...RAISED.quotas,
  });
  results.push(...raised.figures);
  lines.push(
    `fleet-day: 10000 clusters with ${RAISED.label}, ${doneIn(raised.day)}, binding limit: ${bindingLimit(raised.day)}`,
  );
  // The same 10,000 with CLM's strict halts (the first failure halts its wave): what the failure tolerance buys.
  const strict = new FleetDay(generateFleet(10_000), model, { waveFailureTolerance: 0 }).run();
  results.push({
    name: '10,000 clusters, strict halts: hours until the fleet is done',
    value: strict.finishedAt !== undefined ? strict.hoursOf(strict.finishedAt) : Number.POSITIVE_INFINITY,
    unit: 'h',
    note: 'waveFailureTolerance 0 (the default): every failed cluster halts its wave until it succeeds',
  });
  lines.push(...last);
  return results;
}

function playDay(
  model: RollModel,
  size: number,
  label: string,
  budgetHours?: number,
  settings: Record<string, unknown> = {},
  quotas: RaisableQuotas = DEFAULT_QUOTAS,
): { day: FleetDay; figures: BenchResult[] } {
  const cpu = process.cpuUsage();
  const day = new FleetDay(generateFleet(size), model, settings, quotas).run();
  const used = process.cpuUsage(cpu);
  const dispatchers = [...day.dispatchers.values()];
  return {
    day,
    figures: [
      ...dayFigures(day, label, budgetHours),
      {
        name: `${size.toLocaleString('en')} clusters${label}: CPU of the model`,
        value: Math.round((used.user + used.system) / 1000),
        unit: 'ms',
        note: `${dispatchers.reduce((n, d) => n + d.passes, 0)} dispatcher passes (planDispatch: ${Math.round(dispatchers.reduce((n, d) => n + d.cpuMs, 0))} ms)`,
      },
    ],
  };
}

const doneIn = (day: FleetDay) =>
  day.finishedAt !== undefined ? `done in ${day.hoursOf(day.finishedAt).toFixed(1)} h` : 'not done in 48 h';

export function epilogue(): readonly string[] {
  return lines;
}

function calibrationFigure(c: Calibration, model: RollModel): BenchResult {
  return {
    name: 'calibration: a batch of surge nodes',
    value: Math.round(model.batchSeconds()),
    unit: 's',
    note: `simulator, ${c.workers} workers, surge ${c.workers / c.batches}: roll ${(c.batchRatio * 100).toFixed(0)} % of batches × (boot + drain); ${c.transitionsPerBatch.toFixed(1)} transitions, ${c.rollWaitSecondsPerBatch.toFixed(0)} s waited in process and ${c.writesPerBatch.toFixed(1)} progress writes per batch; ${c.transitionsFixed} transitions per update besides; a PDB block costs ${c.block.transitionsPerHour.toFixed(0)} transitions/h; ${Math.round(c.cpuMs)} ms CPU`,
  };
}
