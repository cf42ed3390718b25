// Part of docs/koa-check.sh: what the simulated world holds after `clm provision --simulate` of kubernetes-on-aws's e2e
// cluster — its stacks, the objects in its API server, and how every instance's bootstrap went (each node downloads
// its files bundle and decrypts it as its instance profile's role before it can join).
//   npx tsx docs/koa-check-world.ts STATE_DIR CLUSTER_ID
import { SimulatedWorld } from '../lambdas/sim';

const [state, clusterId] = process.argv.slice(2);
if (!state || !clusterId) throw new Error('usage: koa-check-world.ts STATE_DIR CLUSTER_ID');
const world = SimulatedWorld.load(state).snapshot();
const stacks = Object.values(world.accounts).flatMap((a) => Object.values(a.stacks));
const byStatus = new Map<string, string[]>();
for (const stack of stacks) byStatus.set(stack.status, [...(byStatus.get(stack.status) ?? []), stack.name]);
console.log(
  `stacks: ${stacks.length} (${[...byStatus].map(([status, names]) => `${names.length} ${status}`).join(', ')})`,
);
const kube = world.kube[clusterId];
console.log(
  `objects in the API server: ${Object.keys(kube?.objects ?? {}).length}, pods: ${Object.keys(kube?.pods ?? {}).length}`,
);
const instances = Object.values(world.accounts)
  .flatMap((a) => Object.values(a.instances))
  .filter((i) => i.state === 'InService');
const booted = instances.filter((i) => i.bootstrap?.ok && (i.bundles?.length ?? 0) > 0);
console.log(
  `instances booted from their files bundle: ${booted.length} of ${instances.length} (${booted.filter((i) => i.asg.startsWith('etcd-')).length} etcd members)`,
);
for (const failed of instances.filter((i) => !i.bootstrap?.ok))
  console.log(`  ${failed.id} (${failed.asg || 'Karpenter'}): ${failed.bootstrap?.detail ?? 'no bootstrap'}`);
const nodes = Object.values(kube?.nodes ?? {});
console.log(`nodes: ${nodes.length}, Ready: ${nodes.filter((n) => n.ready).length}`);
