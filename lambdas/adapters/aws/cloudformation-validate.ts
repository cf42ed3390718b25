import { ValidateTemplateCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { toClmError } from './aws-errors';

/** ValidateTemplate's limit for an inline TemplateBody. */
const INLINE_VALIDATE_LIMIT = 51_200;
/** How CloudFormation's ValidateTemplate words a refusal. */
const TEMPLATE_REFUSAL = /^(Template format error|Template error|Unresolved resource dependencies|Invalid template)/;

/**
 * CloudFormation's own check of a template: its problems, empty when valid or over the inline limit (not sent).
 * CloudFormation answers a template it refuses with a ValidationError naming a template error. moto (which lints
 * templates with cfn-lint) also answers ValidationError for lint warnings CloudFormation accepts: only CloudFormation's
 * own refusals are problems. Anything but a ValidationError is not about the template.
 */
export async function validateTemplate(client: CloudFormationClient, templateBody: string): Promise<readonly string[]> {
  if (Buffer.byteLength(templateBody) > INLINE_VALIDATE_LIMIT) return [];
  try {
    await client.send(new ValidateTemplateCommand({ TemplateBody: templateBody }));
    return [];
  } catch (error) {
    if ((error as { name?: string }).name !== 'ValidationError')
      throw toClmError(error, 'CloudFormation ValidateTemplate');
    const message = (error as Error).message;
    return TEMPLATE_REFUSAL.test(message) ? [message] : [];
  }
}
