import { withBudget, type BenchResult } from '../bench-result';
import {
  USD_PER_GB_SECOND,
  USD_PER_LAMBDA_REQUEST,
  USD_PER_TRANSITION,
  USD_PER_WRITE_REQUEST_UNIT,
} from '../cost-model';
import type { FleetDay } from './day-simulation';
import { LIMITS, type LimitKey } from './figures';
import { REGIONS } from './fleet';
import { DYNAMODB_PARTITION_WRITES, LAMBDA_CONCURRENCY, RUN_INSTANCES, stepFunctionsQuotas } from './quotas';

/** One quota held against the day's busiest minute. */
interface QuotaCheck {
  readonly name: string;
  readonly where: string;
  readonly peak: number;
  readonly quota: number;
  /** When the day first went over it (ms), if it did. */
  readonly firstOver?: number;
}

const h = (hours: number) => `${hours.toFixed(1)} h`;
const fixed = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** The AWS quotas the day's peaks are held against (quotas.ts), busiest region (or key) first. */
export function quotaChecks(day: FleetDay): QuotaCheck[] {
  const checks: QuotaCheck[] = [];
  const starts = day.starts.peaks();
  const transitions = day.transitions.peaks();
  for (const region of REGIONS) {
    const sfn = stepFunctionsQuotas(region);
    const over = (figures: typeof day.starts, quota: number) => figures.firstAbove(quota, (k) => k === region);
    checks.push(
      {
        name: 'Step Functions StartExecution/s',
        where: region,
        peak: starts.get(region) ?? 0,
        quota: sfn.startExecution.perSecond,
        ...firstOf(over(day.starts, sfn.startExecution.perSecond)),
      },
      {
        name: 'Step Functions state transitions/s',
        where: region,
        peak: transitions.get(region) ?? 0,
        quota: sfn.transitions.perSecond,
        ...firstOf(over(day.transitions, sfn.transitions.perSecond)),
      },
    );
  }
  const lambda = day.lambda.peak();
  checks.push({
    name: 'Lambda concurrent executions',
    where: lambda.key,
    peak: lambda.value,
    quota: LAMBDA_CONCURRENCY,
    ...firstOf(day.lambda.firstOver?.at),
  });
  const hot = hottestKey(day);
  checks.push({
    name: 'DynamoDB writes/s on one partition',
    where: hot.key,
    peak: hot.perSecond,
    quota: DYNAMODB_PARTITION_WRITES,
    ...firstOf(day.fleetWrites.firstOver?.at),
  });
  const launches = day.launches.peak();
  // The busiest minute may spend the bucket's burst; over a whole minute EC2 lets through burst + 60 × refill.
  const ec2Minute = (RUN_INSTANCES.burst + 60 * RUN_INSTANCES.perSecond) / 60;
  checks.push({
    name: 'EC2 RunInstances/s per account',
    where: launches.key,
    peak: launches.perSecond,
    quota: ec2Minute,
    ...firstOf(day.launches.firstAbove(ec2Minute)),
  });
  return checks;
}

const firstOf = (at: number | undefined) => (at !== undefined ? { firstOver: at } : {});

/** The key written most in any second: the FLEET partition (the dispatcher), a launch budget item, a cluster's items. */
function hottestKey(day: FleetDay): { key: string; perSecond: number } {
  const fleet = day.fleetWrites.peak();
  const other = day.writes.peak();
  return fleet.value >= other.perSecond ? { key: fleet.key, perSecond: fleet.value } : other;
}

/** What bound first: an AWS quota the day went over, else the limit clusters waited longest for. */
export function bindingLimit(day: FleetDay): string {
  const over = quotaChecks(day)
    .filter((q) => q.firstOver !== undefined)
    .sort((a, b) => a.firstOver! - b.firstOver!);
  if (over.length) {
    const q = over[0]!;
    return `${q.name} in ${q.where} (${fixed(q.peak)} over the quota of ${fixed(q.quota)}, first at ${h(day.hoursOf(q.firstOver!))}: raise it)`;
  }
  const worst = [...day.waits.seconds.keys()]
    .filter((k): k is Exclude<LimitKey, 'wave-halted'> => k !== 'wave-halted')
    .sort((a, b) => day.waits.seconds.get(b)! - day.waits.seconds.get(a)!)[0];
  if (!worst) return 'none: every cluster started when its wave opened';
  return `${LIMITS[worst]} (first at ${h(day.hoursOf(day.waits.first.get(worst)!))}, ${Math.round(day.waits.seconds.get(worst)! / 3600)} cluster-hours waited)`;
}

export function dollars(day: FleetDay): { usd: number; note: string } {
  const b = day.bill;
  const sfn = b.transitions * USD_PER_TRANSITION;
  const lambda = b.lambdaGbSeconds * USD_PER_GB_SECOND + b.lambdaRequests * USD_PER_LAMBDA_REQUEST;
  const dynamo = b.writeUnits * USD_PER_WRITE_REQUEST_UNIT;
  return {
    usd: sfn + lambda + dynamo,
    note: `Step Functions ${Math.round(b.transitions).toLocaleString('en')} transitions $${sfn.toFixed(0)}; Lambda ${Math.round(b.lambdaGbSeconds).toLocaleString('en')} GB-s, ${Math.round(b.lambdaRequests).toLocaleString('en')} requests $${lambda.toFixed(0)}; DynamoDB ${Math.round(b.writeUnits).toLocaleString('en')} write units $${dynamo.toFixed(0)} (reads, logs, EC2 aside)`,
  };
}

export function dayFigures(day: FleetDay, label: string, budgetHours?: number): BenchResult[] {
  const size = day.fleet.clusters.length;
  const name = (what: string) => `${size.toLocaleString('en')} clusters${label}: ${what}`;
  const hours = day.finishedAt !== undefined ? day.hoursOf(day.finishedAt) : Number.POSITIVE_INFINITY;
  const checks = quotaChecks(day);
  const check = (prefix: string) => checks.find((c) => c.name.startsWith(prefix))!;
  const quotaRow = (what: string, prefix: string, unit: string): BenchResult => {
    const c = check(prefix);
    const busiest = checks.filter((q) => q.name === c.name).sort((a, b) => b.peak - a.peak)[0]!;
    return {
      name: name(what),
      value: busiest.peak,
      unit,
      note: `busiest: ${busiest.where}; quota ${fixed(busiest.quota)}${busiest.firstOver !== undefined ? ` — OVER from ${h(day.hoursOf(busiest.firstOver))}` : ''}`,
    };
  };
  const cost = dollars(day);
  const hoursRow = {
    name: name('hours until the fleet is done'),
    value: hours,
    unit: 'h',
    note: `binding limit: ${bindingLimit(day)}; ${waitNote(day)}`,
  };
  return [
    budgetHours !== undefined ? withBudget({ ...hoursRow, budget: budgetHours }) : hoursRow,
    { name: name('waves'), value: day.waves.size, unit: 'waves', note: waveNote(day) },
    quotaRow('peak StartExecution/s', 'Step Functions StartExecution', '/s'),
    quotaRow('peak state transitions/s', 'Step Functions state', '/s'),
    quotaRow('peak Lambda concurrency', 'Lambda', 'executions'),
    quotaRow('peak RunInstances/s per account', 'EC2', '/s'),
    quotaRow('DynamoDB writes/s, hottest key', 'DynamoDB', '/s'),
    { name: name('cost of the day'), value: cost.usd, unit: 'USD', note: cost.note },
  ];
}

function waveNote(day: FleetDay): string {
  return [...day.waves]
    .sort((a, b) => (a[1].firstStart ?? 0) - (b[1].firstStart ?? 0))
    .map(
      ([label, w]) =>
        `${label}: ${w.clusters} (${w.firstStart !== undefined ? h(day.hoursOf(w.firstStart)) : '?'}–${w.lastDone !== undefined ? h(day.hoursOf(w.lastDone)) : 'not done'})`,
    )
    .join('; ');
}

function waitNote(day: FleetDay): string {
  const failed = [...day.execs.values()].filter((e) => e.status === 'FAILED').length;
  const waits = [...day.waits.seconds]
    .sort((a, b) => b[1] - a[1])
    .map(([k, s]) => `${k} ${Math.round(s / 3600)} cluster-h from ${h(day.hoursOf(day.waits.first.get(k)!))}`);
  return `waits: ${waits.join(', ') || 'none'}; ${failed} executions failed`;
}
