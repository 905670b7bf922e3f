import { CliCommand, str } from '../cli/cli-command';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from './subscription.entity';
import { SubscriptionReconciler } from './subscription-reconciler.service';
import { SubscriptionService } from './subscription.service';

function statusOf(value: string): SubscriptionStatus | undefined {
  if (value === '') return undefined;
  if ((SUBSCRIPTION_STATUSES as readonly string[]).includes(value)) {
    return value as SubscriptionStatus;
  }
  throw new Error(`--status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`);
}

function limitOf(value: string): number {
  if (value === '') return 50;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new Error('--limit must be 1 to 200');
  return n;
}

export const subscriptionCommands: Record<string, CliCommand> = {
  'subscription:show': {
    usage: 'subscription:show ID',
    options: {},
    positionals: ['ID'],
    run: async (app, args) => {
      const service = app.get(SubscriptionService);
      const sub = await service.get(args.positionals[0] ?? '');
      return SubscriptionService.view(sub, await service.historyOf(sub.id));
    },
  },
  'subscription:list': {
    usage: 'subscription:list [--status S] [--limit N] [--cursor C]',
    options: {
      status: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    run: (app, args) => {
      const cursor = str(args, 'cursor');
      return app.get(SubscriptionService).list({
        status: statusOf(str(args, 'status')),
        limit: limitOf(str(args, 'limit')),
        cursor: cursor === '' ? undefined : cursor,
      });
    },
  },
  'subscription:reconcile': {
    usage: 'subscription:reconcile',
    options: {},
    run: (app) => app.get(SubscriptionReconciler).runOnce(),
  },
};
