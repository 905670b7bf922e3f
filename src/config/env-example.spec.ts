import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { EnvironmentVariables } from './env.validation';

/**
 * `.env.example` lists every setting (CONTRACT.md section 2) and docs/configuration.md describes
 * each: both are read here against what the validation knows, so neither drifts from it.
 */
const root = join(__dirname, '..', '..');
const known = Object.keys(new EnvironmentVariables()).sort();

describe('the settings the validation knows', () => {
  it('are exactly those .env.example lists', () => {
    const listed = Object.keys(parse(readFileSync(join(root, '.env.example')))).sort();
    expect(listed).toEqual(known);
  });

  it('are each described in docs/configuration.md', () => {
    const page = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    expect(known.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });
});
