import './global-setup';

export default async function globalTeardown(): Promise<void> {
  await Promise.all((globalThis.__E2E_DATABASES__ ?? []).map((d) => d.stop()));
  globalThis.__E2E_DATABASES__ = undefined;
}
