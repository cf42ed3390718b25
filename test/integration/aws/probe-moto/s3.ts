/**
 * S3: the object calls the artifact store makes, and templates over the inline limit passed as TemplateURL.
 */
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Probe } from './probe';
import { record, step, expectError } from './report';
import { shortForm, bucket } from './templates';

/** CreateBucket, PutObject, GetObject, HeadObject, ListObjectsV2, DeleteObject; path and virtual-hosted style. */
export async function probeS3(probe: Probe): Promise<void> {
  const { s3, region } = probe;
  await step('s3', 'CreateBucket / PutObject / GetObject / HeadObject / List / Delete', async () => {
    await s3.send(
      new CreateBucketCommand({
        Bucket: bucket,
        CreateBucketConfiguration: { LocationConstraint: region as 'eu-central-1' },
      }),
    );
    const body = 'hello ' + 'x'.repeat(1000);
    const put = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt', Body: body, ContentType: 'text/plain' }),
    );
    const get = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
    const text = await get.Body!.transformToString();
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
    const list = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'dir/' }));
    record(
      's3',
      'PutObject/GetObject/HeadObject/ListObjectsV2 (forcePathStyle)',
      text === body ? 'same' : 'differs',
      `ETag ${put.ETag}; roundtrip equal ${text === body}; ContentType ${get.ContentType}; ContentLength ${head.ContentLength}; list ${JSON.stringify(list.Contents?.map((c) => c.Key))}`,
    );
    const miss = await expectError(() => s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'nope' })));
    record('s3', 'GetObject missing key', miss?.startsWith('NoSuchKey') ? 'same' : 'differs', miss ?? 'no error');
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'dir/hello.txt' }));
    const vh = new S3Client({ ...probe.clientConfig, forcePathStyle: false });
    const vhr = await expectError(() => vh.send(new PutObjectCommand({ Bucket: bucket, Key: 'vh.txt', Body: 'x' })));
    record(
      's3',
      'virtual-hosted-style addressing against 127.0.0.1',
      vhr ? 'differs' : 'same',
      vhr ?? 'works (SDK falls back to path style for IP endpoints)',
    );
  });
}

/** A template over 51,200 bytes: as TemplateBody, and from S3 by the URL forms CloudFormation accepts. */
export async function probeTemplateUrl(probe: Probe): Promise<void> {
  const { cfn, s3, region, endpoint } = probe;
  await step('cfn', 'CreateStack with TemplateURL (template > 51,200 bytes)', async () => {
    // Pad with Metadata so the body exceeds the 51,200-byte TemplateBody limit.
    const pad = Array.from({ length: 600 }, (_, i) => `    k${i}: ${'y'.repeat(90)}`).join('\n');
    const big =
      `AWSTemplateFormatVersion: '2010-09-09'\nMetadata:\n  Padding:\n${pad}\n` +
      shortForm
        .replace("AWSTemplateFormatVersion: '2010-09-09'", '')
        .replace('${VPC}', probe.vpcId)
        .replace('${AMI}', probe.amiA);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'stacks/big.yaml', Body: big }));
    const bodyErr = await expectError(() =>
      cfn.send(new CreateStackCommand({ StackName: 'probe-big-body', TemplateBody: big })),
    );
    record(
      'cfn',
      `TemplateBody of ${big.length} bytes (> 51,200)`,
      bodyErr ? 'same' : 'differs',
      bodyErr ?? 'accepted (AWS: ValidationError, TemplateBody max 51,200 bytes)',
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'probe-big-body' })).catch(() => undefined);
    const port = new URL(endpoint!).port;
    const urls = [
      `https://${bucket}.s3.${region}.amazonaws.com/stacks/big.yaml`,
      `https://s3.${region}.amazonaws.com/${bucket}/stacks/big.yaml`,
      `https://${bucket}.s3.amazonaws.com/stacks/big.yaml`,
      `http://localhost:${port}/${bucket}/stacks/big.yaml`,
      `http://127.0.0.1:${port}/${bucket}/stacks/big.yaml`,
    ];
    let i = 0;
    for (const url of urls) {
      i += 1;
      const name = `probe-url-${i}`;
      const e = await expectError(() => cfn.send(new CreateStackCommand({ StackName: name, TemplateURL: url })));
      const s = e ? '' : (await probe.waitStack(name)).stack.StackStatus;
      record('cfn', `TemplateURL ${url.replace(String(port), 'PORT')}`, e ? 'differs' : 'same', e ?? `status ${s}`);
      if (!e) {
        const ue = await expectError(() =>
          cfn.send(new UpdateStackCommand({ StackName: name, TemplateURL: url.replace('big.yaml', 'big.yaml') })),
        );
        record(
          'cfn',
          `UpdateStack same TemplateURL (${i})`,
          'info',
          ue ?? `accepted, status ${(await probe.describeStack(name)).StackStatus}`,
        );
        await cfn.send(new DeleteStackCommand({ StackName: name }));
      }
    }
  });
}
