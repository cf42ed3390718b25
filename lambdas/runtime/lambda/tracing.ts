import { Tracer } from '@aws-lambda-powertools/tracer';
import { CLM_SERVICE_NAME } from '../../contracts/metrics';

let tracer: Tracer | undefined;

/**
 * An SDK client traced by Powertools Tracer: each call is an X-Ray subsegment of the invocation (the functions run
 * with active tracing). Outside Lambda the tracer is disabled and the client is returned as it is. Loaded by the
 * port modules on the first call, so the X-Ray SDK is not part of module init.
 */
export function traced<C extends object>(client: C): C {
  tracer ??= new Tracer({ serviceName: CLM_SERVICE_NAME });
  return tracer.captureAWSv3Client(client);
}
