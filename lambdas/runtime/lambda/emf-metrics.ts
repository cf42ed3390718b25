import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { CLM_METRICS, CLM_SERVICE_NAME, METRIC_NAMESPACE } from '../../contracts/metrics';
import type { TaskMetric } from '../../tasks/define-task';

/**
 * CloudWatch embedded-metric-format lines, serialized by Powertools Metrics: CloudWatch Logs turns them into metrics,
 * so a task needs no PutMetricData call and no permission. The task's figures carry the `service` dimension (the
 * dashboard's metrics); each call's duration also goes out per task (`service`, `task`), which is the render time of
 * the render tasks. Written straight to stdout (not through console, which Lambda's JSON log format would wrap).
 */
const UNITS = { Count: MetricUnit.Count, None: MetricUnit.NoUnit, Seconds: MetricUnit.Seconds } as const;

function writer(timestamp: number): Metrics {
  const metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName: CLM_SERVICE_NAME });
  metrics.setTimestamp(timestamp);
  return metrics;
}

export function emfLine(
  metrics: readonly TaskMetric[],
  timestamp: number,
  fields: Record<string, string> = {},
): string {
  const out = writer(timestamp);
  for (const metric of metrics) out.addMetric(metric.name, UNITS[metric.unit ?? 'Count'], metric.value);
  for (const [key, value] of Object.entries(fields)) out.addMetadata(key, value);
  return JSON.stringify(out.serializeMetrics());
}

/** How long one call of `task` took, with the task as a dimension. */
export function durationLine(task: string, milliseconds: number, timestamp: number): string {
  const out = writer(timestamp);
  out.addDimension('task', task);
  out.addMetric(CLM_METRICS.taskDuration, MetricUnit.Milliseconds, milliseconds);
  return JSON.stringify(out.serializeMetrics());
}

export function writeMetrics(
  metrics: readonly TaskMetric[],
  fields: Record<string, string>,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): void {
  if (metrics.length) write(emfLine(metrics, Date.now(), fields));
}
