/** The paths `clm serve` answers on (webhook-server.ts), apart so its help names them without loading the server. */
export const WEBHOOK_PATH = '/webhooks/github';
export const HEALTH_PATH = '/healthz';
