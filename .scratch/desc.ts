import { DescribeExecutionCommand } from '@aws-sdk/client-sfn';
import { emulatorClients } from '../test/deployed/support/deployed-environment';
import { historyEvents, listExecutions } from '../test/deployed/support/executions';
(async () => {
  const aws = emulatorClients(process.env.AWS_ENDPOINT_URL!);
  const execs = await listExecutions(aws.sfn, process.argv[2]);
  const t = execs.find((e) => e.name!.includes(process.argv[3]))!;
  console.log((await aws.sfn.send(new DescribeExecutionCommand({ executionArn: t.executionArn }))).input);
  const ev = await historyEvents(aws.sfn, t.executionArn!);
  for (const e of ev) if (e.type === 'TaskScheduled' || e.type === 'MapIterationStarted' || e.type==='MapStateEntered' || (e.type==='TaskStateEntered' && JSON.stringify(e).includes('RollMaster'))) console.log(JSON.stringify(e).slice(0, 1500));
})();
