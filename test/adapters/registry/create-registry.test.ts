import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry } from '../../../lambdas/adapters/registry/create-registry';
import { DynamoDbRegistry } from '../../../lambdas/adapters/registry/dynamodb-registry';
import { FileRegistry } from '../../../lambdas/adapters/registry/file-registry';
import { HttpRegistry } from '../../../lambdas/adapters/registry/http-registry';
import { ValidationError } from '../../../lambdas/shared/errors';

const cwd = '/work/project';

describe('createRegistry', () => {
  it.each([
    ['clusters.yaml', 'file://clusters.yaml'],
    ['./conf/clusters.yaml', 'file://./conf/clusters.yaml'],
    ['/etc/clm/clusters.yaml', 'file:///etc/clm/clusters.yaml'],
    ['file://clusters.yaml', 'file://clusters.yaml'],
    ['file:///etc/clm/clusters.yaml', 'file:///etc/clm/clusters.yaml'],
  ])('opens %s as a file registry', (uri, description) => {
    const registry = createRegistry(uri, { cwd });
    expect(registry).toBeInstanceOf(FileRegistry);
    expect(registry.description).toBe(description);
  });

  it('opens http(s) URLs as the HTTP registry, keeping a path prefix', () => {
    const registry = createRegistry('https://registry.example.org/api/', { cwd, token: 't' });
    expect(registry).toBeInstanceOf(HttpRegistry);
    expect(registry.description).toBe('https://registry.example.org/api');
  });

  it('opens dynamodb://TABLE with the given client', () => {
    const registry = createRegistry('dynamodb://clm-registry', {
      cwd,
      dynamoDb: new DynamoDBClient({ region: 'eu-central-1' }),
    });
    expect(registry).toBeInstanceOf(DynamoDbRegistry);
    expect(registry.description).toBe('dynamodb://clm-registry');
  });

  it('refuses other schemes, naming the accepted forms', () => {
    expect(() => createRegistry('ftp://x/clusters.yaml', { cwd })).toThrow(ValidationError);
    expect(() => createRegistry('ftp://x/clusters.yaml', { cwd })).toThrow(
      '--registry ftp://x/clusters.yaml: unsupported scheme ftp://; use a path or file://PATH (clusters.yaml), http(s)://HOST[/PREFIX] (Cluster Registry API), or dynamodb://TABLE',
    );
  });

  it('refuses an empty file path and a bad table name', () => {
    expect(() => createRegistry('file://', { cwd })).toThrow(/the file path is empty/);
    expect(() => createRegistry('dynamodb://a', { cwd })).toThrow(/is not a DynamoDB table name/);
  });
});
