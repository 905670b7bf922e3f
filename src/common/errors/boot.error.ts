/**
 * A resource the service could not get at boot (the database, the HTTP port), with the settings
 * that point at it: the boot's one log line names both (docs/operations.md).
 */
export class BootError extends Error {
  constructor(
    readonly resource: string,
    readonly settings: string[],
    cause: unknown,
  ) {
    super(`${resource}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BootError';
  }
}

/** Runs one step of the boot, naming the resource and settings if it fails. */
export async function bootStep<T>(
  resource: string,
  settings: string[],
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof BootError ? err : new BootError(resource, settings, err);
  }
}
