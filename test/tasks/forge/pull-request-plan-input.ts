// The execution input of a pull request's plan (PlanPullRequest starts one per cluster), as ReportToForge's tests
// hand it to the task: PR 7 of acme/cluster-config against main, at `head`.
export const PR_REPOSITORY = 'acme/cluster-config';

export const pullRequestPlanInput = (clusterId: string, clusters: readonly string[], head: string) => ({
  clusterId,
  action: 'plan',
  trigger: 'pull-request',
  pullRequest: {
    repository: PR_REPOSITORY,
    number: 7,
    head,
    base: 'main',
    configVersion: head,
    sourceVersions: { main: head },
    clusters,
  },
});
