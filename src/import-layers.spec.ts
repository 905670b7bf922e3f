import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ICruiseResult } from 'dependency-cruiser';

/**
 * The lint's import rules (`.dependency-cruiser.mjs`, read from ARCHITECTURE.md's layer table),
 * run on small planted trees: each must fail on what `npm run lint` must refuse.
 */
const ROOT = join(__dirname, '..');

/** The rules of the config in `dir` (the repository's own by default). */
async function rules(dir = ROOT) {
  const { default: extract } =
    await import('dependency-cruiser/config-utl/extract-depcruise-config');
  return extract(join(dir, '.dependency-cruiser.mjs'));
}

/** The rules broken by a tree of `files` (path → text) cruised as src/ is. */
async function broken(files: Record<string, string>): Promise<string[]> {
  const { cruise } = await import('dependency-cruiser');
  const dir = mkdtempSync(join(tmpdir(), 'import-layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const { output } = await cruise(['src'], {
      ruleSet: await rules(),
      validate: true,
      baseDir: dir,
      tsPreCompilationDeps: true,
    });
    const violations = (output as ICruiseResult).summary.violations;
    return violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('import layers (npm run lint)', () => {
  /** A planted tree (path → text) and the rules it breaks. */
  const planted: [string, Record<string, string>, string[]][] = [
    [
      'refuses a planted cycle: org/ importing device/, which imports org/',
      {
        'src/org/org.service.ts': "import { DeviceModule } from '../device/device.module';\n",
        'src/device/device.module.ts': "import { OrgService } from '../org/org.service';\n",
      },
      ['layers/org: src/org/org.service.ts → src/device/device.module.ts'],
    ],
    [
      'counts a type-only import, and refuses one of the same layer',
      {
        'src/users/user.service.ts': "import type { Device } from '../device/device.entity';\n",
        'src/device/device.entity.ts': 'export class Device {}\n',
      },
      ['layers/users: src/users/user.service.ts → src/device/device.entity.ts'],
    ],
    [
      "refuses a shared layer importing a feature, and a feature's internal file",
      {
        'src/common/errors/x.ts': "import { OrgService } from '../../org/org.service';\n",
        'src/device/x.service.ts': "import { OrgResponse } from '../org/org-view.dto';\n",
        'src/org/org.service.ts': 'export class OrgService {}\n',
        'src/org/org-view.dto.ts': 'export class OrgResponse {}\n',
      },
      [
        'feature-public-files: src/device/x.service.ts → src/org/org-view.dto.ts',
        'layers/common: src/common/errors/x.ts → src/org/org.service.ts',
      ],
    ],
    [
      "lets an import go down the table, to another feature's public file",
      {
        'src/device/x.service.ts': "import { OrgService } from '../org/org.service';\n",
        'src/org/org.service.ts': "import { Clock } from '../common/clock/clock';\n",
        'src/common/clock/clock.ts': 'export class Clock {}\n',
      },
      [],
    ],
  ];
  it.each(planted)('%s', async (_name, files, rulesBroken) => {
    expect(await broken(files)).toEqual(rulesBroken);
  });

  it('fails to load when a folder of src/ is missing from the table', async () => {
    // The config beside a copy of ARCHITECTURE.md without org/'s row, over a src/ with org/.
    const dir = mkdtempSync(join(tmpdir(), 'import-layers-'));
    try {
      const table = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
      writeFileSync(join(dir, 'ARCHITECTURE.md'), table.replace(/^\| 5 .*$/m, ''));
      copyFileSync(join(ROOT, '.dependency-cruiser.mjs'), join(dir, '.dependency-cruiser.mjs'));
      mkdirSync(join(dir, 'src', 'org'), { recursive: true });
      await expect(rules(dir)).rejects.toThrow(/missing org\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
