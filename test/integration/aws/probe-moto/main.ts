/**
 * Probe: what does moto (test/integration/aws/moto.sh) do for the AWS calls the CLM adapters make?
 *
 *   npx tsx test/integration/aws/probe-moto/main.ts            # starts/stops its own moto server
 *   AWS_ENDPOINT_URL=http://127.0.0.1:PORT npx tsx test/integration/aws/probe-moto/main.ts
 *   PROBE_JSON=/tmp/findings.json npx tsx ...                  # also writes the findings as JSON
 *
 * Every check records what moto did (report.ts). Exit code is 0 unless the probe itself crashed: this is a report,
 * not a test. Not a Jest test (no .test.ts), so `npm test` does not run it. The checks run in this order: later ones
 * use what earlier ones made (the node-pool stack, its group and launch template).
 */
import { probeAutoScalingApi } from './autoscaling-api';
import { probeGroupFromStack, probeInstanceVersions, probeVersionRecipe } from './autoscaling';
import { probeChangeSets } from './change-sets';
import { probeNodePoolStack, probeTemplateForms } from './cloudformation-create';
import { probeProtectionAndDelete } from './cloudformation-delete';
import { probeCreateFailures, probeTemplateValidation } from './cloudformation-failures';
import { probeStackUpdates } from './cloudformation-update';
import { probeAccountAndImages, probeUnknownAmi } from './ec2';
import { probeKms } from './kms';
import { Probe, motoServer } from './probe';
import { printSummary, record } from './report';
import { probeS3, probeTemplateUrl } from './s3';

const moto = motoServer();
const p = new Probe(moto.endpoint, process.env.PROBE_REGION ?? 'eu-central-1');
const t0 = Date.now();

await probeAccountAndImages(p);
await probeNodePoolStack(p);
await probeGroupFromStack(p);
await probeStackUpdates(p);
await probeInstanceVersions(p);
await probeAutoScalingApi(p);
await probeProtectionAndDelete(p);
await probeTemplateForms(p);
await probeVersionRecipe(p);
await probeCreateFailures(p);
await probeUnknownAmi(p);
await probeTemplateValidation(p);
await probeS3(p);
await probeTemplateUrl(p);
await probeChangeSets(p);
await probeKms(p);

record('probe', 'total probe time', 'info', `${Date.now() - t0} ms against ${p.endpoint}`);
printSummary(process.env.PROBE_JSON);
moto.stop();
