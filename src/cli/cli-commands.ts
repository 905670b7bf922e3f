import { subscriptionCommands } from '../subscription/subscription.cli';
import { userCommands } from '../users/user.cli';
import { deviceCommands } from '../device/device.cli';
import { orgCommands } from '../org/org.cli';
import { outgoingWebhookCommands } from '../outgoing-webhook/outgoing-webhook.cli';
import { auditCommands } from '../audit/audit.cli';
import { personalDataCommands } from '../personal-data/personal-data.cli';
import { CliCommand } from './cli-command';
import { dbCommands } from './db.cli';

/** Every command, by name. Each feature exports its own from `<feature>.cli.ts`. */
export const COMMANDS: Record<string, CliCommand> = {
  ...orgCommands,
  ...userCommands,
  ...deviceCommands,
  ...subscriptionCommands,
  ...outgoingWebhookCommands,
  ...auditCommands,
  ...personalDataCommands,
  ...dbCommands,
};
