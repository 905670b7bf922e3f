import './global-setup';

export default async function globalTeardown(): Promise<void> {
  await globalThis.__E2E_DATABASE__?.stop();
  globalThis.__E2E_DATABASE__ = undefined;
}
