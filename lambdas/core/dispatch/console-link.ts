/** The Step Functions console page of an execution. */
export function consoleLink(executionArn: string): string {
  const region = executionArn.split(':')[3];
  return `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${executionArn}`;
}
