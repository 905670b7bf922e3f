import { subscriptionCommands } from '../subscription/subscription.cli';
import { userCommands } from '../users/user.cli';
import { deviceCommands } from '../device/device.cli';
import { orgCommands } from '../org/org.cli';
import { outgoingWebhookCommands } from '../outgoing-webhook/outgoing-webhook.cli';
import { auditCommands } from '../audit/audit.cli';
import { personalDataCommands } from './personal-data.cli';
import { CliCommand } from '../common/cli/cli-command';
import { dbCommands } from './db.cli';
import { orgUpdateCommands } from './org-update.cli';

/**
 * Every command, by name. Each feature exports its own from `<feature>.cli.ts`; a command that
 * joins features (`org:update`, `data:*`) is declared here, in cli/, with a module that loads them.
 */
export const COMMANDS: Record<string, CliCommand> = {
  ...orgCommands,
  ...orgUpdateCommands,
  ...userCommands,
  ...deviceCommands,
  ...subscriptionCommands,
  ...outgoingWebhookCommands,
  ...auditCommands,
  ...personalDataCommands,
  ...dbCommands,
};
