import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkovFindings, cfnLintFindings } from './lint-findings';
import { unexplained } from './lint-justifications';

describe('lint findings and their justifications', () => {
  it('accepts a justified finding on the resource it names, and reports the same rule elsewhere', () => {
    const findings = checkovFindings({
      results: {
        failed_checks: [
          {
            check_id: 'CKV_AWS_116',
            resource: 'AWS::Lambda::Function.Prepare75E8D311',
            file_path: 'w',
            check_name: 'DLQ',
          },
          { check_id: 'CKV_AWS_116', resource: 'AWS::SQS::Queue.Inbox1234ABCD', file_path: 'w', check_name: 'DLQ' },
          {
            check_id: 'CKV_AWS_999',
            resource: 'AWS::Lambda::Function.Prepare75E8D311',
            file_path: 'w',
            check_name: 'new',
          },
        ],
      },
    });
    expect(unexplained(findings).map((f) => `${f.rule} ${f.resource}`)).toEqual([
      'CKV_AWS_116 AWS::SQS::Queue.Inbox1234ABCD',
      'CKV_AWS_999 AWS::Lambda::Function.Prepare75E8D311',
    ]);
  });

  it('names cfn-lint findings by the resource type and logical id of the template', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-lint-'));
    try {
      const file = join(dir, 'T.template.json');
      writeFileSync(
        file,
        JSON.stringify({ Resources: { Fn1: { Type: 'AWS::Lambda::Function' }, Q: { Type: 'AWS::SQS::Queue' } } }),
      );
      const match = (id: string) => ({
        Filename: file,
        Message: 'x',
        Location: { Path: ['Resources', id, 'DependsOn', 0], Start: { LineNumber: 3 } },
        Rule: { Id: 'W3005' },
      });
      const findings = cfnLintFindings([match('Fn1'), match('Q')]);
      expect(findings.map((f) => f.resource)).toEqual(['AWS::Lambda::Function.Fn1', 'AWS::SQS::Queue.Q']);
      expect(unexplained(findings).map((f) => f.resource)).toEqual(['AWS::SQS::Queue.Q']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
