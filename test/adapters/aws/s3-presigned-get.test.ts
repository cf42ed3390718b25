import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { presignedGet } from '../../../lambdas/adapters/aws/s3-presigned-get';
import { FLEET_PAGE_KEY } from '../../../lambdas/core/fleet-page/fleet-page-object';
import { MAX_LINK_EXPIRY_SECONDS, linkExpirySeconds } from '../../../lambdas/core/fleet-page/link-expiry';
import { sdkError } from './sdk-errors';

const s3 = mockClient(S3Client);
const credentials = { accessKeyId: 'AKIAEXAMPLE123', secretAccessKey: 'secret' };
const client = new S3Client({ region: 'eu-west-1', credentials });
const PAGE = { bucket: 'clm-artifacts', key: FLEET_PAGE_KEY };

beforeEach(() => s3.reset());

describe('presignedGet (clm fleet-page)', () => {
  it('signs a GET of the object in the query, valid for the seconds asked', async () => {
    s3.on(HeadObjectCommand).resolves({ ContentType: 'text/html; charset=utf-8' });

    const signed = await presignedGet(client, PAGE, 3600);

    expect(s3).toHaveReceivedCommandWith(HeadObjectCommand, { Bucket: 'clm-artifacts', Key: FLEET_PAGE_KEY });
    const url = new URL((signed as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe('https://clm-artifacts.s3.eu-west-1.amazonaws.com/fleet/index.html');
    const query = url.searchParams;
    expect(query.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(query.get('X-Amz-Expires')).toBe('3600');
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(query.get('X-Amz-Credential')).toMatch(/^AKIAEXAMPLE123\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(query.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it('path-style on an endpoint (an emulator)', async () => {
    s3.on(HeadObjectCommand).resolves({});
    const local = new S3Client({
      region: 'eu-central-1',
      credentials,
      endpoint: 'http://127.0.0.1:4566',
      forcePathStyle: true,
    });

    const signed = (await presignedGet(local, PAGE, 600)) as { url: string };

    expect(signed.url).toMatch(/^http:\/\/127\.0\.0\.1:4566\/clm-artifacts\/fleet\/index\.html\?/);
    expect(new URL(signed.url).searchParams.get('X-Amz-Expires')).toBe('600');
  });

  it('signs nothing when there is no page yet', async () => {
    s3.on(HeadObjectCommand).rejects(sdkError('NotFound', 'Not Found', 404));

    await expect(presignedGet(client, PAGE, 3600)).resolves.toBe('missing');
  });

  it('passes other failures on, naming the object', async () => {
    s3.on(HeadObjectCommand).rejects(sdkError('Forbidden', 'Forbidden', 403));

    await expect(presignedGet(client, PAGE, 3600)).rejects.toThrow('s3://clm-artifacts/fleet/index.html');
  });
});

describe('linkExpirySeconds', () => {
  it('takes durations from a minute to 7 days', () => {
    expect(linkExpirySeconds('1h')).toEqual({ seconds: 3600 });
    expect(linkExpirySeconds('1m')).toEqual({ seconds: 60 });
    expect(linkExpirySeconds('168h')).toEqual({ seconds: MAX_LINK_EXPIRY_SECONDS });
    expect(linkExpirySeconds('1h30m')).toEqual({ seconds: 5400 });
  });

  it('refuses what S3 would refuse or no one could use', () => {
    expect(linkExpirySeconds('169h')).toEqual({ error: expect.stringContaining('longer than 7 days') });
    expect(linkExpirySeconds('30s')).toEqual({ error: expect.stringContaining('shorter than a minute') });
    expect(linkExpirySeconds('a week')).toEqual({ error: expect.stringContaining('not a duration') });
  });
});
