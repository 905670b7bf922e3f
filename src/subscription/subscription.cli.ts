import { CliCommand, dtoFrom, PAGE_FLAGS } from '../cli/cli-command';
import { SUBSCRIPTION_STATUSES } from './subscription.entity';
import { ListSubscriptionsDto } from './list-subscriptions.dto';
import { SubscriptionLifecycleModule } from './subscription-lifecycle.module';
import { SubscriptionModule } from './subscription.module';
import { SubscriptionReconciler } from './subscription-reconciler.service';
import { SubscriptionService } from './subscription.service';

export const subscriptionCommands: Record<string, CliCommand> = {
  'subscription:show': {
    summary: 'Print one subscription record, with its history',
    usage: 'subscription:show ID',
    options: {},
    positionals: ['ID'],
    // The records alone (no processor, no lifecycle): these commands only read.
    module: SubscriptionModule,
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const service = app.get(SubscriptionService);
        const sub = await service.get(args.positionals[0] ?? '');
        return SubscriptionService.view(sub, await service.historyOf(sub.id));
      }),
  },
  'subscription:list': {
    summary: 'List subscriptions newest first, a page at a time',
    usage: 'subscription:list [--status S] [--limit N] [--cursor C]',
    options: {
      status: { type: 'string', help: `only this status: ${SUBSCRIPTION_STATUSES.join(', ')}` },
      ...PAGE_FLAGS,
    },
    // The records alone (no processor, no lifecycle): these commands only read.
    module: SubscriptionModule,
    prepare: async (args) => {
      const query = await dtoFrom(ListSubscriptionsDto, args, ['status', 'limit', 'cursor']);
      return (app) => app.get(SubscriptionService).list(query);
    },
  },
  'subscription:reconcile': {
    summary: 'Run the reconcile pass once (asks the processor), print what it changed',
    usage: 'subscription:reconcile',
    options: {},
    module: SubscriptionLifecycleModule,
    prepare: () => Promise.resolve((app) => app.get(SubscriptionReconciler).runOnce()),
  },
};
