// Import this first (before any adapter): from then on `lambdas/adapters/aws/ec2-api.ts` is the SDK layer's EC2
// client, as in a deployed task, so every EC2 adapter loaded after it sends through that client. (The Jest transform
// does not hoist `jest.mock` above imports, hence a module of its own, imported first.)
import { join } from 'node:path';
import { LAYER_MODULES, cachedSdkLayer } from '../../../infra/sdk-layer/build-sdk-layer';

const LAYER_EC2 = join(cachedSdkLayer(join(__dirname, '..', '..', '..')), LAYER_MODULES, '@aws-sdk', 'client-ec2');

jest.mock('../../../lambdas/adapters/aws/ec2-api', () => jest.requireActual(LAYER_EC2));
