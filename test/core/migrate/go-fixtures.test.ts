/**
 * The Go-template corpus: every fixtures/*.tmpl is converted by `clm migrate`'s converter and rendered by our
 * engine with the inputs of fixtures/data.json; the result must equal, byte for byte, what Go's text/template
 * gave (fixtures/*.out, generated once by go-reference/main.go), or fail where Go failed (fixtures/*.err).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import { convertGoTemplate } from '../../../lambdas/core/migrate/convert-template';
import { templateInstanceInfo } from '../../../lambdas/core/render/instance-info';
import type { TemplateFile } from '../../../lambdas/ports/template-engine';
import { TemplateRenderError } from '../../../lambdas/shared/errors';

const DIR = join(__dirname, 'fixtures');
const FIXTURES = readdirSync(DIR)
  .filter((name) => name.endsWith('.tmpl'))
  .sort();

function context(): Record<string, unknown> {
  const data = JSON.parse(readFileSync(join(DIR, 'data.json'), 'utf8'));
  data.Values.InstanceInfo = templateInstanceInfo(data.Values.InstanceInfo);
  return data;
}

function converted(name: string): TemplateFile {
  const result = convertGoTemplate(readFileSync(join(DIR, name), 'utf8'), name);
  if (!result.ok) throw new Error(`${name}:${result.line ?? '?'}: not converted: ${result.reason}`);
  return { path: `fixtures/${name}`, content: result.output };
}

function expected(name: string): { output?: string; goError?: string } {
  const base = join(DIR, name.replace(/\.tmpl$/, ''));
  try {
    return { output: readFileSync(`${base}.out`, 'utf8') };
  } catch {
    return { goError: readFileSync(`${base}.err`, 'utf8').trim() };
  }
}

describe('Go template corpus: converted templates render exactly as Go rendered them', () => {
  const engine = new HandlebarsTemplateEngine();

  it('has a fixture for every construct the converter handles', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(15);
    for (const name of FIXTURES) expect(expected(name)).toBeDefined();
  });

  it.each(FIXTURES)('%s', async (name) => {
    // Arrange
    const template = converted(name);
    const want = expected(name);

    // Act
    const render = engine.render({
      template,
      context: context(),
      sibling: (relative) => converted(relative),
    });

    // Assert
    if (want.output !== undefined) await expect(render).resolves.toBe(want.output);
    else await expect(render).rejects.toBeInstanceOf(TemplateRenderError);
  });
});
