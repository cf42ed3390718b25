import { Stack, aws_eventschemas as eventschemas } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { FLEET_EVENT_TYPES } from '../../lambdas/contracts/fleet-events';
import { EVENT_VERSION, eventSchemaDocument, eventSchemaName } from '../../lambdas/contracts/event-schemas';

/**
 * The published schemas of CLM's events: an EventBridge schema registry (`<stack>-events`) holding one JSON Schema
 * (draft 4) per event type, `clm.fleet@<type>`, generated at synth from the zod contracts, as docs/events/ holds them.
 * Consumers browse them in the console or download code bindings; a new detail version is a new schema version.
 */
export class ClmEventSchemas extends Construct {
  readonly registryName: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const registry = new eventschemas.CfnRegistry(this, 'Registry', {
      registryName: `${Stack.of(this).stackName}-events`,
      description: `CLM's events (source clm.fleet), detail version ${EVENT_VERSION}: docs/events.md`,
    });
    this.registryName = registry.attrRegistryName;
    for (const type of FLEET_EVENT_TYPES) {
      new eventschemas.CfnSchema(this, type, {
        registryName: registry.attrRegistryName,
        schemaName: eventSchemaName(type),
        type: 'JSONSchemaDraft4',
        content: JSON.stringify(eventSchemaDocument(type)),
        description: `CLM event ${type}, detail version ${EVENT_VERSION}`,
      });
    }
  }
}
