/** The list settings' one syntax: comma-separated, spaces around items ignored, empty items dropped. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The boolean settings' one syntax: true/1/yes and false/0/no, any case; anything else undefined. */
export function parseBool(value: string | undefined): boolean | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  return undefined;
}
