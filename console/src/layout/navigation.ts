import type { Session } from '../auth/session';

export interface NavItem {
  name: string;
  path: string;
}

/** The pages a person's organization and role may use; the API refuses the rest anyway. */
export function navigationFor({ user, org }: Session): NavItem[] {
  const admin = user.role === 'admin';
  return [
    { name: 'Overview', path: '/' },
    { name: 'Devices', path: '/devices' },
    ...(org.fulfilment ? [{ name: 'Subscriptions', path: '/subscriptions' }] : []),
    ...(admin
      ? [
          { name: 'Webhooks', path: '/webhooks' },
          { name: 'People', path: '/people' },
          { name: 'Audit', path: '/audit' },
          { name: 'Settings', path: '/settings' },
        ]
      : []),
  ];
}
