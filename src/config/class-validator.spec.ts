import * as entry from 'class-validator';
import * as parts from './class-validator';

class Sample {
  @parts.IsString()
  @parts.MaxLength(3)
  name!: unknown;

  @parts.IsOptional()
  @parts.IsInt()
  count?: unknown;
}

describe('class-validator, file by file (config/class-validator.ts)', () => {
  it("exports the entry's own functions, so rules and metadata are shared", () => {
    const own = Object.entries(parts).filter(
      ([name]) => !['validate', 'validateSync', 'validatorPackage'].includes(name),
    );
    expect(own.length).toBeGreaterThan(20);
    for (const [name, fn] of own)
      expect([name, fn]).toEqual([name, entry[name as keyof typeof entry]]);
  });

  it('validates as the entry does, with the same metadata storage', async () => {
    const bad = Object.assign(new Sample(), { name: 'long', count: 1.5 });
    const good = Object.assign(new Sample(), { name: 'ab' });
    const props = (errors: entry.ValidationError[]) => errors.map((e) => e.constraints);
    expect(props(await parts.validate(bad))).toEqual(props(await entry.validate(bad)));
    expect(props(parts.validateSync(bad))).toEqual(props(entry.validateSync(bad)));
    expect(props(parts.validateSync(bad))).toHaveLength(2);
    expect(await parts.validate(good)).toEqual([]);
    expect(parts.getMetadataStorage()).toBe(entry.getMetadataStorage());
  });
});
