import type { HttpRequest, HttpResponse } from '../../../contracts/triggers';
import type { Transport } from './transport';

/** The parts of a Lambda Function URL event (payload format 2.0) that we read. */
interface FunctionUrlEvent {
  readonly rawPath?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
  readonly requestContext: { readonly http: { readonly method: string; readonly path?: string } };
}

/** A Function URL request as an HttpRequest (base64 bodies decoded), an HttpResponse as a JSON answer. */
export const transport: Transport = {
  accepts: (event) => typeof (event as Partial<FunctionUrlEvent> | null)?.requestContext?.http?.method === 'string',
  input(event): HttpRequest {
    const request = event as FunctionUrlEvent;
    const body = request.body ?? '';
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = value;
    return {
      method: request.requestContext.http.method,
      path: request.rawPath ?? request.requestContext.http.path ?? '/',
      headers,
      body: request.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
    };
  },
  output(result) {
    const response = result as HttpResponse;
    return {
      statusCode: response.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(response.body),
    };
  },
};
