import { CliCommand } from '../cli/cli-command';
import { SubscriptionService } from './subscription.service';

export const subscriptionCommands: Record<string, CliCommand> = {
  'subscription:show': {
    usage: 'subscription:show ID',
    options: {},
    positionals: ['ID'],
    run: async (app, args) =>
      SubscriptionService.view(await app.get(SubscriptionService).get(args.positionals[0] ?? '')),
  },
};
