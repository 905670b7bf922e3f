/**
 * Constant texts of ours as an SQL list (`'paid', 'past_due'`): a statement, a CHECK or an index
 * built from the constant names its values once. Not for input: it is no bind parameter.
 */
export function sqlTextList(values: readonly string[]): string {
  return values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');
}
