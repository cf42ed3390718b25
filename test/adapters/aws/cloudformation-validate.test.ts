import { CloudFormationClient, ValidateTemplateCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { validateTemplate } from '../../../lambdas/adapters/aws/cloudformation-validate';

const cfn = mockClient(CloudFormationClient);
const client = new CloudFormationClient({ region: 'eu-central-1' });
const refuse = (message: string) =>
  cfn.on(ValidateTemplateCommand).rejects(Object.assign(new Error(message), { name: 'ValidationError' }));

beforeEach(() => cfn.reset());

describe('validateTemplate (CloudFormation ValidateTemplate)', () => {
  it("answers CloudFormation's refusals as problems and a valid template as none", async () => {
    cfn.on(ValidateTemplateCommand).resolves({});
    expect(await validateTemplate(client, 'Resources: {}')).toEqual([]);
    refuse('Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template');
    expect(await validateTemplate(client, 'Resources: {}')).toEqual([
      'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template',
    ]);
  });

  it("does not count a linter's warning (moto answers cfn-lint findings as ValidationError) as a refusal", async () => {
    refuse("Stack with id ['FromPort', 'ToPort'] are ignored when using 'IpProtocol' value '-1' does not exist");
    expect(await validateTemplate(client, 'Resources: {}')).toEqual([]);
  });

  it('does not send a template over the inline limit, and throws errors that are not about the template', async () => {
    expect(await validateTemplate(client, `Resources: {}\n#${'x'.repeat(60_000)}`)).toEqual([]);
    expect(cfn.commandCalls(ValidateTemplateCommand)).toHaveLength(0);
    cfn.on(ValidateTemplateCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    await expect(validateTemplate(client, 'Resources: {}')).rejects.toThrow(/ValidateTemplate/);
  });
});
