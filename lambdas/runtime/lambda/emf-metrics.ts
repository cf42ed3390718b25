import { METRIC_NAMESPACE } from '../../contracts/metrics';
import type { TaskMetric } from '../../tasks/define-task';

/**
 * One CloudWatch embedded-metric-format line: CloudWatch Logs turns it into metrics, so a task needs no
 * PutMetricData call and no permission. Written straight to stdout (not through console, which Lambda's JSON log
 * format would wrap in a message field).
 */
export function emfLine(
  metrics: readonly TaskMetric[],
  timestamp: number,
  fields: Record<string, string> = {},
): string {
  return JSON.stringify({
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRIC_NAMESPACE,
          Dimensions: [[]],
          Metrics: metrics.map((m) => ({ Name: m.name, Unit: m.unit ?? 'Count' })),
        },
      ],
    },
    ...fields,
    ...Object.fromEntries(metrics.map((m) => [m.name, m.value])),
  });
}

export function writeMetrics(
  metrics: readonly TaskMetric[],
  fields: Record<string, string>,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): void {
  if (metrics.length) write(emfLine(metrics, Date.now(), fields));
}
