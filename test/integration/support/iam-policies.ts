import {
  GetRolePolicyCommand,
  ListRolePoliciesCommand,
  PutRolePolicyCommand,
  type IAMClient,
} from '@aws-sdk/client-iam';
import { decodePolicyDocument } from './aws-node-bootstrap';

interface PolicyDocument {
  readonly Statement: readonly { readonly Action: string | readonly string[] }[];
}

/**
 * An operator's change to a role: the statements of its inline policies that grant `action` removed. Returns what puts
 * them back.
 */
export async function revokeFromRole(iam: IAMClient, role: string, action: string): Promise<() => Promise<void>> {
  const names = (await iam.send(new ListRolePoliciesCommand({ RoleName: role }))).PolicyNames ?? [];
  const restores: (() => Promise<unknown>)[] = [];
  let removed = 0;
  for (const name of names) {
    const raw = (await iam.send(new GetRolePolicyCommand({ RoleName: role, PolicyName: name }))).PolicyDocument;
    const document = decodePolicyDocument(raw) as PolicyDocument;
    const grants = (s: PolicyDocument['Statement'][number]) => [s.Action].flat().includes(action);
    const kept = document.Statement.filter((s) => !grants(s));
    if (kept.length === document.Statement.length) continue;
    removed += document.Statement.length - kept.length;
    const put = (statements: PolicyDocument['Statement']) =>
      iam.send(
        new PutRolePolicyCommand({
          RoleName: role,
          PolicyName: name,
          PolicyDocument: JSON.stringify({ ...document, Statement: statements }),
        }),
      );
    await put(kept);
    restores.push(() => put(document.Statement));
  }
  if (removed === 0) throw new Error(`no inline policy of role ${role} grants ${action}`);
  return async () => {
    for (const restore of restores) await restore();
  };
}
