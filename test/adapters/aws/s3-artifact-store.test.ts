import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { S3ArtifactStore } from '../../../lambdas/adapters/aws/s3-artifact-store';
import { ClmError, TransientApiError } from '../../../lambdas/shared/errors';
import { sdkError } from './sdk-errors';

const s3 = mockClient(S3Client);
const client = new S3Client({ region: 'eu-central-1' });

beforeEach(() => s3.reset());

describe('S3ArtifactStore', () => {
  it('puts text under the prefix', async () => {
    // Arrange
    s3.on(PutObjectCommand).resolves({});
    const store = new S3ArtifactStore(client, { bucket: 'clm-artifacts', prefix: 'renders/', region: 'eu-central-1' });

    // Act
    await store.put('kube-1/abc.json', '{"a":1}');

    // Assert
    expect(s3).toHaveReceivedCommandWith(PutObjectCommand, {
      Bucket: 'clm-artifacts',
      Key: 'renders/kube-1/abc.json',
      Body: '{"a":1}',
    });
  });

  it('creates a missing bucket once when asked to, then puts again', async () => {
    // Arrange
    s3.on(PutObjectCommand)
      .rejectsOnce(sdkError('NoSuchBucket', 'The specified bucket does not exist', 404))
      .resolves({});
    s3.on(CreateBucketCommand).resolves({});
    const store = new S3ArtifactStore(client, {
      bucket: 'cluster-lifecycle-manager-123456789012-eu-central-1',
      region: 'eu-central-1',
      createBucketIfMissing: true,
    });

    // Act
    await store.put('t.template', 'x');

    // Assert
    expect(s3).toHaveReceivedCommandWith(CreateBucketCommand, {
      Bucket: 'cluster-lifecycle-manager-123456789012-eu-central-1',
      CreateBucketConfiguration: { LocationConstraint: 'eu-central-1' },
    });
    expect(s3).toHaveReceivedCommandTimes(PutObjectCommand, 2);
  });

  it('sends no LocationConstraint in us-east-1 and accepts a bucket already owned', async () => {
    s3.on(PutObjectCommand)
      .rejectsOnce(sdkError('NoSuchBucket', 'missing', 404))
      .resolves({});
    s3.on(CreateBucketCommand).rejects(sdkError('BucketAlreadyOwnedByYou', 'yours', 409));
    await new S3ArtifactStore(client, { bucket: 'b', region: 'us-east-1', createBucketIfMissing: true }).put('k', 'v');
    expect(s3.commandCalls(CreateBucketCommand)[0].args[0].input.CreateBucketConfiguration).toBeUndefined();
    expect(s3).toHaveReceivedCommandTimes(PutObjectCommand, 2);
  });

  it('does not create buckets unless asked to', async () => {
    s3.on(PutObjectCommand).rejects(sdkError('NoSuchBucket', 'missing', 404));
    await expect(new S3ArtifactStore(client, { bucket: 'b', region: 'eu-central-1' }).put('k', 'v')).rejects.toThrow(
      /S3 PutObject s3:\/\/b\/k: NoSuchBucket/,
    );
    expect(s3).toHaveReceivedCommandTimes(CreateBucketCommand, 0);
  });

  it('gets text back and returns undefined for a missing key', async () => {
    // Arrange
    s3.on(GetObjectCommand, { Key: 'kube-1/abc.json' }).resolves({
      Body: {
        transformToString: async (encoding?: string) => Buffer.from('hällo').toString(encoding as BufferEncoding),
      } as never,
    });
    s3.on(GetObjectCommand, { Key: 'nope' }).rejects(sdkError('NoSuchKey', 'The specified key does not exist.', 404));
    const store = new S3ArtifactStore(client, { bucket: 'b', region: 'eu-central-1' });

    // Act / Assert
    await expect(store.get('kube-1/abc.json')).resolves.toBe('hällo');
    await expect(store.get('nope')).resolves.toBeUndefined();
  });

  it('classifies other failures and names the object', async () => {
    s3.on(GetObjectCommand)
      .rejectsOnce(sdkError('AccessDenied', 'Access Denied', 403))
      .rejectsOnce(sdkError('SlowDown', 'Please reduce your request rate.', 503));
    const store = new S3ArtifactStore(client, { bucket: 'b', region: 'eu-central-1' });
    const denied = await store.get('k').catch((e: unknown) => e);
    const slow = await store.get('k').catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ClmError);
    expect((denied as Error).message).toMatch(/^S3 GetObject s3:\/\/b\/k: AccessDenied/);
    expect((slow as ClmError).retryable).toBe(true);
    expect(slow).not.toBeInstanceOf(TransientApiError);
  });

  it('builds virtual-hosted URLs on AWS and path-style AWS URLs (which moto parses) when an endpoint is set, encoding the key', () => {
    const aws = new S3ArtifactStore(client, {
      bucket: 'cluster-lifecycle-manager-123456789012-eu-central-1',
      prefix: 'templates/',
      region: 'eu-central-1',
    });
    const moto = new S3ArtifactStore(client, {
      bucket: 'b',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:5000/',
    });
    expect(aws.urlFor('kube 1/x.template')).toBe(
      'https://cluster-lifecycle-manager-123456789012-eu-central-1.s3.eu-central-1.amazonaws.com/templates/kube%201/x.template',
    );
    expect(moto.urlFor('a/b.template')).toBe('https://s3.eu-central-1.amazonaws.com/b/a/b.template');
  });
});
