import { withBudget, type BenchResult } from '../bench-result';
import {
  USD_PER_GB_SECOND,
  USD_PER_LAMBDA_REQUEST,
  USD_PER_TRANSITION,
  USD_PER_WRITE_REQUEST_UNIT,
} from '../cost-model';
import type { FleetDay } from './day-simulation';
import { LIMITS, type PerMinute } from './figures';
import { REGIONS } from './fleet';
import { DEFAULT_QUOTAS, DYNAMODB_PARTITION_WRITES, stepFunctionsQuotas, type Bucket } from './quotas';

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

/** Step Functions' buckets per region, each held against the busiest minute of what the day asked of it. */
function stepFunctionsChecks(day: FleetDay): QuotaCheck[] {
  const series = [
    ['StartExecution/s', day.starts, (q) => q.startExecution],
    ['state transitions/s', day.transitions, (q) => q.transitions],
    ['DescribeExecution/s', day.describes, (q) => q.describeExecution],
    ['ListExecutions/s', day.lists, (q) => q.listExecutions],
  ] as const satisfies readonly (readonly [string, PerMinute, (q: ReturnType<typeof stepFunctionsQuotas>) => Bucket])[];
  return REGIONS.flatMap((region) =>
    series.map(([name, figures, bucket]) => {
      const quota = bucket(stepFunctionsQuotas(region)).perSecond;
      return {
        name: `Step Functions ${name}`,
        where: region,
        peak: figures.peaks().get(region) ?? 0,
        quota,
        ...firstOf(figures.firstAbove(quota, (k) => k === region)),
      };
    }),
  );
}

/** The AWS quotas the day's peaks are held against (quotas.ts), busiest region (or key) first. */
export function quotaChecks(day: FleetDay): QuotaCheck[] {
  const checks = stepFunctionsChecks(day);
  const lambda = day.lambda.peak();
  checks.push({
    name: 'Lambda concurrent executions',
    where: lambda.key,
    peak: lambda.value,
    quota: day.quotas.lambdaConcurrency,
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
  // EC2's bucket per account and region, played launch by launch (day-rolls.ts): over it when a launch found no token.
  const ec2 = day.quotas.runInstances;
  checks.push({
    name: 'EC2 RunInstances/s per account',
    where: launches.key,
    peak: launches.perSecond,
    quota: ec2.perSecond,
    ...firstOf(day.ec2FirstThrottled),
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

/**
 * What bound first, in the day's time: an AWS quota the day went over, or a limit clusters waited for (at least one
 * cluster-hour per 100 clusters, so a moment's wait does not count), and what bound after it.
 */
export function bindingLimit(day: FleetDay): string {
  const material = day.fleet.clusters.length / 100;
  const candidates: { at: number; what: string }[] = [];
  for (const q of quotaChecks(day))
    if (q.firstOver !== undefined)
      candidates.push({
        at: q.firstOver,
        what: q.name.startsWith('EC2')
          ? `${ec2Note(day)} from ${h(day.hoursOf(q.firstOver))}`
          : `${q.name} in ${q.where} over its quota (${fixed(q.peak)} > ${fixed(q.quota)}) from ${h(day.hoursOf(q.firstOver))}`,
      });
  for (const [limit, seconds] of day.waits.seconds) {
    if (limit === 'wave-halted' || seconds / 3600 < material) continue;
    const at = day.waits.first.get(limit)!;
    candidates.push({
      at,
      what: `${LIMITS[limit]} from ${h(day.hoursOf(at))} (${Math.round(seconds / 3600).toLocaleString('en')} cluster-hours waited)`,
    });
  }
  candidates.sort((a, b) => a.at - b.at);
  if (!candidates.length) return 'none: every cluster started as its wave opened and rolled at its own pace';
  const [first, ...then] = candidates;
  return `${first!.what}${then.length ? `; then ${then.map((c) => c.what).join('; ')}` : ''}`;
}

/**
 * EC2's RunInstances bucket: the launches it would have throttled, in how many account-regions; with the bucket
 * raised, the account-regions AWS's default would have throttled (the ones to ask the raise for) and their sizes.
 */
function ec2Note(day: FleetDay): string {
  const { burst, perSecond } = day.quotas.runInstances;
  const bucket = `EC2's RunInstances bucket (${burst.toLocaleString('en')}, ${perSecond}/s)`;
  const note = `${bucket} in ${day.ec2Throttled.size} of ${day.budgets.size} account-regions: ${day.ec2ThrottledLaunches.toLocaleString('en')} launches it would throttle`;
  if (day.quotas.runInstances === DEFAULT_QUOTAS.runInstances) return note;
  const sizes = new Map<string, number>();
  for (const fc of day.fleet.clusters) sizes.set(fc.place, (sizes.get(fc.place) ?? 0) + 1);
  const needing = [...day.needsRaise].map((place) => sizes.get(place)!);
  const notNeeding = [...sizes].filter(([place]) => !day.needsRaise.has(place)).map(([, n]) => n);
  const range = needing.length ? `, holding ${Math.min(...needing)}–${Math.max(...needing)} clusters each` : '';
  return `${note}; at AWS's default (1,000, 2/s) ${needing.length} account-regions would be throttled${range} (the others hold at most ${Math.max(0, ...notNeeding)})`;
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
    {
      ...quotaRow('peak RunInstances/s per account', 'EC2', '/s'),
      note: `busiest minute: ${day.launches.peak().key}; ${ec2Note(day)}`,
    },
    quotaRow('peak DescribeExecution/s (dispatcher)', 'Step Functions DescribeExecution', '/s'),
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
