import { TcpProxy } from './tcp-proxy';
import { createTestApp, TestApp, TestAppOptions, testDatabaseUrl } from './test-app';

export interface AppBehindProxy {
  t: TestApp;
  /** Sits between the app and the run's database: `cut()` takes the database away. */
  proxy: TcpProxy;
  close(): Promise<void>;
}

/** A test app whose database connections go through a TCP proxy the test controls. */
export async function createAppBehindProxy(options: TestAppOptions = {}): Promise<AppBehindProxy> {
  const proxy = await TcpProxy.toDatabase(testDatabaseUrl()).start();
  const t = await createTestApp({
    ...options,
    env: { ...options.env, DATABASE_URL: TcpProxy.via(testDatabaseUrl(), proxy) },
  });
  return {
    t,
    proxy,
    close: async () => {
      proxy.restore();
      await t.close();
      await proxy.stop();
    },
  };
}
