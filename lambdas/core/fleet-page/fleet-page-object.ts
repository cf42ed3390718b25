/**
 * Where the deployed dispatcher publishes the fleet page: one object in the artefact bucket, rewritten on each pass
 * (`clm fleet-page` signs a GET of it). DispatchFleet may write that object only (infra/task-grants.ts).
 */
export const FLEET_PAGE_PREFIX = 'fleet/';
export const FLEET_PAGE_KEY = `${FLEET_PAGE_PREFIX}index.html`;
export const FLEET_PAGE_CONTENT_TYPE = 'text/html; charset=utf-8';
