import type { CfnTemplate } from '../../core/cloudformation/cfn-yaml';
import { hashValue } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState, ResourceRecord, StackRecord } from '../world-state';
import { availabilityZones } from './account';
import { CfnEvalError, evaluate, isPseudoParameter, referencedNames } from './cfn-intrinsics';
import type { EvalScope } from './cfn-intrinsics';
import { deleteResource, provisionResource, resourceAttribute } from './cfn-resources';

/**
 * Carrying out a stack create or update when its virtual time is up: resources in dependency order,
 * resources that left the template deleted, outputs and exports evaluated. Any error rolls the account
 * back to how it was before (the caller snapshots it) and becomes the stack's failure reason.
 */

type Section = Record<string, Record<string, unknown>>;

export function section(template: CfnTemplate, name: string): Section {
  const value = template[name];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Section) : {};
}

/** Parameter values: only defaults (StackSpec has no parameters). Throws when one has no default. */
export function parameterValues(template: CfnTemplate): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, definition] of Object.entries(section(template, 'Parameters'))) {
    if (definition.Default === undefined) missing.push(name);
    const value = definition.Default;
    values[name] = definition.Type === 'CommaDelimitedList' && typeof value === 'string' ? value.split(',') : value;
  }
  if (missing.length > 0) throw new CfnEvalError(`Parameters: [${missing.join(', ')}] must have values`);
  return values;
}

/** Static checks CloudFormation makes before it starts: known references, known conditions, no cycles. */
export function validateTemplate(template: CfnTemplate): void {
  const resources = section(template, 'Resources');
  if (Object.keys(resources).length === 0)
    throw new CfnEvalError('Template format error: At least one Resources member must be defined.');
  const known = new Set([...Object.keys(resources), ...Object.keys(section(template, 'Parameters'))]);
  for (const [id, resource] of Object.entries(resources)) {
    if (typeof resource.Type !== 'string')
      throw new CfnEvalError(
        `Template format error: [/Resources/${id}] Every Resources object must contain a Type member.`,
      );
  }
  const unresolved = [...referencedNames([resources, template.Outputs ?? {}])].filter(
    (name) => !known.has(name) && !isPseudoParameter(name),
  );
  if (unresolved.length > 0)
    throw new CfnEvalError(
      `Template format error: Unresolved resource dependencies [${unresolved.join(', ')}] in the Resources block of the template`,
    );
  resourceOrder(template);
}

/** Logical ids in an order where every resource comes after what it refers to (template order otherwise). */
export function resourceOrder(template: CfnTemplate): string[] {
  const resources = section(template, 'Resources');
  const ids = Object.keys(resources);
  const deps = new Map(
    ids.map((id) => {
      const dependsOn = resources[id].DependsOn;
      const explicit = Array.isArray(dependsOn)
        ? dependsOn.map(String)
        : typeof dependsOn === 'string'
          ? [dependsOn]
          : [];
      const refs = [...referencedNames(resources[id])].filter((name) => name !== id && name in resources);
      return [id, new Set([...refs, ...explicit])];
    }),
  );
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < ids.length) {
    const next = ids.find((id) => !placed.has(id) && [...deps.get(id)!].every((dep) => placed.has(dep)));
    if (!next)
      throw new CfnEvalError(
        `Circular dependency between resources: [${ids.filter((id) => !placed.has(id)).join(', ')}]`,
      );
    order.push(next);
    placed.add(next);
  }
  return order;
}

export function makeScope(
  account: AccountState,
  stack: StackRecord,
  template: CfnTemplate,
  records: Readonly<Record<string, ResourceRecord>>,
): EvalScope {
  const conditions = section(template, 'Conditions');
  const cache = new Map<string, boolean>();
  const scope: EvalScope = {
    region: account.region,
    accountId: account.accountId,
    stackName: stack.name,
    stackId: stack.stackId,
    parameters: parameterValues(template),
    mappings: section(template, 'Mappings'),
    condition(name) {
      if (!(name in conditions))
        throw new CfnEvalError(`Template format error: Unresolved condition dependency ${name}`);
      if (!cache.has(name)) {
        cache.set(name, false);
        const value = evaluate(conditions[name], scope);
        cache.set(name, value === true || value === 'true');
      }
      return cache.get(name)!;
    },
    ref: (id) => records[id]?.physicalId,
    getAtt(id, attribute) {
      const record = records[id];
      if (!record) throw new CfnEvalError(`Template error: instance of Fn::GetAtt references undefined resource ${id}`);
      return resourceAttribute(record, attribute);
    },
    importValue(name) {
      const exported = account.exports[name];
      if (!exported) throw new CfnEvalError(`No export named ${name} found`);
      return exported.value;
    },
    azs: (region) => availabilityZones(region),
  };
  return scope;
}

function included(scope: EvalScope, definition: Record<string, unknown>): boolean {
  return typeof definition.Condition !== 'string' || scope.condition(definition.Condition);
}

/** Provision every resource of `template` into `stack`; returns the new resource records and outputs. */
export function applyTemplate(
  ctx: SimContext,
  account: AccountState,
  stack: StackRecord,
  template: CfnTemplate,
  tags: Record<string, string>,
): { resources: Record<string, ResourceRecord>; outputs: Record<string, string> } {
  const resources = section(template, 'Resources');
  const records: Record<string, ResourceRecord> = {};
  const scope = makeScope(account, stack, template, records);
  for (const id of resourceOrder(template)) {
    const definition = resources[id];
    if (!included(scope, definition)) continue;
    const type = String(definition.Type);
    const props = (evaluate(definition.Properties ?? {}, scope) ?? {}) as Record<string, unknown>;
    const previous = stack.resources[id];
    // Stack tags propagate to resources, so a tag change updates them too (an ASG then takes its template's DesiredCapacity again).
    const propsHash = hashValue([props, tags]);
    const defHash = hashValue(definition);
    if (previous && previous.type === type && previous.propsHash === propsHash) {
      records[id] = { ...previous, defHash };
      continue;
    }
    try {
      const provisioned = provisionResource(
        { ctx, account, stack, stackTags: tags, logicalId: id, previous },
        type,
        props,
      );
      records[id] = { type, ...provisioned, defHash, propsHash };
    } catch (error) {
      if (error instanceof CfnEvalError)
        throw Object.assign(new CfnEvalError(`Resource ${id} (${type}): ${error.message}`), {
          resource: { logicalId: id, type },
        });
      throw error;
    }
  }
  for (const [id, record] of Object.entries(stack.resources))
    if (!(id in records)) deleteResource(ctx, account, record);
  return { resources: records, outputs: evaluateOutputs(account, stack, template, scope) };
}

function evaluateOutputs(
  account: AccountState,
  stack: StackRecord,
  template: CfnTemplate,
  scope: EvalScope,
): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [name, exported] of Object.entries(account.exports))
    if (exported.stack === stack.name) delete account.exports[name];
  for (const [key, definition] of Object.entries(section(template, 'Outputs'))) {
    if (!included(scope, definition)) continue;
    const value = evaluate(definition.Value, scope);
    const text = Array.isArray(value)
      ? value.join(',')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
    outputs[key] = text;
    const exportName = (definition.Export as Record<string, unknown> | undefined)?.Name;
    if (exportName !== undefined) {
      const name = String(evaluate(exportName, scope));
      const owner = account.exports[name];
      if (owner && owner.stack !== stack.name)
        throw new CfnEvalError(`Export with name ${name} is already exported by stack ${owner.stack}`);
      account.exports[name] = { value: text, stack: stack.name };
    }
  }
  return outputs;
}
