import { Route, Routes, useLocation } from 'react-router';
import { useSession } from './auth/session';
import { Shell } from './layout/shell';
import { AuditPage } from './pages/audit.page';
import { CallbackPage } from './pages/callback.page';
import { DevicesPage } from './pages/devices.page';
import { NotFoundPage } from './pages/not-found.page';
import { OverviewPage } from './pages/overview.page';
import { PeoplePage } from './pages/people.page';
import { SettingsPage } from './pages/settings.page';
import { SignInPage } from './pages/sign-in.page';
import { SubscriptionPage } from './pages/subscription.page';
import { SubscriptionsPage } from './pages/subscriptions.page';
import { WebhookPage } from './pages/webhook.page';
import { WebhooksPage } from './pages/webhooks.page';
import { ProblemMessage } from './ui/problem-message';

/** Each page at its own URL under /console/, so a link can be shared and Back works. */
export function App() {
  const { state } = useSession();
  const { pathname } = useLocation();
  if (pathname === '/callback') return <CallbackPage />;
  switch (state.kind) {
    case 'loading':
      return <p role="status">Loading…</p>;
    case 'unavailable':
      return (
        <main id="main" className="sign-in">
          <h1>Device care console</h1>
          <ProblemMessage error={state.error} />
        </main>
      );
    case 'signed-out':
      return <SignInPage notice={state.notice} />;
    case 'signed-in':
      return (
        <Routes>
          <Route element={<Shell />}>
            <Route index element={<OverviewPage />} />
            <Route path="devices" element={<DevicesPage />} />
            <Route path="subscriptions" element={<SubscriptionsPage />} />
            <Route path="subscriptions/:id" element={<SubscriptionPage />} />
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="webhooks/:id" element={<WebhookPage />} />
            <Route path="people" element={<PeoplePage />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      );
  }
}
