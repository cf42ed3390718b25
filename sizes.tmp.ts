import { bundleHandler } from './bench/lambda.bench';
import { writeHandlerEntry } from './infra/handler-entries';
import { TASK_CATALOGUE } from './lambdas/tasks/catalogue';
(async () => {
  const task = TASK_CATALOGUE.find((t) => t.name === process.argv[2])!;
  const { metafile } = await bundleHandler(writeHandlerEntry(task, process.cwd()), '/tmp/bundle-' + task.name);
  const [name, out] = Object.entries(metafile.outputs).find(([n]) => n.endsWith('.js'))!;
  console.log('total', name, out.bytes);
  const rows = Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [p, i] of rows.filter(([p]) => /etcd|files-|certificate|acm|kms-keys|values-provider|node-files|ustar|iam|nodes\/|render-report|render-tree|render-cluster/.test(p))) console.log(i.bytesInOutput, p);
  const pkgs = new Map<string, number>();
  for (const [p, i] of rows) { const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(p); const k = m ? m[1] : 'own'; pkgs.set(k!, (pkgs.get(k!) ?? 0) + i.bytesInOutput); }
  console.log([...pkgs].sort((a,b)=>b[1]-a[1]).slice(0,12));
})();
